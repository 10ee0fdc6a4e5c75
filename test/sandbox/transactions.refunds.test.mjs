// Cancel (GET /refund) and refund (GET /refund_received_transaction), and unknown transaction ids.
import { useSandbox, dynamicPix } from './helpers.mjs';

const t = useSandbox({ withPerson: true });

describe('refunds', () => {
	test('GET /refund cancels a pending payment; a received one is refused', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(t.subject.id))).json.data;
		const r = await t.api('GET', `/transactions/${tx.id}/refund`);
		// The void record, as the service answers it (live docs, "Cancel answer"), not the transaction.
		expect(r.json.data).toEqual({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			reason: 'canceled_by_partner',
			inserted_at: '2025-03-10T12:00:00Z',
			status: 'canceled',
			transaction_kind: 'payment',
			bank_transaction: expect.objectContaining({
				value: '150.00',
				iof_value: '0.00',
				wire_id: null,
				exchange_id: null,
			}),
		});
		expect(r.json.data.id).not.toBe(tx.id);
		expect((await t.api('GET', `/transactions/${tx.id}`)).json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'canceled_by_partner',
		});
		const tx2 = (await t.api('POST', '/transactions', dynamicPix(t.subject.id))).json.data;
		await t.control('POST', `/transactions/${tx2.id}/pay`, {});
		const refused = await t.api('GET', `/transactions/${tx2.id}/refund`);
		expect(refused.status).toBe(422);
		expect(refused.json.errors.status[0]).toMatch(/^the transaction is identified; only a pending/);
	});

	test('GET /refund_received_transaction refunds an identified pay-in in full', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(t.subject.id))).json.data;
		expect((await t.api('GET', `/transactions/${tx.id}/refund_received_transaction`)).status).toBe(
			422,
		);
		await t.control('POST', `/transactions/${tx.id}/pay`, {});
		const r = await t.api('GET', `/transactions/${tx.id}/refund_received_transaction`);
		expect(r.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'refunded',
			refunded_value: '150.00',
		});
		expect((await t.events()).at(-1)).toMatchObject({
			type: 'payment_refunded',
			transaction_id: tx.id,
		});
	});

	test('unknown transaction ids answer 404', async () => {
		for (const p of ['', '/refund', '/refund_received_transaction', '/boleto_pdf']) {
			const r = await t.api('GET', `/transactions/00000000-0000-4000-8000-000000000000${p}`);
			expect(r.status).toBe(404);
			expect(r.json).toEqual({ error: 'not_found' });
		}
	});
});
