// What the transaction and card-data tests on n8n's engine share: the node's clock fixed (its own
// injection point in dist/, nodes/FacilitaPay/clock.ts), modules of the built package, a reader of
// the QR code SVG the node draws, everything a user can read from an error, and a FacilitaPay
// holding the transactions it is sent (for Idempotency Key lookups).
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import { reply } from '../../lib/operations.mjs';
import { decodeMatrix, svgToMatrix } from '../../../fixtures/qrImage.js';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';

const require = nodeRequire;

/** A module of the built package (dist/), the one n8n-core's loader loaded. */
export const dist = (file) => require(path.join(ROOT, 'dist', file));

/**
 * For every test of the calling file: the node's clock (dist/nodes/FacilitaPay/clock.js) reads
 * `at` (an ISO time, or undefined for the real time); returns `set(at)` to move it in a test.
 */
export function fixClock(at) {
	const { clock } = dist('nodes/FacilitaPay/clock.js');
	const real = clock.now;
	const set = (when) => {
		clock.now = when === undefined ? real : () => new Date(when);
	};
	beforeEach(() => set(at));
	afterEach(() => {
		clock.now = real;
	});
	return set;
}

/** What the node adds to the meta of a transaction it creates without an Idempotency Key. */
export const IDENTITY = { n8n_facilitapay_ref: expect.stringMatching(/^run:/) };

/** The transaction a request sent (its `transaction` wrapper, or the body itself). */
export const sent = (request) => request.body?.transaction ?? request.body;

/**
 * Everything a user could read from a failed run: message, description, the error as n8n keeps it,
 * the answer it keeps (errorResponse), its messages and its cause. Left out: n8n's timestamp, and
 * the `node` n8n attaches to every node error (the node as it stands in the workflow, its
 * parameters as the user typed them: a card typed into the workflow is there as typed, whatever
 * the node does; it is the workflow's own content, not something the node or the service said).
 */
export function everythingIn(error) {
	return [
		error.message,
		error.description ?? '',
		JSON.stringify(error, (key, value) =>
			key === 'node' && value?.typeVersion !== undefined ? value.name : value,
		),
		JSON.stringify(error.errorResponse ?? null),
		JSON.stringify(error.messages ?? []),
		String(error.cause ?? ''),
		JSON.stringify(error.cause ?? null),
	]
		.join('\n')
		.replace(/"timestamp":\d+/g, '"timestamp":0');
}

/**
 * A FacilitaPay holding transactions, as routes: `POST /transactions` makes a record (meta kept),
 * `GET /subject/:id/transactions` lists a subject's by `last_id`, 100 a page, `GET
 * /transactions/:id` gives one. `created` is every transaction body received, `records` what it
 * holds.
 */
export function holdingService() {
	const records = [];
	const created = [];
	return {
		records,
		created,
		replies: {
			'POST /transactions': (request) => {
				const transaction = request.body.transaction;
				created.push(transaction);
				const record = {
					...transaction,
					id: `tx-${records.length + 1}`,
					status: 'pending',
					meta: transaction.meta ?? {},
				};
				records.push(record);
				return { data: record };
			},
			'GET /subject/:id/transactions': (request) => {
				const own = records.filter((record) => record.subject_id === request.params.id);
				const lastId = request.query.last_id;
				const start = lastId ? own.findIndex((record) => record.id === lastId) + 1 : 0;
				return { data: own.slice(start, start + 100) };
			},
			'GET /transactions/:id': (request) => {
				const record = records.find((candidate) => candidate.id === request.params.id);
				return record ? { data: record } : reply(404, { error: 'not_found' });
			},
		},
	};
}

/** The text a phone reads from the SVG image in an item's binary field. */
export function scan(item, property = 'qrCode') {
	const svg = Buffer.from(item.binary[property].data, 'base64').toString('utf8');
	const { matrix, quietZone } = svgToMatrix(svg);
	return { svg, quietZone, decoded: decodeMatrix(matrix) };
}

/** The account a card payment of the tests pays into. */
export const CARD_PAYMENT_TO_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';

/** Transaction > Create Card Payment's parameters: an approved Visa, 120.50 BRL. */
export const cardPayment = (overrides = {}) => ({
	resource: 'transaction',
	operation: 'createCardPayment',
	subjectId: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
	value: '120.50',
	currency: 'BRL',
	exchangeCurrency: 'BRL',
	toBankAccountId: CARD_PAYMENT_TO_ACCOUNT,
	cardNumber: '4111 1111 1111 1111',
	cardExpirationDate: '12/2030',
	cardBrand: 'visa',
	cardSecurityCode: '123',
	fullname: 'Maria da Silva',
	additionalFields: {},
	...overrides,
});

/**
 * A run that ended without an error after a POST /transactions whose `transaction` is the one
 * given, with the node's identity meta and the test subject.
 */
export function expectTransactionSent({ error, requests }, transaction) {
	expect(error).toBeUndefined();
	expect(requests[0]).toMatchObject({ method: 'POST', route: 'POST /transactions' });
	expect(requests[0].body).toEqual({
		transaction: { meta: IDENTITY, subject_id: SUBJECT_ID, ...transaction },
	});
}

/** A Mexican customer's account and the partner's MXN cash-in account. */
export const MXN_REAL = '0b5e7c2a-1f3d-4a8e-9c61-000000000010';
export const MXN_CASH_IN = '0b5e7c2a-1f3d-4a8e-9c61-000000000011';

/** Transaction > Create Local Pay-In's parameters: 1,500.00 MXN into the MXN cash-in account. */
export const payIn = (overrides = {}) => ({
	resource: 'transaction',
	operation: 'createPayIn',
	subjectId: SUBJECT_ID,
	currency: 'MXN',
	exchangeCurrency: 'MXN',
	value: '1500.00',
	fromBankAccountId: MXN_REAL,
	toBankAccountId: MXN_CASH_IN,
	additionalFields: {},
	...overrides,
});
