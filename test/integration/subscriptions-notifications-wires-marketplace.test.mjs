// The action node's Subscription, Invoice, Webhook, Notification, Wire and Marketplace Account
// operations, compiled, against the local sandbox over real HTTP.
import http from 'node:http';

import { wireBankAccountParameters } from '../fixtures/bankAccounts.js';
import { createSandbox } from '../../sandbox/server.mjs';
import { useSandbox } from './lib/harness.mjs';
import {
	automaticPixSubscriptionParameters,
	cardSubscriptionParameters,
	contactParameters,
	dynamicPixParameters,
} from './lib/parameters.mjs';

const CARD = '4111111111111111';

const env = useSandbox(createSandbox);

/** Maria with everything a card subscription and an account request need. */
const createSubject = async () =>
	await env.createSubject({
		...contactParameters,
		netMonthlyAverageIncome: '5000.00',
		website: 'https://maria.example.com',
	});

describe('Subscriptions and invoices against the sandbox', () => {
	test('card subscription: create, get, get many, invoices, cancel; the card never shows in outputs', async () => {
		const person = await createSubject();
		const created = await env.run(cardSubscriptionParameters(person.id));
		const subscription = created.output[0].json;
		expect(subscription).toMatchObject({ status: expect.any(String), subject_id: person.id });
		expect(JSON.stringify(created.output)).not.toContain(CARD);
		const [sent] = await env.control.received('POST /api/v1/subscriptions');
		expect(sent.body.subscription.from_card.threeds).toMatchObject({
			httpBrowserJavaEnabled: 'false',
			challengeWindowSize: 'fullPage',
		});

		await env.control.post('/clock/advance', { days: 1 });
		const got = await env.run({
			resource: 'subscription',
			operation: 'get',
			subscriptionId: subscription.id,
		});
		expect(got.output[0].json.status).toBe('active');
		const many = await env.run({ resource: 'subscription', operation: 'getMany', returnAll: true });
		expect(many.output.map((o) => o.json.id)).toEqual([subscription.id]);

		const invoices = await env.run({
			resource: 'invoice',
			operation: 'getMany',
			subscriptionId: subscription.id,
			returnAll: true,
		});
		expect(invoices.output.length).toBeGreaterThan(0);
		const all = await env.run({
			resource: 'invoice',
			operation: 'getMany',
			subscriptionId: '',
			returnAll: true,
		});
		expect(all.output.length).toBe(invoices.output.length);
		const one = await env.run({
			resource: 'invoice',
			operation: 'get',
			invoiceId: invoices.output[0].json.id,
		});
		expect(one.output).toHaveLength(1);
		expect(one.output[0].json.id).toBe(invoices.output[0].json.id);

		const canceled = await env.run({
			resource: 'subscription',
			operation: 'cancel',
			subscriptionId: subscription.id,
			reason: 'customer asked',
		});
		expect(canceled.output[0].json.status).toBe('canceled');
		const again = await env.runExpectingError({
			resource: 'subscription',
			operation: 'cancel',
			subscriptionId: subscription.id,
			reason: 'twice',
		});
		expect(again.message).toMatch(/FacilitaPay rejected the data \(item 0\)/);
	});

	test('a declined card is retried with a 3DS challenge; the card is masked in the answer', async () => {
		const person = await createSubject();
		const created = await env.run(cardSubscriptionParameters(person.id, '4000000000000002'));
		await env.control.post('/clock/advance', { days: 1 });
		const challenge = await env.run({
			resource: 'subscription',
			operation: 'submitThreedsChallenge',
			subscriptionId: created.output[0].json.id,
			cardNumber: CARD,
			cardExpirationDate: '09/2031',
			cardBrand: 'visa',
			cardSecurityCode: '123',
			fullname: 'Maria Silva',
		});
		expect(JSON.stringify(challenge.output)).not.toContain(CARD);
		const [sent] = await env.control.received('POST /api/v1/subscriptions/:id/threeds_challenge');
		expect(sent.body.credit_card).toMatchObject({
			card_expiration_date: '09/2031',
			fullname: 'Maria Silva',
		});
	});

	test('automatic PIX refuses the day frequency before sending, and creates a pending subscription otherwise', async () => {
		const person = await createSubject();
		const base = automaticPixSubscriptionParameters(person.id, { value: '19.90', cycles: 6 });
		const error = await env.runExpectingError({ ...base, frequency: 'day' });
		expect(error.message).toMatch(/Frequency/);
		expect(await env.control.received('POST /api/v1/subscriptions')).toHaveLength(0);
		const { output } = await env.run({ ...base, frequency: 'month' });
		expect(output[0].json.status).toBe('pending');
	});
});

describe('Webhooks and notifications against the sandbox', () => {
	/** Notification > Get Many with these options: all of them, unless `paging` says otherwise. */
	const getNotifications = (options, paging = { returnAll: true }) => ({
		resource: 'notification',
		operation: 'getMany',
		...paging,
		options,
	});
	let receiver;
	let received;
	let refuse;
	beforeAll(async () => {
		received = [];
		receiver = http.createServer((req, res) => {
			let body = '';
			req.on('data', (c) => (body += c));
			req.on('end', () => {
				received.push(JSON.parse(body));
				res.statusCode = refuse ? 500 : 200;
				res.end('ok');
			});
		});
		await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => {
		await new Promise((resolve) => receiver.close(resolve));
	});

	test('enable returns the secret the notifications carry; failed ones are listed and marked successful; disable stops them', async () => {
		received.length = 0;
		refuse = false;
		const url = `http://127.0.0.1:${receiver.address().port}/hook`;
		const enabled = await env.run({ resource: 'webhook', operation: 'enable', url });
		const { secret } = enabled.output[0].json;
		expect(secret).toEqual(expect.any(String));

		await env.control.post('/events', { type: 'subject_approved', subject_id: 's-1' });
		await env.control.post('/deliveries/wait');
		expect(received.at(-1).notification).toMatchObject({ type: 'subject_approved', secret });

		refuse = true;
		await env.control.post('/events', { type: 'payment_expired', transaction_id: 't-1' });
		await env.control.post('/clock/advance', { days: 1 });
		const failed = await env.run(getNotifications({ failed: 'onlyFailed' }));
		expect(failed.output).toHaveLength(1);
		expect(failed.output[0].json.notification).toMatchObject({ type: 'payment_expired' });

		const marked = await env.run({
			resource: 'notification',
			operation: 'markAsSuccessful',
			notificationId: failed.output[0].json.id,
		});
		expect(marked.output[0].json.failed_at).toBeNull();
		// The service's records carry the payload with the webhook secret; no output shows it.
		const raw = await fetch(`${env.credentials.baseUrl.replace(/\/+$/, '')}/notifications`, {
			headers: { authorization: `Bearer ${env.credentials.accessToken}` },
		});
		expect(JSON.stringify(await raw.json())).toContain(`"secret":"${secret}"`);
		for (const item of [...failed.output, ...marked.output])
			expect(JSON.stringify(item.json)).not.toContain(`"secret"`);
		expect(marked.output[0].json.notification).toMatchObject({ type: 'payment_expired' });
		const none = await env.run(getNotifications({ failed: 'onlyFailed' }));
		expect(none.output).toHaveLength(0);
		const newest = await env.run(
			getNotifications({ orderBy: 'desc' }, { returnAll: false, limit: 1 }),
		);
		expect(newest.output[0].json.notification.type).toBe('payment_expired');

		const disabled = await env.run({ resource: 'webhook', operation: 'disable' });
		expect(disabled.output[0].json).toEqual(expect.any(Object));
		const count = received.length;
		await env.control.post('/events', { type: 'subject_approved', subject_id: 's-2' });
		await env.control.post('/deliveries/wait');
		expect(received).toHaveLength(count);
	});

	test('a URL that is not http(s) is refused before sending', async () => {
		const error = await env.runExpectingError({
			resource: 'webhook',
			operation: 'enable',
			url: 'ftp://example.com/hook',
		});
		expect(error.message).toMatch(/Invalid URL \(item 0\)|URL/);
		expect(await env.control.received('POST /api/v1/enable_webhooks')).toHaveLength(0);
	});
});

describe('Wires and marketplace accounts against the sandbox', () => {
	test('a wire waiting for correction is corrected with Update Bank Account', async () => {
		const person = await createSubject();
		const pix = await env.run(dynamicPixParameters(person.id, '30.00'));
		await env.control.pay(pix.output[0].json.id);
		await env.control.post('/settlement/run', { wire_error_code: 'AC03' });
		const [wire] = (await env.control.get('/wires')).data;
		const { output } = await env.run({
			resource: 'wire',
			operation: 'updateBankAccount',
			wireId: wire.id,
			...wireBankAccountParameters,
		});
		expect(output[0].json).toMatchObject({ id: wire.id });
		const [sent] = await env.control.received('PUT /api/v1/wires/:id/update_bank_account');
		expect(sent.body.bank_account).toMatchObject({
			account_type: 'conta-corrente',
			owner_document_number: '39053344705',
			branch_country: 'BR',
		});
	});

	test('authorisation, then bank account request, then its status', async () => {
		const person = await createSubject();
		const docs = {
			resource: 'subject',
			operation: 'uploadDocument',
			subjectId: person.id,
			source: 'url',
			fileType: 'application/pdf',
		};
		await env.run({
			...docs,
			labels: ['address-proof'],
			fileUrl: 'https://files.example.com/a.pdf',
		});
		await env.run({ ...docs, labels: ['person-cpf'], fileUrl: 'https://files.example.com/b.pdf' });

		/** A Marketplace Account operation for this person. */
		const forPerson = (operation) => ({
			resource: 'marketplaceAccount',
			operation,
			subjectId: person.id,
			options: {},
		});
		const early = await env.runExpectingError(forPerson('requestBankAccount'));
		expect(early.message).toMatch(/FacilitaPay rejected the data \(item 0\)/);

		const auth = await env.run(forPerson('requestAuthorization'));
		expect(auth.output[0].json.status).toBe('pending');
		const [authRequest] = await env.control.received('POST /api/v1/subject/:id/account_request');
		expect(authRequest.body ?? {}).toEqual({});
		await env.control.post(`/authorizations/${auth.output[0].json.id}/approve`);

		const request = await env.run(forPerson('requestBankAccount'));
		expect(request.output[0].json.status).toBe('processing');
		await env.control.post(`/bank_account_requests/${request.output[0].json.id}/complete`);
		const status = await env.run({
			resource: 'marketplaceAccount',
			operation: 'getBankAccountRequest',
			requestId: request.output[0].json.id,
		});
		expect(status.output[0].json.status).toBe('complete');
		expect(status.output[0].json.bank_account).toEqual(
			expect.objectContaining({ id: expect.any(String) }),
		);
	});
});
