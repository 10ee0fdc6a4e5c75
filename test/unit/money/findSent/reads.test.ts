import { MAX_PAGES } from '../../../../nodes/FacilitaPay/money';
import type { ApiRequest } from '../../../../nodes/FacilitaPay/transport';
import {
	lookup,
	outcome,
	paged,
	payoutRecord,
	payoutRequest,
	service,
	SUBJECT,
	subjectList,
} from './fixtures';

describe('Reading a list to its end', () => {
	const many = (count: number, prefix = 'tx-') =>
		Array.from({ length: count }, (_unused, i) =>
			payoutRecord({
				id: `${prefix}${i + 1}`,
				value: '1.00',
				meta: { n8n_facilitapay_ref: `run:e0:node-1:0:${i}` },
			}),
		);

	it('follows last_id page after page until an empty page, and finds a match on the third', async () => {
		const records = [...many(249), payoutRecord({ id: 'tx-match' })];
		const { read, sent } = subjectList(records);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-match');
		expect(sent.map((request) => request.qs?.last_id)).toEqual([
			undefined,
			'tx-100',
			'tx-200',
			'tx-match',
		]);
		expect(sent.every((request) => request.retry === 'lookup' && request.method === 'GET')).toBe(
			true,
		);
	});

	it('does not stop at a short page: the page size is not known', async () => {
		const records = [...many(30), payoutRecord({ id: 'tx-match' })];
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: paged(records, 20),
		});
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-match');
		expect(sent).toHaveLength(3);
	});

	it('a service that ignores last_id and sends a short list whole is read once more, then settled', async () => {
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: () => many(3),
		});
		expect(await lookup(payoutRequest(), read)).toEqual({ notFound: true, metaShown: false });
		expect(sent).toHaveLength(2);
	});

	it('a service that sends the same 100 records again cannot settle it', async () => {
		const { read } = service({ [`/subject/${SUBJECT}/transactions`]: () => many(100) });
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining('did not go past its first 100 records'),
		});
	});

	it(`more than ${MAX_PAGES} pages cannot settle it`, async () => {
		let page = 0;
		const { read, sent } = service({
			[`/subject/${SUBJECT}/transactions`]: () => many(1, `p${++page}-`),
		});
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining(`more than ${MAX_PAGES} pages`),
		});
		expect(sent).toHaveLength(MAX_PAGES);
	});

	it('a read that fails cannot settle it, and says why', async () => {
		const { read } = service({});
		expect(await lookup(payoutRequest(), read)).toEqual({
			cannotTell: expect.stringContaining('could not be read: FacilitaPay did not find the record'),
		});
	});

	it.each<[string, unknown]>([
		['an object instead of a list', { id: 'x' }],
		['a list with text in it', ['tx-1']],
		['a page ending with a record without an ID', [payoutRecord({ value: '1.00', id: undefined })]],
	])('%s cannot settle it', async (_name, answer) => {
		const { read } = service({ [`/subject/${SUBJECT}/transactions`]: () => answer });
		expect(outcome(await lookup(payoutRequest(), read))).toBe('cannotTell');
	});
});

describe('Status lookups: cancel and 3-D Secure of a subscription, cancel and refund of a transaction', () => {
	const subscription = (status: unknown) =>
		service({ '/subscriptions/sub-1': () => ({ id: 'sub-1', status }) });
	const transaction = (status: unknown) =>
		service({ '/transactions/tx-1': () => ({ id: 'tx-1', status }) });

	const cancelSubscription: ApiRequest = {
		method: 'PUT',
		path: '/subscriptions/sub-1/cancel',
		body: { reason: 'Customer asked' },
		retry: 'sendOnce',
	};
	const threeds: ApiRequest = {
		method: 'POST',
		path: '/subscriptions/sub-1/threeds_challenge',
		body: { credit_card: { card_number: '4111111111111111' } },
		retry: 'sendOnce',
	};
	const cancelTransaction: ApiRequest = {
		method: 'GET',
		path: '/transactions/tx-1/refund',
		retry: 'sendOnce',
	};
	const refund: ApiRequest = {
		method: 'GET',
		path: '/transactions/tx-1/refund_received_transaction',
		retry: 'sendOnce',
	};

	it.each<[string, unknown, string]>([
		['Subscription > Cancel', 'canceled', 'found:sub-1'],
		['Subscription > Cancel', 'cancelled', 'found:sub-1'],
		['Subscription > Cancel', 'active', 'notFound'],
		['Subscription > Cancel', 'pending', 'notFound'],
		['Subscription > Cancel', 'completed', 'notFound'],
		['Subscription > Cancel', 'suspended', 'cannotTell'],
		['Subscription > Cancel', undefined, 'cannotTell'],
		['Subscription > 3-D Secure', 'active', 'found:sub-1'],
		['Subscription > 3-D Secure', 'completed', 'found:sub-1'],
		['Subscription > 3-D Secure', 'pending', 'cannotTell'],
		['Subscription > 3-D Secure', 'canceled', 'cannotTell'],
	])('%s, subscription %p → %s', async (operation, status, expected) => {
		const { read, sent } = subscription(status);
		const request = operation.endsWith('Cancel') ? cancelSubscription : threeds;
		expect(outcome(await lookup(request, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: '/subscriptions/sub-1', retry: 'lookup' }]);
	});

	it.each<[string, unknown, string]>([
		['Transaction > Cancel', 'canceled', 'found:tx-1'],
		['Transaction > Cancel', 'pending', 'notFound'],
		['Transaction > Cancel', 'identified', 'notFound'],
		['Transaction > Cancel', 'wired', 'notFound'],
		['Transaction > Cancel', 'refunding', 'cannotTell'],
		['Transaction > Refund', 'canceled', 'found:tx-1'],
		['Transaction > Refund', 'pending', 'notFound'],
		['Transaction > Refund', 'identified', 'cannotTell'],
		['Transaction > Refund', 'exchanged', 'cannotTell'],
		['Transaction > Refund', 'wired', 'cannotTell'],
		['Transaction > Refund', null, 'cannotTell'],
	])('%s, transaction %p → %s', async (operation, status, expected) => {
		const { read, sent } = transaction(status);
		const request = operation.endsWith('Cancel') ? cancelTransaction : refund;
		expect(outcome(await lookup(request, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: '/transactions/tx-1', retry: 'lookup' }]);
	});

	it('a refund of a received payment says the refund is a record of its own', async () => {
		const { read } = transaction('identified');
		expect(await lookup(refund, read)).toEqual({
			cannotTell: expect.stringContaining('a refund is a record of its own'),
		});
	});

	it('a record that cannot be read cannot settle it', async () => {
		const { read } = service({});
		expect(outcome(await lookup(cancelSubscription, read))).toBe('cannotTell');
		expect(outcome(await lookup(refund, read))).toBe('cannotTell');
	});
});
