/*
 * The credentials n8n stores: the environment or base URL, and an access token or a username and
 * password. Where the token may go (transport/tokenTarget.ts) and the sign-in shared by the process
 * (transport/signIn.ts) live beside the transport; this class only asks them.
 */
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

import {
	bearerToken,
	credentialBaseUrl,
	PRODUCTION_BASE_URL,
	requestTargets,
	SANDBOX_BASE_URL,
	sessionFingerprint,
	sharedSignIn,
	signIn,
	tokenMayGoTo,
	tokenStillWorks,
} from '../nodes/FacilitaPay/transport';

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
