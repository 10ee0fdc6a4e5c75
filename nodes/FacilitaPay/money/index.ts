/**
 * The money rule, one folder (docs/money.md): a request that creates or moves money is sent at
 * most once, whoever runs the node again. The router calls it once per item; the transport only
 * speaks HTTP.
 * - `rule.ts`: the rule (`MoneyRun`): one exact identity per payment, settled by FacilitaPay's record
 *   (`ruleRecord.ts`), else by n8n's store (`ruleStore.ts`);
 * - `chain.ts`: the origin kept in the execution's custom data (recognised by its tag);
 * - `lookups.ts`, `reads.ts`, `records.ts`, `transactions.ts`, `subscriptions.ts`: finding the
 *   record at FacilitaPay (each money operation declares where, with the places below);
 * - `sentMemory.ts`: this process's fast path; `ledger.ts`: n8n's deduplication store.
 * Callers (the router, operations, tests) import from this file only.
 */
import { sentMemory } from './sentMemory';

export type { FindSentResult, MoneyDecision, MoneyItem, RecordPlace } from './rule';
export { IDENTITY_FIELD, MoneyRun } from './rule';
export {
	inPartnerSubscriptions,
	inSubjectTransactions,
	lookupsFor,
	nowhere,
	RecordLookups,
	subjectTransactions,
	subscriptionStatus,
	transactionStatus,
	undeclared,
} from './lookups';
export { estimateBytes, recordIdOf, SentMemory, sentMemory } from './sentMemory';
export { Ledger } from './ledger';
export { instanceName } from './chain';
export { MAX_PAGES } from './reads';
export { isVoid } from './types';

/** Forgets what this process keeps for the money rule (its memory of sent payments). For tests. */
export function resetMoney(): void {
	sentMemory.clear();
}
