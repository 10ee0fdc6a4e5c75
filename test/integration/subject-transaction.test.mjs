// The action node's Subject and Transaction operations, compiled, against the local sandbox over real HTTP.
import { createSandbox } from '../../sandbox/server.mjs';
import {
	ACCOUNTS,
	runAction,
	runActionExpectingError,
	sandboxCredentials,
	useSandbox,
} from './lib/harness.mjs';

/** Create Payout parameters: USD cash-out account to the customer's BRL account. */
const payout = (subjectId, value, extra = {}) => ({
	resource: 'transaction',
	operation: 'createPayout',
	subjectId,
	fromBankAccountId: ACCOUNTS.usdCashOut,
	toBankAccountId: ACCOUNTS.brlCustomer,
	currency: 'USD',
	exchangeCurrency: 'BRL',
	value,
	...extra,
});

const env = useSandbox(createSandbox);

const fullAddress = {
	email: 'maria@example.com',
	phoneNumber: '11987654321',
	addressStreet: 'Avenida Paulista',
	addressNumber: '1000',
	addressNeighborhood: 'Bela Vista',
	addressPostalCode: '01310-100',
	addressCity: 'São Paulo',
	addressState: 'SP',
	addressCountry: 'BR',
};

async function createSubject(documentNumber = '39053344705', additionalFields = fullAddress) {
	const { output } = await runAction({
		credentials: env.credentials,
		parameters: {
			resource: 'subject',
			operation: 'create',
			documentType: 'cpf',
			documentNumber,
			socialName: 'Maria da Silva',
			fiscalCountry: 'BR',
			additionalFields,
		},
	});
	return output[0].json;
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

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
		const error = await runActionExpectingError({
			credentials: env.credentials,
			parameters: {
				resource: 'subject',
				operation: 'create',
				documentType: 'cpf',
				documentNumber: '23100299900',
				socialName: 'X Y',
				fiscalCountry: 'BR',
				additionalFields: {},
			},
		});
		expect(error.message).toMatch(/Invalid Document Number \(item 0\)/);
		expect(await env.control.received()).toHaveLength(0);
	});

	test('Get, Update, Get Many, Transactions and Transaction Values', async () => {
		const person = await createSubject();
		await createSubject('70590071050');
		const got = await runAction({
			credentials: env.credentials,
			parameters: { resource: 'subject', operation: 'get', subjectId: person.id, simplify: true },
		});
		expect(got.output[0].json).toMatchObject({
			id: person.id,
			social_name: 'Maria da Silva',
			status: 'approved',
		});

		const updated = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'subject',
				operation: 'update',
				subjectId: person.id,
				updateFields: { socialName: 'Maria Souza' },
			},
		});
		expect(updated.output[0].json.social_name).toBe('Maria Souza');

		const many = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 1,
				simplify: true,
			},
		});
		expect(many.output).toHaveLength(1);
		const all = await runAction({
			credentials: env.credentials,
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
		});
		expect(all.output.map((o) => o.json.id).sort()).toHaveLength(2);

		await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: person.id,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				toBankAccountId: ACCOUNTS.brlCustomer,
				exchangeCurrency: 'BRL',
				value: '25.00',
				dynamicPixExpiresAt: inAnHour(),
			},
		});
		const transactions = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'subject',
				operation: 'getTransactions',
				subjectId: person.id,
				returnAll: true,
				simplify: true,
			},
		});
		expect(transactions.output).toHaveLength(1);
		expect(transactions.output[0].json).toMatchObject({ value: '25.00', status: 'pending' });
		const values = await runAction({
			credentials: env.credentials,
			parameters: { resource: 'subject', operation: 'getTransactionValues', subjectId: person.id },
		});
		expect(values.output[0].json).toEqual(expect.any(Object));
	});

	test('Upload Document sends a PDF from a binary field', async () => {
		const person = await createSubject();
		const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'subject',
				operation: 'uploadDocument',
				subjectId: person.id,
				labels: ['address-proof'],
				source: 'binary',
				binaryPropertyName: 'data',
				options: {},
			},
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
		});
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
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: person.id,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				toBankAccountId: ACCOUNTS.brlCustomer,
				exchangeCurrency: 'BRL',
				value: '150.00',
				dynamicPixExpiresAt: inAnHour(),
			},
		});
		const tx = output[0].json;
		expect(tx.pix_code).toMatch(/^000201/);
		expect(tx.pix_code_valid).toBe(true);
		await env.control.post(`/transactions/${tx.id}/pay`, { success: true });
		const after = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: tx.id,
				simplify: true,
			},
		});
		expect(after.output[0].json.status).not.toBe('pending');
	});

	test('the service’s own refusal (account without PIX key) reads as a field error', async () => {
		const person = await createSubject();
		const error = await runActionExpectingError({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: person.id,
				fromBankAccountId: ACCOUNTS.brlNoPixKey,
				toBankAccountId: ACCOUNTS.brlCustomer,
				exchangeCurrency: 'BRL',
				value: '10.00',
				dynamicPixExpiresAt: inAnHour(),
			},
		});
		expect(error.message).toMatch(
			/FacilitaPay rejected the data \(item 0\): from_bank_account_id: /,
		);
	});

	test('Create Boleto, then Get Boleto PDF outputs the PDF as binary', async () => {
		const person = await createSubject();
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createBoleto',
				subjectId: person.id,
				toBankAccountId: ACCOUNTS.brlCustomer,
				currency: 'BRL',
				exchangeCurrency: 'BRL',
				value: '99.90',
				expireAt: new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10),
			},
		});
		expect(output[0].json.bar_code).toMatch(/^\d{44}$/);
		expect(output[0].json.digital_line).toMatch(/^\d{47}$/);
		const pdf = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'getBoletoPdf',
				transactionId: output[0].json.id,
				binaryPropertyName: 'data',
			},
		});
		const file = pdf.output[0].binary.data;
		expect(file.mimeType).toBe('application/pdf');
		expect(file.fileName).toBe(`boleto-${output[0].json.id}.pdf`);
		expect(Buffer.from(file.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
	});

	test('Create Payout, Create Card Checkout, Cancel and Refund', async () => {
		const person = await createSubject();
		const paidOut = await runAction({
			credentials: env.credentials,
			parameters: payout(person.id, '20.00'),
		});
		expect(paidOut.output[0].json).toMatchObject({ value: '20.00', currency: 'USD' });

		const checkout = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createCheckout',
				subjectId: person.id,
				toBankAccountId: ACCOUNTS.usdDestination,
				currency: 'BRL',
				exchangeCurrency: 'USD',
				value: '80.00',
			},
		});
		expect(checkout.output[0].json.checkout_url).toEqual(expect.any(String));

		const pix = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: person.id,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				toBankAccountId: ACCOUNTS.brlCustomer,
				exchangeCurrency: 'BRL',
				value: '10.00',
				dynamicPixExpiresAt: inAnHour(),
			},
		});
		const cancel = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'cancel',
				transactionId: pix.output[0].json.id,
			},
		});
		expect(cancel.output[0].json.status).toBe('canceled');

		const paid = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: person.id,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				toBankAccountId: ACCOUNTS.brlCustomer,
				exchangeCurrency: 'BRL',
				value: '12.00',
				dynamicPixExpiresAt: inAnHour(),
			},
		});
		await env.control.post(`/transactions/${paid.output[0].json.id}/pay`, { success: true });
		const refund = await runAction({
			credentials: env.credentials,
			parameters: {
				resource: 'transaction',
				operation: 'refund',
				transactionId: paid.output[0].json.id,
			},
		});
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
		await env.control.post('/faults', {
			route: 'GET /api/v1/subject/people/:id',
			rate: 1,
			kind: '503',
			count: 1,
		});
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: { resource: 'subject', operation: 'get', subjectId: person.id, simplify: true },
		});
		expect(output[0].json.id).toBe(person.id);
		expect((await env.control.received('GET /api/v1/subject/people/:id')).length).toBe(2);
	});

	test('a payout whose connection is reset is NOT sent again', async () => {
		const person = await createSubject();
		await env.control.post('/faults', {
			route: 'POST /api/v1/transactions',
			rate: 1,
			kind: 'reset',
			count: 1,
		});
		const error = await runActionExpectingError({
			credentials: env.credentials,
			parameters: payout(person.id, '20.00'),
		});
		expect(error.description).toMatch(/not repeated/);
		expect((await env.control.received('POST /api/v1/transactions')).length).toBe(1);
	});

	test('a payout that hangs past the Timeout option fails in our words as an unknown outcome and is not sent again', async () => {
		const person = await createSubject();
		await env.control.post('/faults', {
			route: 'POST /api/v1/transactions',
			rate: 1,
			kind: 'latency',
			ms: 3000,
			count: 1,
		});
		const error = await runActionExpectingError({
			credentials: env.credentials,
			parameters: payout(person.id, '21.00', { requestOptions: { timeout: 1000 } }),
		});
		expect(error.message).toBe(
			'Outcome unknown (item 0): Could not reach FacilitaPay: FacilitaPay did not answer within 1 s',
		);
		expect(error.description).toMatch(/Transaction > Get/);
		expect((await env.control.received('POST /api/v1/transactions')).length).toBe(1);
	});

	test('200 payouts at Max Parallel Requests 20: each created once, output in input order', async () => {
		const person = await createSubject();
		const values = Array.from({ length: 200 }, (_, k) => `${k + 1}.00`);
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: values.map((value) =>
				payout(person.id, value, { requestOptions: { concurrency: 20 } }),
			),
		});
		expect(output.map((item) => item.json.value)).toEqual(values);
		expect(output.map((item) => item.pairedItem.item)).toEqual(values.map((_, k) => k));
		const sent = (await env.control.received('POST /api/v1/transactions')).map(
			(r) => r.body.transaction.value,
		);
		expect([...sent].sort()).toEqual([...values].sort());
	});

	test('username and password sign in once for many items', async () => {
		env.credentials = sandboxCredentials(env.url, {
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'sandbox',
			accessToken: undefined,
		});
		const person = await createSubject();
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: [1, 2, 3, 4, 5].map(() => ({
				resource: 'subject',
				operation: 'get',
				subjectId: person.id,
				simplify: true,
			})),
		});
		expect(output).toHaveLength(5);
		expect(await env.control.received('POST /api/v1/sign_in')).toHaveLength(1);
		expect(env.credentials.sessionToken).toEqual(expect.any(String));
	});

	test('an expired session (24 h) is renewed by one sign-in, also when 20 parallel requests are refused at once', async () => {
		env.credentials = sandboxCredentials(env.url, {
			authentication: 'usernamePassword',
			username: 'sandbox',
			password: 'sandbox',
			accessToken: undefined,
		});
		const person = await createSubject();
		const firstToken = env.credentials.sessionToken;
		const signInsBefore = (await env.control.received('POST /api/v1/sign_in')).length;
		expect(signInsBefore).toBeLessThanOrEqual(1);
		await env.control.post('/clock/advance', { seconds: 25 * 3600 });
		const { output } = await runAction({
			credentials: env.credentials,
			parameters: Array.from({ length: 20 }, () => ({
				resource: 'subject',
				operation: 'get',
				subjectId: person.id,
				simplify: true,
			})),
		});
		expect(output).toHaveLength(20);
		expect(output[0].json.id).toBe(person.id);
		// 20 requests refused at once with the expired token: one sign-in between them.
		expect(await env.control.received('POST /api/v1/sign_in')).toHaveLength(signInsBefore + 1);
		expect(env.credentials.sessionToken).not.toBe(firstToken);
	});

	test('a wrong token reads as a credentials problem', async () => {
		env.credentials = sandboxCredentials(env.url, { accessToken: 'wrong' });
		const error = await runActionExpectingError({
			credentials: env.credentials,
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
		});
		expect(error.message).toMatch(/refused the credentials \(item 0\): invalid_token/);
	});
});
