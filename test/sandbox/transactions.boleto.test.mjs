// Boleto: its bar code, digital line and PDF, the subject it needs, and its due date.
import { useSandbox, createPerson, dynamicPix, ACCOUNT_IDS } from './helpers.mjs';
import { barcodeDv, mod10, digitalLineToBarcode } from '../../sandbox/boleto.mjs';

const t = useSandbox({ withPerson: true });

const create = (transaction) => t.api('POST', '/transactions', { transaction });

describe('boleto', () => {
	const boleto = (o = {}) => ({
		subject_id: t.subject.id,
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
		const tx = (await t.api('POST', '/transactions', dynamicPix(t.subject.id))).json.data;
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
		expect(await t.eventTypes()).toEqual(['payment_expired']);
	});
});
