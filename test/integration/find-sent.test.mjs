// findSent (the lookup before a money-moving request is sent again) against the local sandbox over
// real HTTP: the records are made by the compiled node, the request looked up is the one the
// sandbox received from it, and the reads go through the compiled transport (apiRequest), as the
// node wires it. Build first: `npm run build`.
import { createSandbox } from '../../sandbox/server.mjs';
import { ACCOUNTS, createContext, loadDist, useSandbox } from './lib/harness.mjs';
import {
	automaticPixSubscriptionParameters,
	boletoParameters,
	cardSubscriptionParameters,
	checkoutParameters,
	contactParameters,
	dynamicPixParameters,
	transactionParameters,
} from './lib/parameters.mjs';
import { payoutParameters } from '../fixtures/transactions.js';

const { findSent } = loadDist('nodes/FacilitaPay/actions/common/findSent/index.js');
const { apiRequest } = loadDist('nodes/FacilitaPay/transport/index.js');

const env = useSandbox(createSandbox);

const run = async (parameters) => (await env.run(parameters)).output;

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
		person = await env.createSubject(contactParameters);
	});

	test('payout: the subject’s transactions with the same value, accounts and currencies since the first attempt', async () => {
		const result = await findsEachOnceSinceFirstAttempt({
			wrapper: 'transaction',
			otherValue: '10.01',
			make: async () =>
				await create(
					payoutParameters('10.00', { subjectId: person.id }),
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
					dynamicPixParameters(person.id, '25.00', {
						toBankAccountId: ACCOUNTS.usdDestination,
						exchangeCurrency: 'USD',
						dynamicPixExpiresAt: expiry,
					}),
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
				await create(boletoParameters(person.id, '99.90', expireAt), 'POST /api/v1/transactions'),
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
			await create(checkoutParameters(person.id), 'POST /api/v1/transactions/checkout');
		const before = await make();
		await env.control.pay(before.record.checkout_id, { success: false });
		await advanceMinutes(10);
		const since = await sandboxNow();
		const first = await make();

		// Nobody has tried to pay it yet: it is listed nowhere, so it may exist.
		expect(await lookup(first.request, since)).toEqual({
			cannotTell: expect.stringContaining('checkout page nobody has tried to pay yet'),
		});

		await env.control.pay(first.record.checkout_id, { success: false });
		await env.control.pay(first.record.checkout_id);
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
			await create(cardSubscriptionParameters(person.id), 'POST /api/v1/subscriptions');
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
			automaticPixSubscriptionParameters(person.id),
			'POST /api/v1/subscriptions',
		);
		expect(idOf(await lookup(automaticPix.request, since))).toBe(automaticPix.record.id);
	});

	test('cancel, refund, subscription cancel and document upload: the record’s state tells', async () => {
		const pix = async (value) =>
			await create(
				dynamicPixParameters(person.id, value, { dynamicPixExpiresAt: await later(1) }),
				'POST /api/v1/transactions',
			);
		const since = await sandboxNow();

		const toCancel = await pix('5.00');
		const cancelRequest = {
			method: 'GET',
			path: `/transactions/${toCancel.record.id}/refund`,
			retry: 'sendOnce',
		};
		expect(await lookup(cancelRequest, since)).toEqual({ notFound: true });
		await run(transactionParameters('cancel', toCancel.record.id));
		expect((await lookup(cancelRequest, since)).found).toMatchObject({ status: 'canceled' });

		const toRefund = await pix('6.00');
		const refundRequest = {
			method: 'GET',
			path: `/transactions/${toRefund.record.id}/refund_received_transaction`,
			retry: 'sendOnce',
		};
		await env.control.pay(toRefund.record.id, {});
		expect(Object.keys(await lookup(refundRequest, since))).toEqual(['cannotTell']);
		await run(transactionParameters('refund', toRefund.record.id));
		expect((await lookup(refundRequest, since)).found).toMatchObject({
			id: toRefund.record.id,
			status: 'canceled',
		});

		const subscription = await create(
			automaticPixSubscriptionParameters(person.id, { value: '19.90', cycles: 6 }),
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
