import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { accountOf } from './account';

/**
 * FacilitaPay's own clock, as its answers show it (the HTTP `Date` header every answer carries),
 * per account (transport's accountOf). The money rule asks it how much time passed at FacilitaPay
 * since a request of unknown outcome: "not found" proves "not sent" only once FacilitaPay had time
 * to write what it was sent (docs/money.md). Kept as the offset of FacilitaPay's clock to this
 * process's, learnt from the newest answer; a `Date` has whole seconds, so it reads up to a second
 * early (the rule's window allows for it).
 */
const offsets = new Map<string, number>();

/** The most accounts whose clock is remembered. */
const MAX_ACCOUNTS = 10_000;

const accounts = new WeakMap<ICredentialDataDecryptedObject, string>();

/** accountOf, computed once per credentials object (a run reads its credentials once). */
export function accountOfCredentials(credentials: ICredentialDataDecryptedObject): string {
	let account = accounts.get(credentials);
	if (account === undefined) {
		account = accountOf(credentials);
		accounts.set(credentials, account);
	}
	return account;
}

/** Notes the `Date` of an answer from `account` (ignored when absent or unreadable). */
export function noteServiceDate(account: string, date: unknown, localMs = Date.now()): void {
	const text = Array.isArray(date) ? date[0] : date;
	if (typeof text !== 'string' || text === '') return;
	const at = Date.parse(text);
	if (!Number.isFinite(at)) return;
	offsets.delete(account);
	offsets.set(account, at - localMs);
	if (offsets.size > MAX_ACCOUNTS) offsets.delete(offsets.keys().next().value!);
}

/** FacilitaPay's time now (epoch ms) for `account`, when an answer of it was seen in this process. */
export function serviceNow(account: string, localMs = Date.now()): number | undefined {
	const offset = offsets.get(account);
	return offset === undefined ? undefined : localMs + offset;
}

export function resetServiceClock(): void {
	offsets.clear();
}
