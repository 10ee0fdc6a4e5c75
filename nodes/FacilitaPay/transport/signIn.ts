import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestHelper } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { failureFacts, SIGN_IN_FAILED } from './errors';
import { retryAfterMs } from './retry';
import { credentialBaseUrl } from './tokenTarget';

/*
 * The sign-in of username-and-password credentials, shared by the process: which password a session
 * token belongs to (sessionFingerprint, bearerToken), one sign-in at a time per account
 * (sharedSignIn), and tokens the service refused (noteRefusedToken). The credential's
 * preAuthentication calls it; the transport notes refusals.
 */

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

/** Sign-ins of this process, by base URL, username and password fingerprint (reset: `resetTransport`). */
export const signIns = new Map<string, SignInState>();

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
export async function tokenStillWorks(
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
export async function signIn(
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
