/*
 * Over 500 lines, kept as one file on purpose: everything that decides where the account's token
 * goes and when a new one is asked for is here, so that it is reviewed in one read. Three parts:
 * where the token may go (base URL, local hosts, tokenMayGoTo), one sign-in shared by the process
 * (sharedSignIn, noteRefusedToken), and the class n8n calls (preAuthentication, authenticate,
 * test). The second part is the one to move out (beside the transport) if the file grows again.
 */
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

import { failureFacts, SIGN_IN_FAILED } from '../nodes/FacilitaPay/transport/errors';
import { retryAfterMs } from '../nodes/FacilitaPay/transport/retry';

export const PRODUCTION_BASE_URL = 'https://api.facilitapay.com/api/v1';
export const SANDBOX_BASE_URL = 'https://sandbox-api.facilitapay.com/api/v1';

/**
 * Whether a host name, as `new URL()` gives it, is on this machine or a private network: the
 * only places plain http may go (a local sandbox, a proxy next to n8n). Literal addresses in
 * 127/8, 10/8, 172.16/12, 192.168/16, ::1, fc00::/7 and fe80::/10, and `localhost` or a name
 * ending in `.localhost`; any other name (`localhost.evil.example`, `10.evil.example`) is not.
 */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
	// `new URL()` writes IPv6 addresses in full hextets: fc00::/7 starts fcXX or fdXX, fe80::/10
	// starts fe8X to febX.
	if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
	if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return false;
	const [a, b] = host.split('.').map(Number);
	return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * Why the bearer token may not travel to this parsed URL on its own terms, or undefined when it
 * may: https, or plain http to a local or private host only, and no user name or password in the
 * URL (`http://127.0.0.1@evil.example` goes to evil.example).
 */
function transportProblem(url: URL, text: string): string | undefined {
	if (url.username !== '' || url.password !== '')
		return `"${text}" carries a user name or password before its host: enter it as https://host/api/v1`;
	if (url.protocol === 'https:') return undefined;
	if (url.protocol === 'http:') {
		if (isLocalHost(url.hostname)) return undefined;
		return `"${text}" uses plain http to a host outside this machine or network, which would send the token unencrypted: use https://`;
	}
	return `"${text}" must start with https:// (or http:// for a local sandbox)`;
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
	return transportProblem(parsed, url);
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
 * THE host rule: whether the bearer token of these credentials may be attached to a request to
 * `url`. Only when the URL's host (name and port, compared exactly) is the host of the
 * credentials' own base URL, over https or, to a local or private host, plain http, with no user
 * name or password in the URL. Never when the credentials' base URL itself is refused.
 * `authenticate` decides with it for every request of every node, the credential test included;
 * the Base URL itself is checked by `baseUrlProblem` with the same transport rule.
 */
export function tokenMayGoTo(url: string, credentials: ICredentialDataDecryptedObject): boolean {
	let own: URL;
	let target: URL;
	try {
		own = new URL(credentialBaseUrl(credentials));
		target = new URL(url);
	} catch {
		return false;
	}
	return transportProblem(target, url) === undefined && target.host === own.host;
}

/** How axios tells an absolute URL (which makes it ignore `baseURL`). */
const ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/**
 * Where a request n8n is about to send goes: its `url` (or the legacy `uri` of n8n's HTTP Request
 * node), against `baseURL` when relative. A relative URL is resolved both as axios sends it (the
 * two joined with one slash) and as the URL standard reads it, so that the token goes only when
 * both readings reach the same allowed host. Empty when it cannot be told.
 */
export function requestTargets(options: IDataObject): string[] {
	const raw = options.url ?? options.uri;
	const url = raw === undefined || raw === null ? '' : String(raw);
	const base = options.baseURL === undefined ? undefined : String(options.baseURL);
	if (ABSOLUTE_URL.test(url) || base === undefined) return url === '' ? [] : [url];
	if (url === '') return [base];
	const joined = `${base.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}`;
	try {
		return [joined, new URL(url, base).href];
	} catch {
		return [joined];
	}
}

/**
 * Which username and password a session token was obtained with. The Authorization header sends the
 * token only while it still matches them, so after the password is changed (or mistyped) the next
 * request is refused, n8n signs in again with the new password once, and the credential test fails
 * when that password is wrong.
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

/**
 * How long a just-issued token is handed, without a sign-in, to requests that carried no token the
 * service could take (none yet, or one obtained with another password): such a request was either
 * not sent yet or refused unread. A request that carried a usable token never gets a token this
 * way (see sharedSignIn).
 */
export const TOKEN_REUSE_MS = 20_000;
/** Sign-in attempts when the service answers 429, the first included. */
const SIGN_IN_ATTEMPTS = 4;
/** Refused tokens remembered per account, so that later refusals of one token need no new read. */
const REMEMBERED_REFUSALS = 16;

/** How a refused sign-in waits before the next try (replaced in tests). */
export const signInRetry = { wait: async (ms: number) => await sleep(ms) };

interface SignInState {
	/** The last token a sign-in of this process issued, and when. */
	token?: string;
	issuedAt?: number;
	/** The sign-in under way, shared by everyone who needs a token meanwhile. */
	signingIn?: Promise<string>;
	/** Reads under way that tell whether the service refuses a token, by token. */
	checks: Map<string, Promise<boolean>>;
	/** Tokens the service refused (newest last). */
	refused: string[];
}

/** What sharedSignIn asks the service. */
export interface SignInCalls {
	/** POST /sign_in: a new token. */
	signIn: () => Promise<string>;
	/**
	 * Whether the service refuses this token (401 or 403 on one cheap read). False when it takes
	 * it, and when the read fails for any other reason.
	 */
	refuses: (token: string) => Promise<boolean>;
}

/** Sign-ins of this process, by base URL, username and password fingerprint. */
const signIns = new Map<string, SignInState>();

/** Forgets every shared sign-in (tests). */
export function forgetSignIns(): void {
	signIns.clear();
}

/**
 * Tells the shared sign-in that the service refused `token` (the node saw the 401 itself), so that
 * no request is handed that token again and the next one to ask signs in (once for everyone).
 */
export function noteRefusedToken(
	credentials: ICredentialDataDecryptedObject,
	token: unknown,
): void {
	if (typeof token !== 'string' || token === '') return;
	const key = `${credentialBaseUrl(credentials)}\u0000${sessionFingerprint(credentials)}`;
	let state = signIns.get(key);
	if (!state) {
		state = { checks: new Map(), refused: [] };
		signIns.set(key, state);
	}
	if (state.refused.includes(token)) return;
	state.refused.push(token);
	if (state.refused.length > REMEMBERED_REFUSALS) state.refused.shift();
}

/** The session token a request with these credentials carried, when the service could take it. */
function carriedToken(credentials: ICredentialDataDecryptedObject): string | undefined {
	const token = credentials.sessionToken;
	if (typeof token !== 'string' || token === '') return undefined;
	return credentials.sessionFingerprint === sessionFingerprint(credentials) ? token : undefined;
}

/** Whether the service refuses `token`: one read per token, shared, and a refusal remembered. */
async function refused(
	state: SignInState,
	token: string,
	refuses: SignInCalls['refuses'],
): Promise<boolean> {
	if (state.refused.includes(token)) return true;
	let check = state.checks.get(token);
	if (!check) {
		check = (async () => {
			try {
				const answer = await refuses(token);
				if (answer && !state.refused.includes(token)) {
					state.refused.push(token);
					if (state.refused.length > REMEMBERED_REFUSALS) state.refused.shift();
				}
				return answer;
			} finally {
				state.checks.delete(token);
			}
		})();
		state.checks.set(token, check);
	}
	return await check;
}

/** One sign-in at a time: whoever needs a token while one is under way gets its token. */
async function signInOnce(
	state: SignInState,
	signIn: SignInCalls['signIn'],
	now: () => number,
): Promise<string> {
	if (!state.signingIn) {
		state.signingIn = (async () => {
			try {
				const token = await signIn();
				state.token = token;
				state.issuedAt = now();
				return token;
			} finally {
				state.signingIn = undefined;
			}
		})();
	}
	return await state.signingIn;
}

/**
 * The token to hand n8n after a request failed, or undefined for "nothing new" (then n8n sends
 * nothing again). n8n's HTTP Request node asks after ANY failure and sends the request again
 * when a new token comes back, so a request that carried a token the service could take gets a
 * new one only once the service refused that very token (a 500 on a payment gets nothing). One
 * sign-in per account at a time in this process: everything refused meanwhile shares it, and a
 * token refused once is not read again. A request that carried no usable token (none yet, or one
 * of another password) was not processed: it gets the sign-in under way, or a token issued within
 * TOKEN_REUSE_MS, or a new sign-in.
 */
export async function sharedSignIn(
	credentials: ICredentialDataDecryptedObject,
	calls: SignInCalls,
	now: () => number = Date.now,
): Promise<string | undefined> {
	const key = `${credentialBaseUrl(credentials)}\u0000${sessionFingerprint(credentials)}`;
	let state = signIns.get(key);
	if (!state) {
		state = { checks: new Map(), refused: [] };
		signIns.set(key, state);
	}
	const carried = carriedToken(credentials);
	if (carried !== undefined) {
		if (!(await refused(state, carried, calls.refuses))) return undefined;
		if (state.signingIn) return await state.signingIn;
		// A token issued here since (the request left with an older one) and not refused yet.
		if (
			state.token !== undefined &&
			state.token !== carried &&
			!state.refused.includes(state.token)
		) {
			return state.token;
		}
		return await signInOnce(state, calls.signIn, now);
	}
	if (state.signingIn) return await state.signingIn;
	if (
		state.token !== undefined &&
		state.issuedAt !== undefined &&
		now() - state.issuedAt < TOKEN_REUSE_MS &&
		!state.refused.includes(state.token)
	) {
		return state.token;
	}
	return await signInOnce(state, calls.signIn, now);
}

/**
 * Whether the service still takes this session token: one cheap read with it (only a 401 or 403
 * says no). When the read fails for any other reason (the service is down), the token is kept: a
 * sign-in then would hand n8n a new token, and n8n would send the failed request (maybe a
 * payment) again.
 */
async function tokenStillWorks(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
	token: string,
): Promise<boolean> {
	try {
		await helpers.httpRequest({
			method: 'GET',
			url: `${credentialBaseUrl(credentials)}/notifications`,
			qs: { per_page: '1' },
			headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
			json: true,
			timeout: 30_000,
		});
		return true;
	} catch (error) {
		const status = failureFacts(error).status;
		return status !== 401 && status !== 403;
	}
}

/** Marks an error of the sign-in, so that a request it was for is known never to have left. */
function signInFailure(error: unknown): unknown {
	if (error instanceof Error && !error.message.startsWith(SIGN_IN_FAILED))
		error.message = `${SIGN_IN_FAILED} ${error.message}`;
	return error;
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
			const facts = failureFacts(error);
			if (facts.status !== 429 || attempt >= SIGN_IN_ATTEMPTS) throw signInFailure(error);
			const ms = Math.min(retryAfterMs(facts.headers) ?? 10_000, 30_000);
			await signInRetry.wait(ms + Math.round(Math.random() * 1000));
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
	 * request failed (our node: after a 401; n8n's HTTP Request node: after any error, and then it
	 * sends the request again when a new token comes back). A new token is handed out only when the
	 * token the request carried is refused by the service (one cheap read tells), so a failure that
	 * is not about the token is never followed by n8n sending the request again. Concurrent calls for
	 * the same account share one sign-in (the service allows 3 sign-ins per 30 seconds); a sign-in
	 * refused with 429 is tried again. Credentials whose Base URL the token may not go to stop here,
	 * before anything is sent.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		credentialBaseUrl(credentials);
		// Nothing to renew with an access token. Answering without a session token tells n8n that
		// nothing changed, so it does not send a failed request again.
		if (credentials.authentication !== 'usernamePassword') return {};
		const helpers = this.helpers;
		const jwt = await sharedSignIn(credentials, {
			signIn: async () => await signIn(helpers, credentials),
			refuses: async (token) => !(await tokenStillWorks(helpers, credentials, token)),
		});
		if (jwt === undefined) return {};
		return { sessionToken: jwt, sessionFingerprint: sessionFingerprint(credentials) };
	}

	/**
	 * Sets the bearer header, for whatever node asks (n8n's HTTP Request node can use these
	 * credentials for any URL), only on a request tokenMayGoTo allows: anywhere else the request
	 * leaves without the token. Credentials whose own Base URL is refused send nothing at all (the
	 * credential test then says why). A plain function, so no expression is evaluated per request.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		credentialBaseUrl(credentials);
		const authorization = `Bearer ${bearerToken(credentials)}`;
		const targets = requestTargets(requestOptions as unknown as IDataObject);
		if (targets.length > 0 && targets.every((url) => tokenMayGoTo(url, credentials))) {
			requestOptions.headers = { ...requestOptions.headers, Authorization: authorization };
			// n8n puts the header back on a redirect to another origin unless told not to.
			requestOptions.sendCredentialsOnCrossOriginRedirect = false;
			return requestOptions;
		}
		// Not FacilitaPay: no token, not even one this options object kept from an earlier page or
		// try. A header of the user's own is left as it is.
		const ours = new Set(
			[bearerToken(credentials), credentials.sessionToken, credentials.accessToken]
				.filter((token) => typeof token === 'string' && token !== '')
				.map((token) => `Bearer ${String(token)}`),
		);
		const headers = { ...requestOptions.headers };
		for (const name of Object.keys(headers)) {
			if (name.toLowerCase() === 'authorization' && ours.has(String(headers[name])))
				delete headers[name];
		}
		requestOptions.headers = headers;
		return requestOptions;
	}

	test: ICredentialTestRequest = {
		request: {
			// The Base URL as saved: no host rule here. Where the token may go is decided by
			// authenticate and preAuthentication (tokenMayGoTo, credentialBaseUrl), as for every
			// other request, so the test of a refused Base URL fails before anything is sent.
			baseURL:
				'={{$credentials.environment === "custom" ? String($credentials.baseUrl).trim().replace(/\\/+$/, "") : ($credentials.environment === "sandbox" ? "' +
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
