// Dynamic PIX (the BR Code, its expiry, who pays it) and static PIX and TED receipts, as the sandbox plays
// them over POST /transactions and the back-office controls.
import { useSandbox, createPerson, dynamicPix, ACCOUNT_IDS } from './helpers.mjs';
import { parseBrCode } from '../../sandbox/brcode.mjs';

const t = useSandbox({ withPerson: true });

const createPix = (overrides) =>
	t.api('POST', '/transactions', dynamicPix(t.subject.id, overrides));

describe('dynamic PIX', () => {
	test('answers a pending transaction with a valid BR Code and its due date', async () => {
		const r = await createPix();
		expect(r.status).toBe(200);
		const tx = r.json.data;
		expect(tx).toMatchObject({
			status: 'pending',
			value: '150.00',
			currency: 'BRL',
			cleared: true,
			meta: { dynamic_pix_due_date: '2025-03-10T13:00:00Z' },
		});
		expect(tx.from_bank_account.id).toBe(ACCOUNT_IDS.brlPixExclusive);
		expect(tx.subject.id).toBe(t.subject.id);
		const { fields, crcOk } = parseBrCode(tx.dynamic_pix_code);
		expect(crcOk).toBe(true);
		expect(fields['00']).toBe('01');
		expect(fields['01']).toBe('12');
		expect(fields['26']).toMatch(
			/^0014br\.gov\.bcb\.pix25\d\d127\.0\.0\.1:\d+\/_sandbox\/pix\/[0-9a-f]{32}$/,
		);
		expect(fields['54']).toBe('150.00');
		expect((await t.api('GET', `/transactions/${tx.id}`)).json.data.id).toBe(tx.id);
	});

	// Each row changes one field (and what it needs besides, after it): the refusal names that field.
	test.each([
		[
			{ dynamic_pix_expires_at: '2025-03-10 13:00:00' },
			'must be a UTC date-time in the form YYYY-MM-DDThh:mm:ssZ',
		],
		[
			{ dynamic_pix_expires_at: '2025-03-10T12:01:00Z' },
			'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
		],
		[
			{ dynamic_pix_expires_at: '2025-03-09T12:00:00Z' },
			'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
		],
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlNoPixKey },
			'has no registered PIX key; dynamic PIX needs an account with a PIX key',
		],
		[
			{ to_bank_account_id: ACCOUNT_IDS.usdDestination },
			'currency (USD) must equal exchange_currency (BRL)',
		],
		[{ value: '150' }, 'must be a string with exactly two decimals, e.g. "10.50"'],
		[{ currency: 'USD' }, 'must be one of: BRL'],
		[
			{ exchange_currency: 'MXN', to_bank_account_id: ACCOUNT_IDS.usdDestination },
			'must be one of: BRL, USD, EUR',
		],
		[{ use_dynamic_pix: false }, 'must be true for a dynamic PIX (omit it for boleto and payout)'],
		[{ subject_id: '00000000-0000-4000-8000-000000000000' }, 'was not found'],
	])('refuses %j', async (overrides, message) => {
		const [field] = Object.keys(overrides);
		const r = await createPix(overrides);
		expect(r.status).toBe(422);
		expect(r.json.errors[field]).toEqual([message]);
	});

	test('61 seconds ahead is accepted; without an expiry the code lives 1 hour', async () => {
		expect((await createPix({ dynamic_pix_expires_at: '2025-03-10T12:01:01Z' })).status).toBe(200);
		const r = await createPix({ dynamic_pix_expires_at: undefined });
		expect(r.json.data.meta.dynamic_pix_due_date).toBe('2025-03-10T13:00:00Z');
	});

	test('unpaid at its expiry: canceled and payment_expired', async () => {
		const tx = (await createPix()).json.data;
		await t.advance(3599);
		expect((await t.api('GET', `/transactions/${tx.id}`)).json.data.status).toBe('pending');
		await t.advance(1);
		expect((await t.api('GET', `/transactions/${tx.id}`)).json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'expired',
		});
		expect(await t.events()).toEqual([
			expect.objectContaining({ type: 'payment_expired', transaction_id: tx.id }),
		]);
	});

	test('paid by the subject: identified (and no expiry later)', async () => {
		const tx = (await createPix()).json.data;
		const paid = await t.control('POST', `/transactions/${tx.id}/pay`, { success: true });
		expect(paid.json.data.status).toBe('identified');
		await t.advance(7200);
		expect(await t.events()).toEqual([
			expect.objectContaining({ type: 'identified', transaction_id: tx.id }),
		]);
		const again = await t.control('POST', `/transactions/${tx.id}/pay`, { success: true });
		expect(again.status).toBe(422);
	});

	test('paid by a third party: refunded and payment_refunded', async () => {
		const tx = (await createPix()).json.data;
		const r = await t.control('POST', `/transactions/${tx.id}/pay`, {
			success: true,
			payer_document_number: '70590071050',
		});
		expect(r.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'third_party_payer_refunded',
		});
		expect(await t.eventTypes()).toEqual(['payment_refunded']);
	});

	test('a dynamic PIX expiry with milliseconds (the documented example) is accepted', async () => {
		const r = await createPix({ dynamic_pix_expires_at: '2025-03-10T13:00:00.074Z' });
		expect(r.status).toBe(200);
		expect(r.json.data.meta.dynamic_pix_due_date).toBe('2025-03-10T13:00:00Z');
		expect((await createPix({ dynamic_pix_expires_at: '2025-03-10 13:00' })).status).toBe(422);
	});
});

describe('static PIX and TED receipts', () => {
	test('a registered payer: a transaction is created and identified', async () => {
		const r = await t.control('POST', '/pix/receive', {
			document_number: t.subject.document_number,
			value: '42.00',
		});
		expect(r.json.data.identified).toBe(true);
		const tx = r.json.data.transaction;
		expect(tx).toMatchObject({
			status: 'identified',
			value: '42.00',
			subject_id: t.subject.id,
			to_bank_account: { id: ACCOUNT_IDS.brlPixExclusive },
		});
		expect(tx.bank_transaction).toMatchObject({
			value: '42.00',
			currency: 'BRL',
			bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		});
		const ted = await t.control('POST', '/ted/receive', {
			document_number: t.subject.document_number,
			value: '10.00',
		});
		expect(ted.json.data.transaction.to_bank_account.id).toBe(ACCOUNT_IDS.brlNoPixKey);
		expect(await t.eventTypes()).toEqual(['identified', 'identified']);
	});

	test('an unknown payer: non_identified_bank_transaction; registering the payer later identifies it', async () => {
		const r = await t.control('POST', '/pix/receive', {
			document_number: '70590071050',
			value: '42.00',
		});
		expect(r.json.data.identified).toBe(false);
		const ev = (await t.events())[0];
		expect(ev).toMatchObject({
			type: 'non_identified_bank_transaction',
			bank_transaction: {
				value: '42.00',
				currency: 'BRL',
				subject: { document_number: '70590071050' },
			},
		});
		const p = await createPerson(t, { document_number: '70590071050' });
		const txs = (await t.api('GET', `/subject/${p.id}/transactions`)).json.data;
		expect(txs).toHaveLength(1);
		expect((await t.events()).at(-1)).toMatchObject({
			type: 'identified',
			transaction_id: txs[0].id,
		});
	});

	test('refuses a bad value', async () => {
		const r = await t.control('POST', '/ted/receive', { document_number: '1', value: '4,00' });
		expect(r.status).toBe(422);
		expect(r.json.errors.value).toBeDefined();
	});

	test('a burst of static PIX receipts: one identified per payment, all at once', async () => {
		const r = await t.control('POST', '/pix/receive_many', {
			document_number: t.subject.document_number,
			value: '5.00',
			count: 300,
		});
		expect(r.json.data.transaction_ids).toHaveLength(300);
		expect(new Set(r.json.data.transaction_ids).size).toBe(300);
		const types = await t.eventTypes();
		expect(types).toHaveLength(300);
		expect(new Set(types)).toEqual(new Set(['identified']));
		expect(
			(
				await t.control('POST', '/pix/receive_many', {
					document_number: '70590071050',
					value: '5.00',
				})
			).status,
		).toBe(422);
	});
});
