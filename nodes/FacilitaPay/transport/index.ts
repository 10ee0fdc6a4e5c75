/**
 * The only place that talks HTTP to FacilitaPay, split by job:
 * - `errors.ts`: error facts as data, and the words a person reads (composed once);
 * - `retry.ts`: the retry and rate-limit policy (the 429 rule, deadlines);
 * - `run.ts`: what one run of the node shares (limiter, credentials, stop);
 * - `send.ts`: the send loop; `request.ts`: JSON and file requests; `paging.ts`: `last_id` paging.
 * - `signIn.ts`: the shared sign-in; `tokenTarget.ts`: where the token may go; `limiter.ts`: the pace.
 * The money rule (sent at most once) is not here: `nodes/FacilitaPay/money/`.
 * Callers (the node, the trigger, the credential, tests) import from this file only.
 */
import { signIns } from './signIn';
import { resetServiceClock } from './serviceClock';

export type { ErrorFacts, FacilitaPayError, FailureFacts, Outcome } from './errors';
export { describeErrorBody, factsOf, failureFacts, words } from './errors';
export type { RetryOptions, RetryPolicy } from './retry';
export { defaultRetryOptions, retryDelay } from './retry';
export type { FacilitaPayContext, RunSettings, RunState } from './run';
export { beginRun, CREDENTIAL_TYPE, DEFAULT_RUN_SETTINGS, stopRun } from './run';
export type { ApiRequest } from './send';
export type { BinaryResponse } from './request';
export { apiDownload, apiRequest } from './request';
export type { PageOptions } from './paging';
export { apiRequestAllItems, SERVICE_PAGE_SIZE } from './paging';
export { errorFromFacts, setFacts } from './errors';
export { AdaptiveLimiter } from './limiter';
export { accountOf } from './account';
export { accountOfCredentials, serviceNow } from './serviceClock';
export { accountOfRun } from './run';
export {
	bearerToken,
	noteRefusedToken,
	sessionFingerprint,
	sharedSignIn,
	signIn,
	signInRetry,
	tokenStillWorks,
	TOKEN_REUSE_MS,
} from './signIn';
export {
	baseUrlProblem,
	credentialBaseUrl,
	isLocalHost,
	PRODUCTION_BASE_URL,
	requestTargets,
	SANDBOX_BASE_URL,
	tokenMayGoTo,
} from './tokenTarget';

/** Forgets what this process keeps for the transport (the shared sign-ins). For tests. */
export function resetTransport(): void {
	signIns.clear();
	resetServiceClock();
}
