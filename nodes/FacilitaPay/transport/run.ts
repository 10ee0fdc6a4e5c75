import { accountOfCredentials } from './serviceClock';
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { AdaptiveLimiter } from './limiter';

export const CREDENTIAL_TYPE = 'facilitaPayApi';

export type FacilitaPayContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/** What one node run shares among all its requests: the limiter, the credentials, the timeout. */
export interface RunSettings {
	/** Max Parallel Requests: the most requests in flight at once. */
	concurrency: number;
	/** How long to wait for an answer, in milliseconds. */
	timeoutMs: number;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = { concurrency: 20, timeoutMs: 30_000 };

/**
 * What the requests of one run share: one adaptive limiter, one read of the credentials (whose
 * refreshed session token every request sees), one timeout, one stop. An object the caller makes
 * with `beginRun` and hands to every request of the run; a request given none is a run of its own.
 */
export interface RunState {
	settings: RunSettings;
	limiter: AdaptiveLimiter;
	credentials?: Promise<ICredentialDataDecryptedObject>;
	/** Set when the run stops at its first failure: requests still waiting are not sent. */
	stopped: boolean;
	/** Wakes everything that waits (limiter, Retry-After, backoff) when the run stops. */
	onStop: Array<() => void>;
}

/** Starts a run: pass it to every request that belongs to it. */
export function beginRun(settings: RunSettings = DEFAULT_RUN_SETTINGS): RunState {
	return {
		settings,
		limiter: new AdaptiveLimiter(settings.concurrency),
		stopped: false,
		onStop: [],
	};
}

/** The run stops at its first failure: requests waiting for a slot or a pause are not sent. */
export function stopRun(run: RunState): void {
	if (run.stopped) return;
	run.stopped = true;
	for (const wake of run.onStop.splice(0)) wake();
	run.limiter.cancelWaiting();
}

/** Waits `ms`, or less when the run stops meanwhile. */
export async function waitInRun(
	run: RunState,
	ms: number,
	wait: (ms: number) => Promise<void>,
): Promise<void> {
	if (ms <= 0 || run.stopped) return;
	let wake: () => void = () => {};
	const stopped = new Promise<void>((resolve) => (wake = resolve));
	run.onStop.push(wake);
	try {
		await Promise.race([wait(ms), stopped]);
	} finally {
		const at = run.onStop.indexOf(wake);
		if (at >= 0) run.onStop.splice(at, 1);
	}
}

/**
 * The credentials, read and decrypted once per run (n8n would read and decrypt them from its
 * database for every request). A session token renewed by any request is written back here, so the
 * requests that follow use it instead of each signing in again.
 */
export async function credentialsOf(
	ctx: FacilitaPayContext,
	run: RunState,
): Promise<ICredentialDataDecryptedObject> {
	if (!run.credentials) {
		const reading = ctx.getCredentials(CREDENTIAL_TYPE) as Promise<ICredentialDataDecryptedObject>;
		// A failed read is not kept: the next request reads again.
		reading.catch(() => {
			if (run.credentials === reading) run.credentials = undefined;
		});
		run.credentials = reading;
	}
	return await run.credentials;
}

/** Hands a session token renewed during one request (on its copy) to the run's credentials. */
export function adoptRenewedToken(
	run: ICredentialDataDecryptedObject,
	used: ICredentialDataDecryptedObject,
): void {
	if (used.sessionToken === undefined || used.sessionToken === run.sessionToken) return;
	run.sessionToken = used.sessionToken;
	run.sessionFingerprint = used.sessionFingerprint;
}

/**
 * The FacilitaPay account this run's credentials reach (accountOf: base URL and a digest of who
 * signs in): what every memory and cache of the money rule is keyed by.
 */
export async function accountOfRun(ctx: FacilitaPayContext, run: RunState): Promise<string> {
	return accountOfCredentials(await credentialsOf(ctx, run));
}
