import { RecordLookups } from '../../../../nodes/FacilitaPay/money';
import type { ApiRequest } from '../../../../nodes/FacilitaPay/transport';
import {
	outcome,
	paged,
	placeOf,
	payoutRecord,
	payoutRequest,
	REF,
	service,
	SUBJECT,
	subjectList,
} from './fixtures';

describe('A payment is found by the identity it carries in meta, never by its content', () => {
	it('the record carrying the identity is it; an identical payout under another identity is not', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'monday', meta: { n8n_facilitapay_ref: 'run:monday:node-1:0:0' } }),
			payoutRecord({ id: 'tuesday' }),
		]);
		const lookups = new RecordLookups(read);
		expect(outcome(await lookups.find(placeOf(payoutRequest()), REF))).toBe('found:tuesday');
		// Read from the list's start: older records carrying identities prove nothing about today.
		expect(await lookups.find(placeOf(payoutRequest()), 'run:wednesday:node-1:0:0')).toEqual({
			notFound: true,
			metaShown: false,
		});
	});

	it('a record with another value, account or time but the identity is it (the identity decides)', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'edited', value: '999.00', from_bank_account: { id: 'other' } }),
		]);
		expect(outcome(await new RecordLookups(read).find(placeOf(payoutRequest()), REF))).toBe(
			'found:edited',
		);
	});

	it('a list whose records carry no identity shows no meta: "not found" proves nothing', async () => {
		const { read } = subjectList([payoutRecord({ id: 'a', meta: {} }), payoutRecord({ id: 'b' })]);
		const withoutMeta = subjectList([
			payoutRecord({ id: 'a', meta: {} }),
			payoutRecord({ id: 'b', meta: null }),
		]);
		expect(
			await new RecordLookups(withoutMeta.read).find(placeOf(payoutRequest()), 'key:x'),
		).toEqual({
			notFound: true,
			metaShown: false,
		});
		expect(outcome(await new RecordLookups(read).find(placeOf(payoutRequest()), REF))).toBe(
			'found:b',
		);
	});

	it("one run reads a subject's pages once, however many items look it up", async () => {
		const records = Array.from({ length: 250 }, (_unused, i) =>
			payoutRecord({ id: `tx-${i}`, meta: { n8n_facilitapay_ref: `run:e1:node-1:0:${i}` } }),
		);
		const { read, sent } = service({ [`/subject/${SUBJECT}/transactions`]: paged(records) });
		const lookups = new RecordLookups(read);
		const results = await Promise.all(
			Array.from({ length: 400 }, async (_unused, i) =>
				outcome(await lookups.find(placeOf(payoutRequest()), `run:e1:node-1:0:${i}`)),
			),
		);
		expect(results.filter((result) => result.startsWith('found')).length).toBe(250);
		expect(sent).toHaveLength(4);
	});

	it('a subscription is found among the partner’s subscriptions by its identity', async () => {
		const request: ApiRequest = {
			method: 'POST',
			path: '/subscriptions',
			body: { subscription: { subject_id: SUBJECT, value: '99.90' } },
			retry: 'sendOnce',
		};
		const { read, sent } = service({
			'/subscriptions': paged([
				{ id: 'sub-0', value: '99.90', meta: { n8n_facilitapay_ref: 'key:order-1' } },
				{ id: 'sub-1', value: '99.90', meta: { n8n_facilitapay_ref: 'key:order-2' } },
			]),
		});
		const lookups = new RecordLookups(read);
		expect(outcome(await lookups.find(placeOf(request), 'key:order-2'))).toBe('found:sub-1');
		expect(outcome(await lookups.find(placeOf(request), 'key:order-3'))).toBe('notFound');
		expect(sent.map((read) => read.path)).toEqual(['/subscriptions', '/subscriptions']);
	});
});
