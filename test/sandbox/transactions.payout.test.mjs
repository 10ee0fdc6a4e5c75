// Payouts, then the exchange and wire step that settles them (grouped, held, waiting correction).
import {
	useSandbox,
	startSandbox,
	createPerson,
	dynamicPix,
	payout,
	ACCOUNT_IDS,
} from './helpers.mjs';

const t = useSandbox({ withPerson: true });

const createPayout = (overrides) => t.api('POST', '/transactions', payout(t.subject.id, overrides));

describe('payout, exchange and wire', () => {
	test('a payout is identified at once and waits for the exchange/wire step', async () => {
		const r = await createPayout();
		expect(r.json.data).toMatchObject({
			status: 'identified',
			subject_is_receiver: true,
			for_exchange: true,
			estimated_value_until_exchange: '500.00',
		});
		expect(await t.eventTypes()).toEqual(['identified']);
	});

	test('refuses a source that is not the cash-out account and a destination in another currency', async () => {
		const a = await createPayout({ from_bank_account_id: ACCOUNT_IDS.brlPixExclusive });
		expect(a.json.errors.from_bank_account_id).toEqual([
			"must be the partner's cash-out internal account",
		]);
		const b = await createPayout({ to_bank_account_id: ACCOUNT_IDS.eurDestination });
		expect(b.json.errors.to_bank_account_id).toEqual([
			'currency (EUR) must equal exchange_currency (BRL)',
		]);
	});

	test('settlement groups transactions of the same subject and destination into one exchange and one wire', async () => {
		const a = (await createPayout()).json.data;
		const b = (await createPayout({ value: '20.00' })).json.data;
		const other = await createPerson(t, { document_number: '70590071050' });
		const c = (await createPayout({ subject_id: other.id })).json.data;
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
		const pix = async (overrides) =>
			(await t.api('POST', '/transactions', dynamicPix(t.subject.id, overrides))).json.data;
		const brl = await pix();
		const usd = await pix({
			exchange_currency: 'USD',
			to_bank_account_id: ACCOUNT_IDS.usdDestination,
			value: '50.00',
		});
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
		await t.control('POST', `/subjects/${t.subject.id}/reprove`, {});
		const a = (await createPayout()).json.data;
		expect(a.cleared).toBe(false);
		const run = await t.control('POST', '/settlement/run', {});
		expect(run.json.data).toEqual({ exchanges: [], wires: [] });
	});

	test('wire correction: wire_waiting_correction, then update_bank_account and wire_created 60 s later', async () => {
		const a = (await createPayout()).json.data;
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
				bank_account_owner_id: t.subject.id,
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
			branch_country: ['must be a two- or three-letter country code, e.g. "BR" or "BRA"'],
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
			await createPayout();
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
			await auto.api('POST', '/transactions', payout(s.id));
			expect(await auto.eventTypes()).toEqual(['identified', 'exchange_created', 'wire_created']);
		} finally {
			await auto.close();
		}
	});

	test.each([40, 200])(
		'a wire grouping %i transactions: one exchange_created and one wire_created naming all of them',
		async (count) => {
			const r = await t.control('POST', '/wires/grouped', { subject_id: t.subject.id, count });
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
					subject_id: t.subject.id,
				});
		},
	);

	test('a grouped wire waiting correction names every transaction too', async () => {
		await t.control('POST', '/wires/grouped', {
			subject_id: t.subject.id,
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
});
