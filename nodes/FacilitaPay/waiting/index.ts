/**
 * Waiting for payments (Transaction > Wait for Payment): the decision tables, the limits, the
 * signature of resume calls, and the waiter that reads the log once for every waiting execution.
 */
export type { Decision, LogRecord, NotPaidReason, WaitOutcome } from './decide';
export {
	asLogRecord,
	decide,
	namedIds,
	RECORD_DECISIONS,
	recordDecision,
	statusDecision,
} from './decide';
export type { LimitSettings, LimitType, LimitUnit } from './limit';
export { chargeExpiry, defaultLimit, limitOf, limitProblem } from './limit';
export { RESUME_PATH, resumeCallUrl } from './resumeUrl';
export type { ResumePayload } from './signature';
export { sign, signedBody, signingKey, verify } from './signature';
export type { WaitRegistration, WaiterStats } from './waiter';
export {
	isWaited,
	prepareAccount,
	register,
	resetWaiter,
	waiterStats,
	waitingCount,
} from './waiter';
export {
	durableStats,
	executionOfResumeUrl,
	instanceTag,
	resetDurable,
	resumeAddress,
	resumeAfterRestart,
	WAIT_META_FIELD,
} from './durable';
