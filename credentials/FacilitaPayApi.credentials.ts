import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

export const PRODUCTION_BASE_URL = 'https://api.facilitapay.com/api/v1';
export const SANDBOX_BASE_URL = 'https://sandbox-api.facilitapay.com/api/v1';

/**
 * Whether a host may be reached over plain http: loopback and private networks only (a local
 * sandbox or a proxy next to n8n). Anywhere else the bearer token would cross the internet in clear.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
	if (/^(fc|fd)[0-9a-f]{2}:/.test(host) || host.startsWith('fe80:')) return true;
	const octets = host.split('.').map(Number);
	if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255))
		return false;
	const [a, b] = octets;
	return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * Why a custom base URL cannot be used, or undefined when it can: it must be an http(s) URL, and
 * plain http only for loopback or private addresses.
 */
export function baseUrlProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `"${url}" is not a URL: enter it as https://host/api/v1`;
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:') {
		if (isLocalHost(parsed.hostname)) return undefined;
		return `"${url}" uses plain http to a host outside this machine or network, which would send the token unencrypted: use https://`;
	}
	return `"${url}" must start with https:// (or http:// for a local sandbox)`;
}

/** The API base URL the credentials point at, without a trailing slash. */
export function credentialBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const environment = (credentials.environment as string | undefined) ?? 'production';
	let url = PRODUCTION_BASE_URL;
	if (environment === 'sandbox') url = SANDBOX_BASE_URL;
	if (environment === 'custom') {
		url = String(credentials.baseUrl ?? '').trim();
		const problem = baseUrlProblem(url);
		if (problem) throw new Error(`FacilitaPay credentials: the Base URL ${problem}.`);
	}
	return url.replace(/\/+$/, '');
}

/**
 * Which username and password a session token was obtained with. The Authorization header sends the
 * token only while it still matches them, so after the password is changed (or mistyped) the next
 * request is refused, n8n signs in again with the new password once, and the credential test fails
 * when that password is wrong. The same value is computed in the header expression below
 * (`.hash("sha256")` there is n8n's SHA-256 in lower-case hex, like this one).
 */
export function sessionFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const pair = JSON.stringify([
		String(credentials.username || ''),
		String(credentials.password || ''),
	]);
	return createHash('sha256').update(pair).digest('hex');
}

let lastFingerprint: { pair: string; digest: string } | undefined;

/** The token the Authorization header carries. */
export function bearerToken(credentials: ICredentialDataDecryptedObject): string {
	if (credentials.authentication !== 'usernamePassword')
		return String(credentials.accessToken ?? '');
	const pair = `${String(credentials.username || '')}\u0000${String(credentials.password || '')}`;
	if (lastFingerprint?.pair !== pair)
		lastFingerprint = { pair, digest: sessionFingerprint(credentials) };
	// A token obtained with other credentials (the password was changed) is not sent: the
	// service refuses the request, and n8n signs in again with the new password.
	return credentials.sessionFingerprint === lastFingerprint.digest
		? String(credentials.sessionToken ?? '')
		: 'token-of-other-credentials';
}

/** How long a just-issued token is handed to other refused requests instead of signing in again. */
export const TOKEN_REUSE_MS = 20_000;
/** Sign-in attempts when the service answers 429, the first included. */
const SIGN_IN_ATTEMPTS = 4;

/** How a refused sign-in waits before the next try (replaced in tests). */
export const signInRetry = { wait: async (ms: number) => await sleep(ms) };

interface SignInState {
	inFlight?: Promise<string | undefined>;
	token?: string;
	issuedAt?: number;
}

/** Sign-ins of this process, by base URL, username and password fingerprint. */
const signIns = new Map<string, SignInState>();

/** Forgets every shared sign-in (tests). */
export function forgetSignIns(): void {
	signIns.clear();
}

/**
 * One sign-in per account at a time in this process: callers that arrive while a sign-in is in
 * flight wait for it; callers that arrive shortly after get the token it issued, unless that very
 * token is the one that was just refused.
 */
export async function sharedSignIn(
	credentials: ICredentialDataDecryptedObject,
	signInNow: () => Promise<string | undefined>,
	now: () => number = Date.now,
): Promise<string | undefined> {
	const key = `${credentialBaseUrl(credentials)}\u0000${sessionFingerprint(credentials)}`;
	let state = signIns.get(key);
	if (!state) {
		state = {};
		signIns.set(key, state);
	}
	if (state.inFlight) return await state.inFlight;
	// A token issued moments ago is handed to a request refused with an older one (the node sends
	// each request with the token it had when it left), never to one refused with that very token.
	if (
		state.token !== undefined &&
		state.issuedAt !== undefined &&
		now() - state.issuedAt < TOKEN_REUSE_MS &&
		credentials.sessionToken !== state.token
	) {
		return state.token;
	}
	const current = state;
	current.inFlight = signInNow();
	try {
		const token = await current.inFlight;
		if (token !== undefined) {
			current.token = token;
			current.issuedAt = now();
		}
		return token;
	} finally {
		current.inFlight = undefined;
	}
}

/**
 * Whether the service still takes this session token: one cheap read with it (only a 401 or 403
 * says no). n8n also asks the
 * credential for a new token after failures that have nothing to do with it (its HTTP Request
 * node does so after ANY error, then sends the failed request again, a payment included): a token
 * that still works is kept, so nothing is sent again.
 */
async function tokenStillWorks(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
): Promise<boolean> {
	try {
		await helpers.httpRequest({
			method: 'GET',
			url: `${credentialBaseUrl(credentials)}/notifications`,
			qs: { per_page: '1' },
			headers: {
				Accept: 'application/json',
				Authorization: `Bearer ${String(credentials.sessionToken)}`,
			},
			json: true,
			timeout: 30_000,
		});
		return true;
	} catch (error) {
		// Only the service's refusal of the token says it is spent. When the read fails for any other
		// reason (the service is down), the token is kept: a sign-in then would hand n8n a new token,
		// and n8n would send the failed request (maybe a payment) again.
		const status = statusOf(error);
		return status !== 401 && status !== 403;
	}
}

function statusOf(error: unknown): number | undefined {
	const e = (error ?? {}) as IDataObject;
	const response = (e.response ??
		(e.cause as IDataObject | undefined)?.response ??
		{}) as IDataObject;
	const status = Number(response.status ?? e.httpCode ?? e.statusCode);
	return Number.isFinite(status) && status > 0 ? status : undefined;
}

function retryAfterSeconds(error: unknown): number | undefined {
	const e = (error ?? {}) as IDataObject;
	const response = (e.response ??
		(e.cause as IDataObject | undefined)?.response ??
		{}) as IDataObject;
	const headers = (response.headers ?? {}) as IDataObject;
	const seconds = Number(headers['retry-after']);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

/** POST /sign_in, tried again when the service limits sign-ins (429). */
async function signIn(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
): Promise<string> {
	for (let attempt = 1; ; attempt++) {
		try {
			const response = (await helpers.httpRequest({
				method: 'POST',
				url: `${credentialBaseUrl(credentials)}/sign_in`,
				body: { user: { username: credentials.username, password: credentials.password } },
				json: true,
				timeout: 30_000,
			})) as IDataObject;
			const jwt = response?.jwt ?? (response?.data as IDataObject | undefined)?.jwt;
			if (typeof jwt !== 'string' || jwt === '') {
				throw new Error(
					'FacilitaPay sign-in answered without a token. Check the username and password.',
				);
			}
			return jwt;
		} catch (error) {
			if (statusOf(error) !== 429 || attempt >= SIGN_IN_ATTEMPTS) throw error;
			const seconds = Math.min(retryAfterSeconds(error) ?? 10, 30);
			await signInRetry.wait(seconds * 1000 + Math.round(Math.random() * 1000));
		}
	}
}

export class FacilitaPayApi implements ICredentialType {
	name = 'facilitaPayApi';

	displayName = 'FacilitaPay API';

	icon: Icon = {
		light: 'file:../icons/facilitaPay.svg',
		dark: 'file:../icons/facilitaPay.dark.svg',
	};

	documentationUrl = 'https://docs.facilitapay.com/production/';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'Custom',
					value: 'custom',
					description: 'A base URL of your own: a local sandbox or a proxy',
				},
				{ name: 'Production', value: 'production', description: PRODUCTION_BASE_URL },
				{ name: 'Sandbox', value: 'sandbox', description: SANDBOX_BASE_URL },
			],
			default: 'production',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://127.0.0.1:4010/api/v1',
			description:
				'The API root, ending with /api/v1. Use https://; plain http:// is accepted only for local and private addresses (a local sandbox).',
			required: true,
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{
					name: 'Access Token',
					value: 'accessToken',
					description: 'A bearer token handed to you by FacilitaPay',
				},
				{
					name: 'Username and Password',
					value: 'usernamePassword',
					description:
						'Signs in once and reuses the token until it expires (24 hours) or is refused',
				},
			],
			default: 'accessToken',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['accessToken'] } },
		},
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['usernamePassword'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authentication: ['usernamePassword'] } },
		},
		{
			// Filled by preAuthentication with the JWT from POST /sign_in. n8n keeps it until a
			// request is refused with 401, then calls preAuthentication again (once) and resends.
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// sessionFingerprint() of the username and password the session token belongs to.
			displayName: 'Session Fingerprint',
			name: 'sessionFingerprint',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	/**
	 * Signs in with username and password. n8n calls this while `sessionToken` is empty and after a
	 * request failed (our node: after a 401; n8n's HTTP Request node: after any error). A token the
	 * service still takes is kept (one cheap read tells), so a failure that is not about the token
	 * is not followed by a sign-in, nor by n8n sending the request again. Concurrent calls for the
	 * same account share one sign-in, and a token issued moments ago is handed out again instead of
	 * signing in once per refused request (the service allows 3 sign-ins per 30 seconds). A sign-in
	 * refused with 429 is tried again.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		// Nothing to renew with an access token. Answering without a session token tells n8n that
		// nothing changed, so it does not send a failed request again.
		if (credentials.authentication !== 'usernamePassword') return {};
		const helpers = this.helpers;
		const renewing =
			typeof credentials.sessionToken === 'string' &&
			credentials.sessionToken !== '' &&
			credentials.sessionFingerprint === sessionFingerprint(credentials);
		const jwt = await sharedSignIn(credentials, async () => {
			if (renewing && (await tokenStillWorks(helpers, credentials))) return undefined;
			return await signIn(helpers, credentials);
		});
		if (jwt === undefined) return {};
		return { sessionToken: jwt, sessionFingerprint: sessionFingerprint(credentials) };
	}

	/** Sets the bearer header: a plain function, so no expression is evaluated per request. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		requestOptions.headers = {
			...requestOptions.headers,
			Authorization: `Bearer ${bearerToken(credentials)}`,
		};
		return requestOptions;
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{$credentials.environment === "custom" ? (/^http:\\/\\//i.test(String($credentials.baseUrl).trim()) && !/^http:\\/\\/(localhost|127\\.|10\\.|192\\.168\\.|172\\.(1[6-9]|2[0-9]|3[01])\\.|\\[::1\\]|\\[f[cd])/i.test(String($credentials.baseUrl).trim()) ? "https://plain-http-is-only-for-local-hosts.invalid" : String($credentials.baseUrl).trim().replace(/\\/+$/, "")) : ($credentials.environment === "sandbox" ? "' +
				SANDBOX_BASE_URL +
				'" : "' +
				PRODUCTION_BASE_URL +
				'")}}',
			url: '/notifications',
			qs: { per_page: '1' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'FacilitaPay refused these credentials. Check the environment, and the access token or the username and password.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 429,
					message:
						'FacilitaPay is limiting sign-ins (3 every 30 seconds). Wait 30 seconds and test again.',
				},
			},
		],
	};
}
