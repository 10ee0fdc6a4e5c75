/**
 * In-memory state of the sandbox. Maps keep insertion order, which is the list order of the API.
 */
import { seededAccounts } from './accounts.mjs';

export function createState() {
	const seeded = seededAccounts();
	return {
		/** @type {Map<string, any>} */ subjects: new Map(),
		/** @type {Map<string, any>} */ transactions: new Map(),
		/** @type {Map<string, any>} */ checkouts: new Map(),
		/** @type {Map<string, any>} */ bankAccounts: new Map(
			seeded.map((seed) => [seed.account.id, seed.account]),
		),
		accountPurposes: Object.fromEntries(
			seeded.map((seed) => [seed.account.id, { purpose: seed.purpose, partner: seed.partner }]),
		),
		/** @type {Map<string, any>} */ subscriptions: new Map(),
		/** @type {Map<string, any>} */ invoices: new Map(),
		/** @type {Map<string, any>} */ authorizations: new Map(),
		/** @type {Map<string, any>} */ bankAccountRequests: new Map(),
		/** @type {Map<string, any>} */ exchanges: new Map(),
		/** @type {Map<string, any>} */ wires: new Map(),
		/** @type {Map<string, any>} */ bankTransactions: new Map(),
		/** @type {Map<string, any>} */ notifications: new Map(),
		/** @type {any[]} */ events: [],
		/** @type {any[]} */ requests: [],
		/** Requests received per route since the start or reset, never capped (the log keeps the latest only). @type {Record<string, number>} */
		requestTotals: {},
		webhook: { url: null, secret: null, enabled: false },
	};
}

/**
 * Keyset paging in insertion order.
 * @template T
 * @param {T[]} items @param {string|undefined} lastId @param {number} perPage
 */
export function page(items, lastId, perPage) {
	let start = 0;
	if (lastId) {
		const index = items.findIndex((item) => /** @type {any} */ (item).id === lastId);
		start = index === -1 ? items.length : index + 1;
	}
	return items.slice(start, start + perPage);
}
