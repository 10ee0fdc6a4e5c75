import { createHash } from 'crypto';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

export const PRODUCTION_BASE_URL = 'https://api.facilitapay.com/api/v1';
export const SANDBOX_BASE_URL = 'https://sandbox-api.facilitapay.com/api/v1';

/** The API base URL the credentials point at, without a trailing slash. */
export function credentialBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const environment = (credentials.environment as string | undefined) ?? 'production';
	let url = PRODUCTION_BASE_URL;
	if (environment === 'sandbox') url = SANDBOX_BASE_URL;
	if (environment === 'custom') url = String(credentials.baseUrl ?? '').trim();
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
	const pair = JSON.stringify([String(credentials.username || ''), String(credentials.password || '')]);
	return createHash('sha256').update(pair).digest('hex');
}

export class FacilitaPayApi implements ICredentialType {
	name = 'facilitaPayApi';

	displayName = 'FacilitaPay API';

	icon: Icon = { light: 'file:facilitaPay.svg', dark: 'file:facilitaPay.dark.svg' };

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
			description: 'The API root, ending with /api/v1. A trailing slash is fine.',
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
			default: '',
		},
	];

	/**
	 * Signs in with username and password. n8n calls this only while `sessionToken` is empty or after
	 * a 401, so the service's limit of 3 sign-ins per 30 seconds is never reached by normal use.
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		if (credentials.authentication !== 'usernamePassword') {
			return { sessionToken: credentials.accessToken };
		}
		const response = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${credentialBaseUrl(credentials)}/sign_in`,
			body: { user: { username: credentials.username, password: credentials.password } },
			json: true,
		})) as IDataObject;
		const jwt = response?.jwt ?? (response?.data as IDataObject | undefined)?.jwt;
		if (typeof jwt !== 'string' || jwt === '') {
			throw new Error(
				'FacilitaPay sign-in answered without a token. Check the username and password.',
			);
		}
		return { sessionToken: jwt, sessionFingerprint: sessionFingerprint(credentials) };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization:
					'=Bearer {{$credentials.authentication === "usernamePassword" ? ($credentials.sessionFingerprint === JSON.stringify([String($credentials.username || ""), String($credentials.password || "")]).hash("sha256") ? $credentials.sessionToken : "token-of-other-credentials") : $credentials.accessToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{$credentials.environment === "custom" ? String($credentials.baseUrl).replace(/\\/+$/, "") : ($credentials.environment === "sandbox" ? "' +
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
