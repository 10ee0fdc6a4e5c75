/**
 * Waiting for payments (Transaction > Wait for Payment): the decision tables, the limits and the
 * lease, the wait's state and stack entries, the n8n internals they rely on (engine.ts, the only
 * place), the signature of resume calls, and the waiter that reads the log once for every wait.
 */
export type { ChargeKind, Decision, LogRecord, NotPaidReason, WaitOutcome } from './decide';
export {
	asLogRecord,
	decide,
	namedIds,
	namesCheckout,
	PAID_STATUSES,
	RECORD_DECISIONS,
	recordDecision,
	statusDecision,
} from './decide';
export type { LimitSettings, LimitType, LimitUnit } from './limit';
export { atTimeOf, chargeExpiry, defaultLimit, limitOf, limitProblem, utcTime } from './limit';
export { bankHolidays, easter, endOfBusinessDaysAfter, isBusinessDay } from './brazilCalendar';
export { GUARD_MS, LEASE_MS, mayCall, RENEW_BEFORE_MS, renewDue, waitTillOf } from './lease';
export { RESUME_PATH, resumeCallUrl } from './resumeUrl';
export type { ResumePayload } from './signature';
export { keyOf, newWaitSecret, sign, signedBody, verify } from './signature';
export type { StackEntry } from './engine';
export { engineProblem, executionStack, ownEntry, resumingEntry, takeOut } from './engine';
export type { KeptWait, Role, Wake, WaitedItem, WaitState } from './state';
export {
	FALLBACK_SUFFIX,
	fallbackEntry,
	inputItems,
	makeGate,
	ofWait,
	readWait,
	resumedEntry,
	resumeGate,
	STATE_FIELD,
	STATE_VERSION,
} from './state';
export { LOG_START, LogChain } from './logChain';
export type { WaitRegistration, WaiterStats } from './waiter';
export { catchUp, register, resetWaiter, startingPoint, waiterStats, waitingCount } from './waiter';
