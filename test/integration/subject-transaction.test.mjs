// The action node's Subject and Transaction operations, compiled, against the local sandbox over real HTTP.
import { createSandbox } from '../../sandbox/server.mjs';
import { ACCOUNTS, sandboxCredentials, useSandbox } from './lib/harness.mjs';
import {
	INVALID_CPF_PERSON,
	boletoParameters,
	checkoutParameters,
	contactParameters,
	dynamicPixParameters,
	getSubjectParameters,
	transactionParameters,
} from './lib/parameters.mjs';
import { CPF } from '../fixtures/subjects.js';
import { payoutParameters } from '../fixtures/transactions.js';

/** Create Payout parameters: USD cash-out account to the customer's BRL account. */
const payout = (subjectId, value, extra = {}) => payoutParameters(value, { subjectId, ...extra });

const env = useSandbox(createSandbox);

/** Username and password instead of an access token: the node signs in for a session token. */
const signInCredentials = () =>
	sandboxCredentials(env.url, {
		authentication: 'usernamePassword',
		username: 'sandbox',
		password: 'sandbox',
		accessToken: undefined,
	});

/** Maria's contact fields, the postal code typed with its dash (FacilitaPay receives it without). */
const fullAddress = { ...contactParameters, addressPostalCode: '01310-100' };

const createSubject = async (documentNumber = CPF, additionalFields = fullAddress) =>
	await env.createSubject(additionalFields, { documentNumber });

describe('Subject operations against the sandbox', () => {
	test('Create or Update registers the person, and the same CPF updates them', async () => {
		const first = await createSubject('390.533.447-05');
		expect(first.id).toEqual(expect.any(String));
		expect(first.document_number).toBe('39053344705');
		const second = await createSubject('39053344705', { ...fullAddress, email: 'new@example.com' });
		expect(second.id).toBe(first.id);
		const received = await env.control.received('POST /api/v1/subject/people');
		expect(received).toHaveLength(2);
		expect(received[0].body.person).toMatchObject({
			document_type: 'cpf',
			document_number: '39053344705',
			address_postal_code: '01310100',
		});
	});

	test('an invalid CPF fails with a readable message and nothing reaches the service', async () => {
		const error = await env.runExpectingError(INVALID_CPF_PERSON);
		expect(error.message).toMatch(/Invalid Document Number \(item 0\)/);
		expect(await env.control.received()).toHaveLength(0);
	});

	test('Get, Update, Get Many, Transactions and Transaction Values', async () => {
		const person = await createSubject();
		await createSubject('70590071050');
		const got = await env.run(getSubjectParameters(person.id));
		expect(got.output[0].json).toMatchObject({
			id: person.id,
			social_name: 'Maria da Silva',
			status: 'approved',
		});

		const updated = await env.run({
			resource: 'subject',
			operation: 'update',
			subjectId: person.id,
			updateFields: { socialName: 'Maria Souza' },
		});
		expect(updated.output[0].json.social_name).toBe('Maria Souza');

		const many = await env.run({
			resource: 'subject',
			operation: 'getMany',
			returnAll: false,
			limit: 1,
			simplify: true,
		});
		expect(many.output).toHaveLength(1);
		const all = await env.run({
			resource: 'subject',
			operation: 'getMany',
			returnAll: true,
			simplify: true,
		});
		expect(all.output.map((o) => o.json.id).sort()).toHaveLength(2);

		await env.run(dynamicPixParameters(person.id, '25.00'));
		const transactions = await env.run({
			resource: 'subject',
			operation: 'getTransactions',
			subjectId: person.id,
			returnAll: true,
			simplify: true,
		});
		expect(transactions.output).toHaveLength(1);
		expect(transactions.output[0].json).toMatchObject({ value: '25.00', status: 'pending' });
		const values = await env.run({
			resource: 'subject',
			operation: 'getTransactionValues',
			subjectId: person.id,
		});
		expect(values.output[0].json).toEqual(expect.any(Object));
	});

	test('Upload Document sends a PDF from a binary field', async () => {
		const person = await createSubject();
		const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
		const { output } = await env.run(
			{
				resource: 'subject',
				operation: 'uploadDocument',
				subjectId: person.id,
				labels: ['address-proof'],
				source: 'binary',
				binaryPropertyName: 'data',
				options: {},
			},
			{
				items: [
					{
						json: {},
						binary: {
							data: {
								data: pdf.toString('base64'),
								fileName: 'proof.pdf',
								mimeType: 'application/pdf',
							},
						},
					},
				],
			},
		);
		expect(output[0].json).toEqual(expect.any(Object));
		const [upload] = await env.control.received('POST /api/v1/subject/:id/documents');
		expect(upload.body.document).toMatchObject({
			labels: ['address-proof'],
			file_type: 'application/pdf',
			file_name: 'proof.pdf',
		});
	});
});

describe('Transaction operations against the sandbox', () => {
	test('Create Dynamic PIX returns a valid PIX code; paying it makes it identified', async () => {
		const person = await createSubject();
		const { output } = await env.run(dynamicPixParameters(person.id, '150.00'));
		const tx = output[0].json;
		expect(tx.pix_code).toMatch(/^000201/);
		expect(tx.pix_code_valid).toBe(true);
		await env.control.pay(tx.id);
		const after = await env.run(transactionParameters('get', tx.id, { simplify: true }));
		expect(after.output[0].json.status).not.toBe('pending');
	});

	test('the service’s own refusal (account without PIX key) reads as a field error', async () => {
		const person = await createSubject();
		const error = await env.runExpectingError(
			dynamicPixParameters(person.id, '10.00', { fromBankAccountId: ACCOUNTS.brlNoPixKey }),
		);
		expect(error.message).toMatch(
			/FacilitaPay rejected the data \(item 0\): from_bank_account_id: /,
		);
	});

	test('Create Boleto, then Get Boleto PDF outputs the PDF as binary', async () => {
		const person = await createSubject();
		const inThreeDays = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
		const { output } = await env.run(boletoParameters(person.id, '99.90', inThreeDays));
		expect(output[0].json.bar_code).toMatch(/^\d{44}$/);
		expect(output[0].json.digital_line).toMatch(/^\d{47}$/);
		const pdf = await env.run(
			transactionParameters('getBoletoPdf', output[0].json.id, { binaryPropertyName: 'data' }),
		);
		const file = pdf.output[0].binary.data;
		expect(file.mimeType).toBe('application/pdf');
		expect(file.fileName).toBe(`boleto-${output[0].json.id}.pdf`);
		expect(Buffer.from(file.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
	});

	test('Create Payout, Create Card Checkout, Cancel and Refund', async () => {
		const person = await createSubject();
		const paidOut = await env.run(payout(person.id, '20.00'));
		expect(paidOut.output[0].json).toMatchObject({ value: '20.00', currency: 'USD' });

		const checkout = await env.run(checkoutParameters(person.id));
		expect(checkout.output[0].json.checkout_url).toEqual(expect.any(String));

		const pix = await env.run(dynamicPixParameters(person.id, '10.00'));
		const cancel = await env.run(transactionParameters('cancel', pix.output[0].json.id));
		expect(cancel.output[0].json.status).toBe('canceled');

		const paid = await env.run(dynamicPixParameters(person.id, '12.00'));
		await env.control.pay(paid.output[0].json.id);
		const refund = await env.run(transactionParameters('refund', paid.output[0].json.id));
		expect(refund.output[0].json.id).toBe(paid.output[0].json.id);
		expect(
			(await env.control.received('GET /api/v1/transactions/:id/refund_received_transaction'))
				.length,
		).toBe(1);
	});
});

describe('Retries, faults and sign-in against the sandbox', () => {
	test('a read that meets a 503 is retried and succeeds', async () => {
		const person = await createSubject();
		await env.control.faultOnce('GET /api/v1/subject/people/:id', '503');
		const { output } = await env.run(getSubjectParameters(person.id));
		expect(output[0].json.id).toBe(person.id);
		expect((await env.control.received('GET /api/v1/subject/people/:id')).length).toBe(2);
	});

	test('a payout whose connection is reset is NOT sent again', async () => {
		const person = await createSubject();
		await env.control.faultOnce('POST /api/v1/transactions', 'reset');
		const error = await env.runExpectingError(payout(person.id, '20.00'));
		expect(error.description).toMatch(/not repeated/);
		expect((await env.control.received('POST /api/v1/transactions')).length).toBe(1);
	});

	test('a payout that hangs past the Timeout option fails in our words as an unknown outcome and is not sent again', async () => {
		const person = await createSubject();
		await env.control.faultOnce('POST /api/v1/transactions', 'latency', { ms: 3000 });
		const error = await env.runExpectingError(
			payout(person.id, '21.00', { requestOptions: { timeout: 1000 } }),
		);
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: FacilitaPay did not answer within 1 s',
		);
		expect(error.description).toMatch(/Transaction > Get/);
		expect((await env.control.received('POST /api/v1/transactions')).length).toBe(1);
	});

	test('200 payouts at Max Parallel Requests 20: each created once, output in input order', async () => {
		const person = await createSubject();
		const values = Array.from({ length: 200 }, (_, k) => `${k + 1}.00`);
		const { output } = await env.run(
			values.map((value) => payout(person.id, value, { requestOptions: { concurrency: 20 } })),
		);
		expect(output.map((item) => item.json.value)).toEqual(values);
		expect(output.map((item) => item.pairedItem.item)).toEqual(values.map((_, k) => k));
		const sent = (await env.control.received('POST /api/v1/transactions')).map(
			(r) => r.body.transaction.value,
		);
		expect([...sent].sort()).toEqual([...values].sort());
	});

	test('username and password sign in once for many items', async () => {
		env.credentials = signInCredentials();
		const person = await createSubject();
		const { output } = await env.run([1, 2, 3, 4, 5].map(() => getSubjectParameters(person.id)));
		expect(output).toHaveLength(5);
		expect(await env.control.received('POST /api/v1/sign_in')).toHaveLength(1);
		expect(env.credentials.sessionToken).toEqual(expect.any(String));
	});

	test('an expired session (24 h) is renewed by one sign-in, also when 20 parallel requests are refused at once', async () => {
		env.credentials = signInCredentials();
		const person = await createSubject();
		const firstToken = env.credentials.sessionToken;
		const signInsBefore = (await env.control.received('POST /api/v1/sign_in')).length;
		expect(signInsBefore).toBeLessThanOrEqual(1);
		await env.control.post('/clock/advance', { seconds: 25 * 3600 });
		const { output } = await env.run(
			Array.from({ length: 20 }, () => getSubjectParameters(person.id)),
		);
		expect(output).toHaveLength(20);
		expect(output[0].json.id).toBe(person.id);
		// 20 requests refused at once with the expired token: one sign-in between them.
		expect(await env.control.received('POST /api/v1/sign_in')).toHaveLength(signInsBefore + 1);
		expect(env.credentials.sessionToken).not.toBe(firstToken);
	});

	test('a wrong token reads as a credentials problem', async () => {
		env.credentials = sandboxCredentials(env.url, { accessToken: 'wrong' });
		const error = await env.runExpectingError({
			resource: 'subject',
			operation: 'getMany',
			returnAll: true,
			simplify: true,
		});
		expect(error.message).toMatch(/refused the credentials \(item 0\): invalid_token/);
	});
});
