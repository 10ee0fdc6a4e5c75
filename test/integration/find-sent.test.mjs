// findSent (the lookup before a money-moving request is sent again) against the local sandbox over
// real HTTP: the records are made by the compiled node, the request looked up is the one the
// sandbox received from it, and the reads go through the compiled transport (apiRequest), as the
// node wires it. Build first: `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import { createSandbox } from '../../sandbox/server.mjs';
import { ACCOUNTS, ROOT, createContext, runAction, useSandbox } from './lib/harness.mjs';

const require = createRequire(import.meta.url);

function loadDist(relative) {
	const file = path.join(ROOT, 'dist', relative);
	if (!fs.existsSync(file)) {
		throw new Error(`${relative} is not built. Run "npm run build" before the integration tests.`);
	}
	return require(file);
}

const { findSent } = loadDist('nodes/FacilitaPay/actions/common/findSent/index.js');
const { apiRequest } = loadDist('nodes/FacilitaPay/transport/index.js');

const env = useSandbox(createSandbox);

const fullAddress = {
	email: 'maria@example.com',
	phoneNumber: '11987654321',
	addressStreet: 'Avenida Paulista',
	addressNumber: '1000',
	addressNeighborhood: 'Bela Vista',
	addressPostalCode: '01310100',
	addressCity: 'São Paulo',
	addressState: 'SP',
	addressCountry: 'BR',
};

const run = async (parameters) =>
	(await runAction({ credentials: env.credentials, parameters })).output;

async function createSubject() {
	const [person] = await run({
		resource: 'subject',
		operation: 'create',
		documentType: 'cpf',
		documentNumber: '39053344705',
		socialName: 'Maria da Silva',
		fiscalCountry: 'BR',
		additionalFields: fullAddress,
	});
	return person.json;
}

/** The sandbox's clock (virtual: it moves only when told). */
async function sandboxNow() {
	const { data } = await env.control.get('/clock');
	return Date.parse(data.now);
}

async function advanceMinutes(minutes) {
	await env.control.post('/clock/advance', { minutes });
}

/**
 * Runs the node once and returns its record and the money-moving request as the sandbox received
 * it, shaped as the node's ApiRequest.
 */
async function create(parameters, route) {
	const [item] = await run(parameters);
	const received = await env.control.received(route);
	const last = received[received.length - 1];
	const request = {
		method: last.method,
		path: last.url.replace(/^\/api\/v1/, '').split('?')[0],
		body: last.body ?? undefined,
		retry: 'sendOnce',
	};
	return { record: item.json, request };
}

/** The same request with other fields in its body (`key` = the wrapper object, if any). */
function changed(request, fields, key) {
	const body = structuredClone(request.body);
	Object.assign(key ? body[key] : body, fields);
	return { ...request, body };
}

/** findSent as the node calls it: reads through the transport, bound to an execution context. */
async function lookup(request, sinceMs, taken = new Set()) {
	const { ctx } = createContext({ parameters: {}, credentials: env.credentials });
	return await findSent.call(
		ctx,
		request,
		sinceMs,
		taken,
		async (read) => await apiRequest.call(ctx, read),
	);
}

const idOf = (result) => ('found' in result ? result.found.id : Object.keys(result)[0]);

/** A date-time an hour or more ahead of both the real and the sandbox clock. */
const later = async (hours) =>
	new Date(Math.max(Date.now(), await sandboxNow()) + hours * 3600_000)
		.toISOString()
		.replace(/\.\d{3}Z$/, 'Z');

/**
 * The three checks every creation shares: a record made before `since` is not it, each of two
 * records with the same fields is claimed once (the older first), and another value is not it.
 */
async function findsEachOnceSinceFirstAttempt({ make, wrapper, otherValue, none = 'notFound' }) {
	const before = await make();
	await advanceMinutes(10);
	const since = await sandboxNow();
	const first = await make();
	await advanceMinutes(1);
	const second = await make();

	const taken = new Set();
	const claimed = [
		idOf(await lookup(first.request, since, taken)),
		idOf(await lookup(first.request, since, taken)),
		idOf(await lookup(first.request, since, taken)),
	];
	const other = await lookup(changed(first.request, { value: otherValue }, wrapper), since);
	const fromBefore = await lookup(before.request, since - 10 * 60_000 - 1000);
	return { before, first, second, claimed, taken, other, fromBefore, none };
}

describe('findSent against the sandbox', () => {
	let person;
	beforeEach(async () => {
		person = await createSubject();
	});

	test('payout: the subject’s transactions with the same value, accounts and currencies since the first attempt', async () => {
		const result = await findsEachOnceSinceFirstAttempt({
			wrapper: 'transaction',
			otherValue: '10.01',
			make: async () =>
				await create(
					{
						resource: 'transaction',
						operation: 'createPayout',
						subjectId: person.id,
						fromBankAccountId: ACCOUNTS.usdCashOut,
						toBankAccountId: ACCOUNTS.brlCustomer,
						currency: 'USD',
						exchangeCurrency: 'BRL',
						value: '10.00',
					},
					'POST /api/v1/transactions',
				),
		});
		expect(result.claimed).toEqual([result.first.record.id, result.second.record.id, 'notFound']);
		expect(result.taken).toEqual(new Set([result.first.record.id, result.second.record.id]));
		expect(result.other).toEqual({ notFound: true });
		// With a window that starts before it, the older payout is the one found first.
		expect(idOf(result.fromBefore)).toBe(result.before.record.id);
		// The value written "10.0" is the same money.
		const since = Date.parse(result.first.record.inserted_at);
		const written = changed(result.first.request, { value: '10.0' }, 'transaction');
		expect(idOf(await lookup(written, since))).toBe(result.first.record.id);
	});

	test('dynamic PIX: found although a new execution computes another expiry', async () => {
		const expiry = await later(2);
		const result = await findsEachOnceSinceFirstAttempt({
			wrapper: 'transaction',
			otherValue: '25.50',
			make: async () =>
				await create(
					{
						resource: 'transaction',
						operation: 'createDynamicPix',
						subjectId: person.id,
						fromBankAccountId: ACCOUNTS.brlPixExclusive,
						toBankAccountId: ACCOUNTS.usdDestination,
						exchangeCurrency: 'USD',
						value: '25.00',
						dynamicPixExpiresAt: expiry,
					},
					'POST /api/v1/transactions',
				),
		});
		expect(result.first.record.dynamic_pix_code).toEqual(expect.any(String));
		expect(result.claimed).toEqual([result.first.record.id, result.second.record.id, 'notFound']);
		expect(result.other).toEqual({ notFound: true });
		expect(idOf(result.fromBefore)).toBe(result.before.record.id);
		const newExpiry = changed(
			result.first.request,
			{ dynamic_pix_expires_at: await later(3) },
			'transaction',
		);
		const since = Date.parse(result.first.record.inserted_at);
		expect(idOf(await lookup(newExpiry, since))).toBe(result.first.record.id);
	});

	test('boleto: found although a new execution computes another due date', async () => {
		const expireAt = (await later(72)).slice(0, 10);
		const result = await findsEachOnceSinceFirstAttempt({
			wrapper: 'transaction',
			otherValue: '99.00',
			make: async () =>
				await create(
					{
						resource: 'transaction',
						operation: 'createBoleto',
						subjectId: person.id,
						toBankAccountId: ACCOUNTS.brlCustomer,
						currency: 'BRL',
						exchangeCurrency: 'BRL',
						value: '99.90',
						expireAt,
					},
					'POST /api/v1/transactions',
				),
		});
		expect(result.first.record.bar_code).toMatch(/^\d{44}$/);
		expect(result.claimed).toEqual([result.first.record.id, result.second.record.id, 'notFound']);
		expect(result.other).toEqual({ notFound: true });
		expect(idOf(result.fromBefore)).toBe(result.before.record.id);
		const newDueDate = changed(
			result.first.request,
			{ from_boleto: { expire_at: (await later(96)).slice(0, 10) } },
			'transaction',
		);
		const since = Date.parse(result.first.record.inserted_at);
		expect(idOf(await lookup(newDueDate, since))).toBe(result.first.record.id);
	});

	test('card checkout: found through a card attempt on it; before any attempt it cannot tell', async () => {
		const make = async () =>
			await create(
				{
					resource: 'transaction',
					operation: 'createCheckout',
					subjectId: person.id,
					toBankAccountId: ACCOUNTS.usdDestination,
					currency: 'BRL',
					exchangeCurrency: 'USD',
					value: '80.00',
				},
				'POST /api/v1/transactions/checkout',
			);
		const before = await make();
		await env.control.post(`/transactions/${before.record.checkout_id}/pay`, { success: false });
		await advanceMinutes(10);
		const since = await sandboxNow();
		const first = await make();

		// Nobody has tried to pay it yet: it is listed nowhere, so it may exist.
		expect(await lookup(first.request, since)).toEqual({
			cannotTell: expect.stringContaining('checkout page nobody has tried to pay yet'),
		});

		await env.control.post(`/transactions/${first.record.checkout_id}/pay`, { success: false });
		await env.control.post(`/transactions/${first.record.checkout_id}/pay`, { success: true });
		const taken = new Set();
		const found = await lookup(first.request, since, taken);
		expect(found.found).toMatchObject({ checkout_id: first.record.checkout_id, value: '80.00' });
		expect(taken.has(first.record.checkout_id)).toBe(true);
		// Its second attempt is the same checkout: not claimed again.
		expect(Object.keys(await lookup(first.request, since, taken))).toEqual(['cannotTell']);
		// Another value, or only the checkout from before the first attempt: not it.
		expect(Object.keys(await lookup(changed(first.request, { value: '80.01' }), since))).toEqual([
			'cannotTell',
		]);
		const older = await lookup(before.request, since, new Set([first.record.checkout_id]));
		expect(Object.keys(older)).toEqual(['cannotTell']);
		expect((await lookup(before.request, since - 11 * 60_000)).found.checkout_id).toBe(
			before.record.checkout_id,
		);
	});

	test('subscription: the partner’s subscriptions with the same subject, value, schedule, account and card', async () => {
		const make = async () =>
			await create(
				{
					resource: 'subscription',
					operation: 'create',
					paymentMethod: 'card',
					subjectId: person.id,
					value: '49.90',
					frequency: 'month',
					cycles: 3,
					toBankAccountId: ACCOUNTS.usdDestination,
					cardNumber: '4111111111111111',
					cardExpirationDate: '08/2030',
					cardBrand: 'visa',
					cardSecurityCode: '737',
					fullname: 'Maria Silva',
					cardType: 'credit',
					dfReferenceId: 'df-1',
					mcc: '8999',
					httpAcceptBrowserValue: 'text/html',
					httpBrowserLanguage: 'pt-BR',
					httpBrowserJavaEnabled: false,
					httpBrowserJavaScriptEnabled: true,
					httpBrowserColorDepth: '24',
					httpBrowserScreenHeight: '1080',
					httpBrowserScreenWidth: '1920',
					httpBrowserTimeDifference: '180',
					userAgentBrowserValue: 'Mozilla/5.0',
					ipAddress: '203.0.113.7',
					challengeWindowSize: 'fullPage',
					additionalFields: {},
				},
				'POST /api/v1/subscriptions',
			);
		const result = await findsEachOnceSinceFirstAttempt({
			wrapper: 'subscription',
			otherValue: '59.90',
			make,
		});
		expect(result.claimed).toEqual([result.first.record.id, result.second.record.id, 'notFound']);
		expect(result.other).toEqual({ notFound: true });
		expect(idOf(result.fromBefore)).toBe(result.before.record.id);
		const since = Date.parse(result.first.record.inserted_at);
		const otherCard = structuredClone(result.first.request);
		otherCard.body.subscription.from_card.card_number = '5555555555554444';
		expect(await lookup(otherCard, since)).toEqual({ notFound: true });

		const automaticPix = await create(
			{
				resource: 'subscription',
				operation: 'create',
				paymentMethod: 'automaticPix',
				subjectId: person.id,
				value: '49.90',
				frequency: 'month',
				cycles: 3,
				toBankAccountId: ACCOUNTS.usdDestination,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				additionalFields: {},
			},
			'POST /api/v1/subscriptions',
		);
		expect(idOf(await lookup(automaticPix.request, since))).toBe(automaticPix.record.id);
	});

	test('cancel, refund, subscription cancel and document upload: the record’s state tells', async () => {
		const pix = async (value) =>
			await create(
				{
					resource: 'transaction',
					operation: 'createDynamicPix',
					subjectId: person.id,
					fromBankAccountId: ACCOUNTS.brlPixExclusive,
					toBankAccountId: ACCOUNTS.brlCustomer,
					exchangeCurrency: 'BRL',
					value,
					dynamicPixExpiresAt: await later(1),
				},
				'POST /api/v1/transactions',
			);
		const since = await sandboxNow();
		const transactionAction = (operation, id) => ({
			resource: 'transaction',
			operation,
			transactionId: id,
		});

		const toCancel = await pix('5.00');
		const cancelRequest = {
			method: 'GET',
			path: `/transactions/${toCancel.record.id}/refund`,
			retry: 'sendOnce',
		};
		expect(await lookup(cancelRequest, since)).toEqual({ notFound: true });
		await run(transactionAction('cancel', toCancel.record.id));
		expect((await lookup(cancelRequest, since)).found).toMatchObject({ status: 'canceled' });

		const toRefund = await pix('6.00');
		const refundRequest = {
			method: 'GET',
			path: `/transactions/${toRefund.record.id}/refund_received_transaction`,
			retry: 'sendOnce',
		};
		await env.control.post(`/transactions/${toRefund.record.id}/pay`, {});
		expect(Object.keys(await lookup(refundRequest, since))).toEqual(['cannotTell']);
		await run(transactionAction('refund', toRefund.record.id));
		expect((await lookup(refundRequest, since)).found).toMatchObject({
			id: toRefund.record.id,
			status: 'canceled',
		});

		const subscription = await create(
			{
				resource: 'subscription',
				operation: 'create',
				paymentMethod: 'automaticPix',
				subjectId: person.id,
				value: '19.90',
				frequency: 'month',
				cycles: 6,
				toBankAccountId: ACCOUNTS.usdDestination,
				fromBankAccountId: ACCOUNTS.brlPixExclusive,
				additionalFields: {},
			},
			'POST /api/v1/subscriptions',
		);
		await advanceMinutes(0);
		await env.control.post(`/subscriptions/${subscription.record.id}/authorize`);
		const cancelSubscription = {
			method: 'PUT',
			path: `/subscriptions/${subscription.record.id}/cancel`,
			body: { reason: 'Customer asked' },
			retry: 'sendOnce',
		};
		expect(await lookup(cancelSubscription, since)).toEqual({ notFound: true });
		await run({
			resource: 'subscription',
			operation: 'cancel',
			subscriptionId: subscription.record.id,
			reason: 'Customer asked',
		});
		expect((await lookup(cancelSubscription, since)).found).toMatchObject({
			id: subscription.record.id,
			status: 'canceled',
		});

		const upload = await create(
			{
				resource: 'subject',
				operation: 'uploadDocument',
				subjectId: person.id,
				source: 'url',
				fileType: 'application/pdf',
				labels: ['address-proof'],
				fileUrl: 'https://files.example.com/proof.pdf',
			},
			`POST /api/v1/subject/:id/documents`,
		);
		expect((await lookup(upload.request, since)).found).toMatchObject({
			file_url: 'https://files.example.com/proof.pdf',
		});
		const otherFile = changed(
			upload.request,
			{ file_url: 'https://files.example.com/other.pdf' },
			'document',
		);
		expect(await lookup(otherFile, since)).toEqual({ notFound: true });
	});
});
