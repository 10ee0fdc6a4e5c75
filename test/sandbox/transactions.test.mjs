import { startSandbox, createPerson, dynamicPix, ACCOUNT_IDS } from './helpers.mjs';
import { parseBrCode } from '../../sandbox/brcode.mjs';
import { barcodeDv, mod10, digitalLineToBarcode } from '../../sandbox/boleto.mjs';

let t;
let subject;
beforeAll(async () => (t = await startSandbox()));
afterAll(() => t.close());
beforeEach(async () => {
	await t.control('POST', '/reset');
	subject = await createPerson(t);
});

const create = (transaction) => t.api('POST', '/transactions', { transaction });
const eventTypes = async () => (await t.events()).map((e) => e.type);

describe('dynamic PIX', () => {
	test('answers a pending transaction with a valid BR Code and its due date', async () => {
		const r = await t.api('POST', '/transactions', dynamicPix(subject.id));
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
		expect(tx.subject.id).toBe(subject.id);
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

	test.each([
		[
			{ dynamic_pix_expires_at: '2025-03-10 13:00:00' },
			'dynamic_pix_expires_at',
			'must be a UTC date-time in the form YYYY-MM-DDThh:mm:ssZ',
		],
		[
			{ dynamic_pix_expires_at: '2025-03-10T12:01:00Z' },
			'dynamic_pix_expires_at',
			'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
		],
		[
			{ dynamic_pix_expires_at: '2025-03-09T12:00:00Z' },
			'dynamic_pix_expires_at',
			'must be more than 1 minute after the current time (2025-03-10T12:00:00Z)',
		],
		[
			{ from_bank_account_id: ACCOUNT_IDS.brlNoPixKey },
			'from_bank_account_id',
			'has no registered PIX key; dynamic PIX needs an account with a PIX key',
		],
		[
			{ to_bank_account_id: ACCOUNT_IDS.usdDestination },
			'to_bank_account_id',
			'currency (USD) must equal exchange_currency (BRL)',
		],
		[{ value: '150' }, 'value', 'must be a string with exactly two decimals, e.g. "10.50"'],
		[{ currency: 'USD' }, 'currency', 'must be one of: BRL'],
		[
			{ exchange_currency: 'MXN', to_bank_account_id: ACCOUNT_IDS.usdDestination },
			'exchange_currency',
			'must be one of: BRL, USD, EUR',
		],
		[
			{ use_dynamic_pix: false },
			'use_dynamic_pix',
			'must be true for a dynamic PIX (omit it for boleto and payout)',
		],
		[{ subject_id: '00000000-0000-4000-8000-000000000000' }, 'subject_id', 'was not found'],
	])('refuses %j', async (overrides, field, message) => {
		const r = await t.api('POST', '/transactions', dynamicPix(subject.id, overrides));
		expect(r.status).toBe(422);
		expect(r.json.errors[field]).toEqual([message]);
	});

	test('61 seconds ahead is accepted; without an expiry the code lives 1 hour', async () => {
		expect(
			(
				await t.api(
					'POST',
					'/transactions',
					dynamicPix(subject.id, { dynamic_pix_expires_at: '2025-03-10T12:01:01Z' }),
				)
			).status,
		).toBe(200);
		const r = await t.api(
			'POST',
			'/transactions',
			dynamicPix(subject.id, { dynamic_pix_expires_at: undefined }),
		);
		expect(r.json.data.meta.dynamic_pix_due_date).toBe('2025-03-10T13:00:00Z');
	});

	test('unpaid at its expiry: canceled and payment_expired', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
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
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
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
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
		const r = await t.control('POST', `/transactions/${tx.id}/pay`, {
			success: true,
			payer_document_number: '70590071050',
		});
		expect(r.json.data).toMatchObject({
			status: 'canceled',
			canceled_reason: 'third_party_payer_refunded',
		});
		expect(await eventTypes()).toEqual(['payment_refunded']);
	});
});

describe('boleto', () => {
	const boleto = (o = {}) => ({
		subject_id: subject.id,
		currency: 'BRL',
		exchange_currency: 'BRL',
		value: '250.75',
		to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
		from_boleto: { expire_at: '2025-03-20' },
		...o,
	});

	test('answers bar code, digital line and a PDF url; the PDF is a real PDF', async () => {
		const r = await create(boleto());
		expect(r.status).toBe(200);
		const tx = r.json.data;
		expect(tx.bar_code).toMatch(/^\d{44}$/);
		expect(tx.digital_line).toMatch(/^\d{47}$/);
		expect(barcodeDv(tx.bar_code.slice(0, 4) + tx.bar_code.slice(5))).toBe(Number(tx.bar_code[4]));
		const l = tx.digital_line;
		expect([mod10(l.slice(0, 9)), mod10(l.slice(10, 20)), mod10(l.slice(21, 31))]).toEqual([
			Number(l[9]),
			Number(l[20]),
			Number(l[31]),
		]);
		expect(digitalLineToBarcode(l)).toBe(tx.bar_code);
		expect(tx.bar_code.slice(9, 19)).toBe('0000025075');
		expect(tx.url_pdf).toBe(`${t.sb.url}/api/v1/transactions/${tx.id}/boleto_pdf`);
		const pdf = await fetch(tx.url_pdf, { headers: { authorization: 'Bearer sandbox-token' } });
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		const bytes = Buffer.from(await pdf.arrayBuffer());
		expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
		expect(bytes.toString('latin1')).toContain(tx.digital_line);
	});

	test('the PDF of a non-boleto transaction answers 404', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
		expect((await t.api('GET', `/transactions/${tx.id}/boleto_pdf`)).status).toBe(404);
	});

	test('refuses a past expiry, a bad date and a subject without address, email or phone', async () => {
		expect(
			(await create(boleto({ from_boleto: { expire_at: '2025-03-09' } }))).json.errors[
				'from_boleto.expire_at'
			],
		).toEqual(['cannot be in the past (today is 2025-03-10)']);
		expect(
			(await create(boleto({ from_boleto: { expire_at: '20/03/2025' } }))).json.errors[
				'from_boleto.expire_at'
			],
		).toEqual(['must be a date in the form YYYY-MM-DD']);
		const bare = await createPerson(t, {
			document_number: '70590071050',
			email: undefined,
			phone_number: undefined,
			address_street: undefined,
		});
		const r = await create(boleto({ subject_id: bare.id }));
		expect(r.status).toBe(422);
		expect(r.json.errors.subject_id[0]).toBe(
			'the subject must have email, phone_number, address_street registered for boleto; update it with PUT /subject/people/:id',
		);
	});

	test('paid: identified; not paid: canceled at the end of its due date with payment_expired', async () => {
		const paid = (await create(boleto())).json.data;
		const unpaid = (await create(boleto())).json.data;
		await t.control('POST', `/transactions/${paid.id}/pay`, { success: true });
		await t.advance(10 * 86400 + 12 * 3600 - 1); // 2025-03-20T23:59:59Z
		expect((await t.api('GET', `/transactions/${unpaid.id}`)).json.data.status).toBe('pending');
		await t.advance(1);
		expect((await t.api('GET', `/transactions/${unpaid.id}`)).json.data.status).toBe('canceled');
		expect(await t.events()).toEqual([
			expect.objectContaining({ type: 'identified', transaction_id: paid.id }),
			expect.objectContaining({ type: 'payment_expired', transaction_id: unpaid.id }),
		]);
	});

	test('the payer declines explicitly ({"success": false}): status change event at once', async () => {
		const tx = (await create(boleto())).json.data;
		await t.control('POST', `/transactions/${tx.id}/pay`, { success: false });
		expect(await eventTypes()).toEqual(['payment_expired']);
	});
});

describe('payout, exchange and wire', () => {
	const payout = (o = {}) => ({
		subject_id: subject.id,
		from_bank_account_id: ACCOUNT_IDS.usdCashOut,
		to_bank_account_id: ACCOUNT_IDS.brlCustomer,
		currency: 'USD',
		exchange_currency: 'BRL',
		value: '100.00',
		...o,
	});

	test('a payout is identified at once and waits for the exchange/wire step', async () => {
		const r = await create(payout());
		expect(r.json.data).toMatchObject({
			status: 'identified',
			subject_is_receiver: true,
			for_exchange: true,
			estimated_value_until_exchange: '500.00',
		});
		expect(await eventTypes()).toEqual(['identified']);
	});

	test('refuses a source that is not the cash-out account and a destination in another currency', async () => {
		const a = await create(payout({ from_bank_account_id: ACCOUNT_IDS.brlPixExclusive }));
		expect(a.json.errors.from_bank_account_id).toEqual([
			"must be the partner's cash-out internal account",
		]);
		const b = await create(payout({ to_bank_account_id: ACCOUNT_IDS.eurDestination }));
		expect(b.json.errors.to_bank_account_id).toEqual([
			'currency (EUR) must equal exchange_currency (BRL)',
		]);
	});

	test('settlement groups transactions of the same subject and destination into one exchange and one wire', async () => {
		const a = (await create(payout())).json.data;
		const b = (await create(payout({ value: '20.00' }))).json.data;
		const other = await createPerson(t, { document_number: '70590071050' });
		const c = (await create(payout({ subject_id: other.id }))).json.data;
		const run = await t.control('POST', '/settlement/run', {});
		expect(run.json.data.exchanges).toHaveLength(2);
		expect(run.json.data.wires).toHaveLength(2);
		const [w1] = run.json.data.wires;
		expect(w1).toMatchObject({
			value: '600.00',
			currency: 'BRL',
			status: 'sent',
			method: 'ted',
			transaction_ids: [a.id, b.id],
		});
		expect((await t.api('GET', `/transactions/${a.id}`)).json.data).toMatchObject({
			status: 'wired',
			exchanged_value: '500.00',
		});
		const ev = await t.events();
		expect(ev.filter((e) => e.type === 'exchange_created').map((e) => e.transaction_ids)).toEqual([
			[a.id, b.id],
			[c.id],
		]);
		expect(ev.filter((e) => e.type === 'wire_created').map((e) => e.transaction_ids)).toEqual([
			[a.id, b.id],
			[c.id],
		]);
	});

	test('a BRL pay-in to an internal BRL account stays identified (final); to USD it is exchanged and wired', async () => {
		const brl = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
		const usd = (
			await t.api(
				'POST',
				'/transactions',
				dynamicPix(subject.id, {
					exchange_currency: 'USD',
					to_bank_account_id: ACCOUNT_IDS.usdDestination,
					value: '50.00',
				}),
			)
		).json.data;
		await t.control('POST', `/transactions/${brl.id}/pay`, {});
		await t.control('POST', `/transactions/${usd.id}/pay`, {});
		await t.control('POST', '/settlement/run', {});
		expect((await t.api('GET', `/transactions/${brl.id}`)).json.data.status).toBe('identified');
		expect((await t.api('GET', `/transactions/${usd.id}`)).json.data).toMatchObject({
			status: 'wired',
			exchanged_value: '10.00',
		});
	});

	test('held (uncleared) transactions are not settled', async () => {
		await t.control('POST', `/subjects/${subject.id}/reprove`, {});
		const a = (await create(payout())).json.data;
		expect(a.cleared).toBe(false);
		const run = await t.control('POST', '/settlement/run', {});
		expect(run.json.data).toEqual({ exchanges: [], wires: [] });
	});

	test('wire correction: wire_waiting_correction, then update_bank_account and wire_created 60 s later', async () => {
		const a = (await create(payout())).json.data;
		const run = await t.control('POST', '/settlement/run', { wire_error_code: 'AC03' });
		const wire = run.json.data.wires[0];
		expect(wire).toMatchObject({ status: 'waiting_correction', error_code: 'AC03' });
		const ev = (await t.events()).at(-1);
		expect(ev).toEqual(
			expect.objectContaining({
				type: 'wire_waiting_correction',
				error_code: 'AC03',
				error_description: 'Creditor account number invalid or missing',
				bank_account_id: ACCOUNT_IDS.brlCustomer,
				bank_account_owner_id: subject.id,
				transaction_ids: [a.id],
				wire_id: wire.id,
			}),
		);
		const bad = await t.api('PUT', `/wires/${wire.id}/update_bank_account`, {
			bank_account: { currency: 'BRL', account_type: 'savings', branch_country: 'Brazil' },
		});
		expect(bad.status).toBe(422);
		expect(bad.json.errors).toMatchObject({
			account_type: ['must be one of: conta-corrente, poupanca'],
			branch_country: ['must be a two-letter country code, e.g. "BR"'],
			bank: ["can't be blank"],
		});
		const fix = await t.api('PUT', `/wires/${wire.id}/update_bank_account`, {
			bank_account: {
				currency: 'BRL',
				bank: { code: '260', name: 'Nu Pagamentos S.A.' },
				branch_number: '0001',
				account_number: '99887766',
				owner_document_number: '39053344705',
				owner_name: 'Maria da Silva',
				branch_country: 'BR',
				account_type: 'poupanca',
			},
		});
		expect(fix.status).toBe(200);
		expect(fix.json.data).toMatchObject({
			id: wire.id,
			status: 'waiting_confirmation',
			unretryable: false,
			currency: 'BRL',
			value: '500.00',
			to_bank_account: { account_number: '99887766', account_type: 'poupanca' },
		});
		expect(
			(
				await t.api(
					'PUT',
					`/wires/${wire.id}/update_bank_account`,
					fix.json.data.to_bank_account && {
						bank_account: { ...fix.json.data.to_bank_account, bank: { code: '260', name: 'Nu' } },
					},
				)
			).status,
		).toBe(422);
		await t.advance(60);
		expect((await t.events()).at(-1)).toEqual(
			expect.objectContaining({ type: 'wire_created', wire_id: wire.id, transaction_ids: [a.id] }),
		);
		expect((await t.api('GET', `/transactions/${a.id}`)).json.data.status).toBe('wired');
	});

	test.each(['AC14', 'CH11', 'AG03'])(
		'correction code %s is sent as is; unknown codes are refused',
		async (code) => {
			await create(payout());
			await t.control('POST', '/settlement/run', { wire_error_code: code });
			expect((await t.events()).at(-1)).toMatchObject({
				type: 'wire_waiting_correction',
				error_code: code,
			});
			expect((await t.control('POST', '/settlement/run', { wire_error_code: 'XX00' })).status).toBe(
				422,
			);
		},
	);

	test('automatic settlement runs the step after each identified payment', async () => {
		const auto = await startSandbox({ autoSettle: true });
		try {
			const s = await createPerson(auto);
			await auto.api('POST', '/transactions', { transaction: payout({ subject_id: s.id }) });
			expect((await auto.events()).map((e) => e.type)).toEqual([
				'identified',
				'exchange_created',
				'wire_created',
			]);
		} finally {
			await auto.close();
		}
	});
});

describe('checkout', () => {
	const checkout = (o = {}) =>
		t.api('POST', '/transactions/checkout', {
			subject_id: subject.id,
			value: '99.90',
			currency: 'BRL',
			exchange_currency: 'BRL',
			to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
			...o,
		});

	test('answers an active checkout with its id and url; the url serves an HTML page', async () => {
		const r = await checkout();
		expect(r.status).toBe(200);
		const c = r.json.data;
		expect(c).toMatchObject({ status: 'active', value: '99.90' });
		expect(c.checkout_id).toBe(c.id);
		expect(c.checkout_url).toBe(`${t.sb.url}/_sandbox/checkout/${c.id}`);
		const page = await fetch(c.checkout_url);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await page.text()).toContain('BRL 99.90');
	});

	test('refuses a non-card currency and a destination in another currency', async () => {
		expect((await checkout({ currency: 'USD' })).json.errors.currency).toEqual([
			'must be one of: BRL, MXN, COP, CLP',
		]);
		expect((await checkout({ exchange_currency: 'USD' })).json.errors.to_bank_account_id).toEqual([
			'currency (BRL) must equal exchange_currency (USD)',
		]);
	});

	test('each failed attempt sends payment_failed with a new transaction id and the same checkout id; success sends payment_approved', async () => {
		const c = (await checkout()).json.data;
		const f1 = (await t.control('POST', `/transactions/${c.id}/pay`, { success: false })).json.data;
		const f2 = (await t.control('POST', `/transactions/${c.id}/pay`, { success: false })).json.data;
		const ok = (await t.control('POST', `/transactions/${c.id}/pay`, { success: true })).json.data;
		expect(new Set([f1.id, f2.id, ok.id]).size).toBe(3);
		expect(f1).toMatchObject({
			status: 'canceled',
			canceled_reason: 'card_declined',
			checkout_id: c.id,
		});
		expect(ok).toMatchObject({ status: 'identified', checkout_id: c.id });
		expect(
			(await t.events()).map(({ type, transaction_id, checkout_id }) => ({
				type,
				transaction_id,
				checkout_id,
			})),
		).toEqual([
			{ type: 'payment_failed', transaction_id: f1.id, checkout_id: c.id },
			{ type: 'payment_failed', transaction_id: f2.id, checkout_id: c.id },
			{ type: 'payment_approved', transaction_id: ok.id, checkout_id: c.id },
			{ type: 'identified', transaction_id: ok.id, checkout_id: undefined },
		]);
		const after = await t.control('POST', `/transactions/${c.id}/pay`, { success: true });
		expect(after.status).toBe(422);
		expect(after.json.errors.status).toEqual([
			'the checkout is paid; only an active checkout page can be paid',
		]);
	});
});

describe('what the spec leaves open, played on demand', () => {
	const checkout = async (o = {}) =>
		(
			await t.api('POST', '/transactions/checkout', {
				subject_id: subject.id,
				value: '99.90',
				currency: 'BRL',
				exchange_currency: 'BRL',
				to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
				...o,
			})
		).json.data;

	test('approval before identification: payment_approved while the API still shows the card payment pending; identified later, on demand', async () => {
		expect((await t.control('GET', '/play')).json.data).toEqual({
			card_identification: 'at_approval',
		});
		expect((await t.control('POST', '/play', { card_identification: 'later' })).json.data).toEqual({
			card_identification: 'later',
		});
		const c = await checkout();
		const paid = (await t.control('POST', `/transactions/${c.id}/pay`, { success: true })).json
			.data;
		expect(paid.status).toBe('pending');
		expect((await t.api('GET', `/transactions/${paid.id}`)).json.data.status).toBe('pending');
		expect(await eventTypes()).toEqual(['payment_approved']);
		const identified = await t.control('POST', `/transactions/${paid.id}/identify`);
		expect(identified.json.data.status).toBe('identified');
		expect(await eventTypes()).toEqual(['payment_approved', 'identified']);
		expect((await t.control('POST', `/transactions/${paid.id}/identify`)).status).toBe(422);
		expect((await t.control('POST', '/play', { card_identification: 'never' })).status).toBe(422);
		await t.control('POST', '/reset');
		expect((await t.control('GET', '/play')).json.data.card_identification).toBe('at_approval');
	});

	test.each([40, 200])(
		'a wire grouping %i transactions: one exchange_created and one wire_created naming all of them',
		async (count) => {
			const r = await t.control('POST', '/wires/grouped', { subject_id: subject.id, count });
			expect(r.status).toBe(200);
			const { transaction_ids: ids } = r.json.data;
			expect(ids).toHaveLength(count);
			const events = await t.events();
			expect(events.map((e) => e.type)).toEqual(['exchange_created', 'wire_created']);
			expect(events[0].transaction_ids).toEqual(ids);
			expect(events[1].transaction_ids).toEqual(ids);
			const [wire] = (await t.control('GET', '/wires')).json.data;
			expect(wire).toMatchObject({ status: 'sent', currency: 'USD', value: `${count * 2}.00` });
			for (const id of [ids[0], ids.at(-1)])
				expect((await t.api('GET', `/transactions/${id}`)).json.data).toMatchObject({
					status: 'wired',
					wire_id: wire.id,
					subject_id: subject.id,
				});
		},
	);

	test('a grouped wire waiting correction names every transaction too', async () => {
		await t.control('POST', '/wires/grouped', {
			subject_id: subject.id,
			count: 3,
			wire_error_code: 'AC03',
		});
		const [, correction] = await t.events();
		expect(correction).toMatchObject({
			type: 'wire_waiting_correction',
			error_code: 'AC03',
			transaction_ids: expect.any(Array),
		});
		expect(correction.transaction_ids).toHaveLength(3);
	});

	test('a burst of static PIX receipts: one identified per payment, all at once', async () => {
		const r = await t.control('POST', '/pix/receive_many', {
			document_number: subject.document_number,
			value: '5.00',
			count: 300,
		});
		expect(r.json.data.transaction_ids).toHaveLength(300);
		expect(new Set(r.json.data.transaction_ids).size).toBe(300);
		const types = await eventTypes();
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

describe('local pay-ins and the PIX expiry of the live docs', () => {
	test('POST /transactions routes a local pay-in (MXN, dynamic CLABE): created pending, paid like a dynamic PIX', async () => {
		const { PAY_IN_ACCOUNT_IDS: ids } = await import('../../sandbox/domain/localPayIns.mjs');
		const r = await create({
			subject_id: subject.id,
			from_bank_account_id: ids.mxnReal,
			to_bank_account_id: ids.mxnCashIn,
			currency: 'MXN',
			exchange_currency: 'MXN',
			value: '1500.00',
		});
		expect(r.status).toBe(200);
		expect(r.json.data).toMatchObject({
			status: 'pending',
			payment_info: { dynamic_clabe: expect.stringMatching(/^\d{18}$/) },
		});
		const paid = await t.control('POST', `/transactions/${r.json.data.id}/pay`, {});
		expect(paid.json.data.status).toBe('identified');
		expect(await eventTypes()).toEqual(['identified']);
	});

	test('a dynamic PIX expiry with milliseconds (the documented example) is accepted', async () => {
		const r = await create({
			...dynamicPix(subject.id).transaction,
			dynamic_pix_expires_at: '2025-03-10T13:00:00.074Z',
		});
		expect(r.status).toBe(200);
		expect(r.json.data.meta.dynamic_pix_due_date).toBe('2025-03-10T13:00:00Z');
		expect(
			(
				await create({
					...dynamicPix(subject.id).transaction,
					dynamic_pix_expires_at: '2025-03-10 13:00',
				})
			).status,
		).toBe(422);
	});
});

describe('Chilean pesos have no decimals', () => {
	test('a CLP card payment is written "15000" and accepted as such ("15000.00" too, written "15000")', async () => {
		const make = (value) =>
			t.api('POST', '/transactions/checkout', {
				subject_id: subject.id,
				value,
				currency: 'CLP',
				exchange_currency: 'USD',
				to_bank_account_id: ACCOUNT_IDS.usdDestination,
			});
		const whole = await make('15000');
		expect(whole.status).toBe(200);
		expect(whole.json.data.value).toBe('15000');
		expect((await make('15000.00')).json.data.value).toBe('15000');
		for (const bad of ['15000.50', '15.000', '0', 15000]) {
			const refused = await make(bad);
			expect(refused.status).toBe(422);
			expect(refused.json.errors.value).toBeDefined();
		}
		const paid = (
			await t.control('POST', `/transactions/${whole.json.data.id}/pay`, { success: true })
		).json.data;
		// 15 000 CLP at 0.0055 BRL, 1 USD = 5.00 BRL: 16.50 USD.
		expect(paid).toMatchObject({ value: '15000', estimated_value_until_exchange: '16.50' });
	});

	test('BRL still needs two decimals', async () => {
		const r = await t.api('POST', '/transactions/checkout', {
			subject_id: subject.id,
			value: '15000',
			currency: 'BRL',
			exchange_currency: 'BRL',
			to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		});
		expect(r.status).toBe(422);
	});
});

describe('static PIX and TED receipts', () => {
	test('a registered payer: a transaction is created and identified', async () => {
		const r = await t.control('POST', '/pix/receive', {
			document_number: subject.document_number,
			value: '42.00',
		});
		expect(r.json.data.identified).toBe(true);
		const tx = r.json.data.transaction;
		expect(tx).toMatchObject({
			status: 'identified',
			value: '42.00',
			subject_id: subject.id,
			to_bank_account: { id: ACCOUNT_IDS.brlPixExclusive },
		});
		expect(tx.bank_transaction).toMatchObject({
			value: '42.00',
			currency: 'BRL',
			bank_account_id: ACCOUNT_IDS.brlPixExclusive,
		});
		const ted = await t.control('POST', '/ted/receive', {
			document_number: subject.document_number,
			value: '10.00',
		});
		expect(ted.json.data.transaction.to_bank_account.id).toBe(ACCOUNT_IDS.brlNoPixKey);
		expect(await eventTypes()).toEqual(['identified', 'identified']);
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
});

describe('refunds', () => {
	test('GET /refund cancels a pending payment; a received one is refused', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
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
		const tx2 = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
		await t.control('POST', `/transactions/${tx2.id}/pay`, {});
		const refused = await t.api('GET', `/transactions/${tx2.id}/refund`);
		expect(refused.status).toBe(422);
		expect(refused.json.errors.status[0]).toMatch(/^the transaction is identified; only a pending/);
	});

	test('GET /refund_received_transaction refunds an identified pay-in in full', async () => {
		const tx = (await t.api('POST', '/transactions', dynamicPix(subject.id))).json.data;
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
