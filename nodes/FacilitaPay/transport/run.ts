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

/** The state one run of the node shares among its requests. */
export interface RunState {
	settings: RunSettings;
	limiter: AdaptiveLimiter;
	credentials?: Promise<ICredentialDataDecryptedObject>;
	/** n8n's $runIndex of this run of the node, when n8n tells it. */
	runIndex?: number;
	/** Set when the run stops at its first failure: requests still waiting are not sent. */
	stopped: boolean;
	/** Wakes everything that waits (limiter, Retry-After, backoff) when the run stops. */
	onStop: Array<() => void>;
}

const runs = new WeakMap<object, RunState>();

function newRun(ctx: FacilitaPayContext, settings: RunSettings): RunState {
	return {
		settings,
		limiter: new AdaptiveLimiter(settings.concurrency),
		runIndex: runIndexOf(ctx),
		stopped: false,
		onStop: [],
	};
}

/**
 * Starts a run of the node: its requests then share one adaptive limiter, one read of the
 * credentials (whose refreshed session token every request sees) and one timeout.
 */
export function beginRun(ctx: FacilitaPayContext, settings: RunSettings): RunState {
	const run = newRun(ctx, settings);
	runs.set(ctx, run);
	return run;
}

/** The run of this context (a default one for contexts outside the item engine). */
export function runOf(ctx: FacilitaPayContext): RunState {
	let run = runs.get(ctx);
	if (!run) {
		run = newRun(ctx, DEFAULT_RUN_SETTINGS);
		runs.set(ctx, run);
	}
	return run;
}

/** The run stops at its first failure: requests waiting for a slot or a pause are not sent. */
export function stopRun(ctx: FacilitaPayContext): void {
	const run = runOf(ctx);
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

/** n8n's $runIndex: unchanged when Retry On Fail runs the node again, higher on each loop pass. */
function runIndexOf(ctx: FacilitaPayContext): number | undefined {
	try {
		const runIndex = (ctx as IExecuteFunctions).getWorkflowDataProxy?.(0)?.$runIndex;
		return typeof runIndex === 'number' ? runIndex : undefined;
	} catch {
		return undefined;
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
