import type { IDataObject } from 'n8n-workflow';

import { RecordLookups, undeclared } from '../../../../nodes/FacilitaPay/money';
import { money as cancelSubscription } from '../../../../nodes/FacilitaPay/actions/subscription/cancel.operation';
import { money as subscriptionCreate } from '../../../../nodes/FacilitaPay/actions/subscription/create.operation';
import { money as threeds } from '../../../../nodes/FacilitaPay/actions/subscription/submitThreedsChallenge.operation';
import { money as cancelTransaction } from '../../../../nodes/FacilitaPay/actions/transaction/cancel.operation';
import { money as checkout } from '../../../../nodes/FacilitaPay/actions/transaction/createCheckout.operation';
import { money as payout } from '../../../../nodes/FacilitaPay/actions/transaction/createPayout.operation';
import { money as refund } from '../../../../nodes/FacilitaPay/actions/transaction/refund.operation';
import { money as registerBankAccount } from '../../../../nodes/FacilitaPay/actions/subject/registerBankAccount.operation';
import { money as requestAuthorization } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestAuthorization.operation';
import { money as requestBankAccount } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestBankAccount.operation';
import { money as updateBankAccount } from '../../../../nodes/FacilitaPay/actions/wire/updateBankAccount.operation';
import type { MoneyDeclaration } from '../../../../nodes/FacilitaPay/actions/node.type';
import type { ApiRequest } from '../../../../nodes/FacilitaPay/transport';
import type { FindSentResult, RecordPlace } from '../../../../nodes/FacilitaPay/money';

/*
 * A scripted FacilitaPay and the payout every findSent test file starts from; each lookup's own
 * request and record shapes are in its test file.
 */

/** The identity looked up: the first item of node-1's first run in execution e1. */
export const REF = 'run:e1:node-1:0:0';
export const at = (seconds: number) =>
	new Date(Date.parse('2025-06-01T12:00:00Z') + seconds * 1000).toISOString();

export const SUBJECT = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';
export const CASH_OUT = 'acc-usd-cash-out';
export const CUSTOMER = 'acc-brl-customer';
export const PIX_ACCOUNT = 'acc-brl-pix';
export const CASH_IN = 'acc-usd-cash-in';

export type Route = (request: ApiRequest) => unknown;

/** A scripted FacilitaPay: answers reads by path, records every read. */
export function service(routes: Record<string, Route>) {
	const sent: ApiRequest[] = [];
	const read = async (request: ApiRequest): Promise<unknown> => {
		sent.push(request);
		const route = routes[request.path];
		if (!route) throw new Error('FacilitaPay did not find the record (HTTP 404)');
		return route(request);
	};
	return { read, sent };
}

/** A list paged by `last_id` like the sandbox's (and every documented list). */
export function paged(records: IDataObject[], pageSize = 100): Route {
	return (request) => {
		const lastId = request.qs?.last_id;
		const start = lastId ? records.findIndex((record) => record.id === lastId) + 1 : 0;
		return records.slice(start, start + pageSize);
	};
}

export const subjectList = (records: IDataObject[]) =>
	service({ [`/subject/${SUBJECT}/transactions`]: paged(records) });

/** What each money operation declares, by the path its request goes to (as the router finds it). */
const DECLARED: Array<[RegExp, string, MoneyDeclaration]> = [
	[/^\/transactions$/, 'POST', payout],
	[/^\/transactions\/checkout$/, 'POST', checkout],
	[/^\/transactions\/[^/]+\/refund$/, 'GET', cancelTransaction],
	[/^\/transactions\/[^/]+\/refund_received_transaction$/, 'GET', refund],
	[/^\/subscriptions$/, 'POST', subscriptionCreate],
	[/^\/subscriptions\/[^/]+\/cancel$/, 'PUT', cancelSubscription],
	[/^\/subscriptions\/[^/]+\/threeds_challenge$/, 'POST', threeds],
	[/^\/subject\/[^/]+\/bank_accounts$/, 'POST', registerBankAccount],
	[/^\/subject\/[^/]+\/account_request$/, 'POST', requestAuthorization],
	[/^\/bank\/accounts\/request$/, 'POST', requestBankAccount],
	[/^\/wires\/[^/]+\/update_bank_account$/, 'PUT', updateBankAccount],
];

/** Where the operation that sends `request` declares its record. */
export function placeOf(request: ApiRequest): RecordPlace {
	const declared = DECLARED.find(
		([path, method]) => path.test(request.path) && method === request.method,
	);
	return declared ? declared[2].record(request) : undeclared(request);
}

/** One lookup of a run of its own. */
export async function lookup(
	request: ApiRequest,
	read: (request: ApiRequest) => Promise<unknown>,
	ref = REF,
): Promise<FindSentResult> {
	return await new RecordLookups(read).find(placeOf(request), ref);
}

/** found:<id> | notFound | cannotTell */
export function outcome(result: FindSentResult): string {
	if ('found' in result) return `found:${String(result.found.id)}`;
	if ('notFound' in result) return 'notFound';
	return 'cannotTell';
}

export const short = (expected: string) =>
	expected === 'found' ? expect.stringMatching(/^found:/) : expected;

/** Table rows [what, input, expected], titled "what → expected". */
export function titled<T>(rows: Array<[string, T, string]>): Array<[string, T, string]> {
	return rows.map(([what, input, expected]) => [`${what} → ${expected}`, input, expected]);
}

// ---- request and record shapes ------------------------------------------------------------

export const payoutRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/transactions',
	body: {
		transaction: {
			subject_id: SUBJECT,
			from_bank_account_id: CASH_OUT,
			to_bank_account_id: CUSTOMER,
			currency: 'USD',
			exchange_currency: 'BRL',
			value: '10.50',
			...fields,
		},
	},
	retry: 'sendOnce',
	itemIndex: 0,
});

/** A payout as GET /transactions/:id shows it (service-facts.md), created 5 s after the attempt. */
export const payoutRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'tx-1',
	value: '10.50',
	status: 'identified',
	currency: 'USD',
	exchange_currency: 'BRL',
	to_bank_account: { id: CUSTOMER, currency: 'BRL' },
	from_bank_account: { id: CASH_OUT, currency: 'USD' },
	from_credit_card: null,
	subject_id: SUBJECT,
	subject_is_receiver: true,
	inserted_at: at(5),
	dynamic_pix_code: null,
	meta: { n8n_facilitapay_ref: REF },
	...fields,
});
