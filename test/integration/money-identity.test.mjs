// The money rule against the local sandbox over real HTTP, through the compiled node: every
// payment carries its identity in meta, and a retry settles it by the record FacilitaPay holds
// under that identity (issue 24). The retried execution gets what n8n carries into it: the failed
// execution's custom data, a new execution ID, mode "retry"; the process memory is emptied where a
// case says n8n restarted. Build first: `npm run build`.
import { createSandbox } from '../../sandbox/server.mjs';
import { loadDist, useSandbox } from './lib/harness.mjs';
import { automaticPixSubscriptionParameters, contactParameters } from './lib/parameters.mjs';
import { payoutParameters } from '../fixtures/transactions.js';

const { resetMoney } = loadDist('nodes/FacilitaPay/money/index.js');

const env = useSandbox(createSandbox);
const POST_TRANSACTIONS = 'POST /api/v1/transactions';
const LIST_TRANSACTIONS = 'GET /api/v1/subject/:id/transactions';

let executions = 0;
const execution = () => `${Date.now()}${++executions}`;

describe('One exact identity per payment, settled by the sandbox’s record', () => {
	let person;
	beforeEach(async () => {
		person = await env.createSubject(contactParameters);
	});

	const payouts = (...values) =>
		values.map((value) =>
			payoutParameters(value, { subjectId: person.id, requestOptions: { concurrency: 1 } }),
		);

	test('a payout whose answer was lost is found by its identity in the retry, days later: nothing is paid twice', async () => {
		await env.control.faultOnce(POST_TRANSACTIONS, 'reset_after', { skip: 1 });
		const customData = {};
		const parameters = payouts('10.00', '20.00', '30.00');
		const error = await env.runExpectingError(parameters, {
			executionId: execution(),
			customData,
		});
		expect(error.message).toMatch(/^Outcome unknown \(item 1\)/);
		const made = (await env.control.received(POST_TRANSACTIONS)).map(
			(request) => request.body.transaction.meta.n8n_facilitapay_ref,
		);
		expect(made).toHaveLength(2);

		resetMoney();
		await env.control.post('/clock/advance', { minutes: 25 * 60 });
		const lookupsBefore = (await env.control.received(LIST_TRANSACTIONS)).length;
		const { output } = await env.run(parameters, {
			executionId: execution(),
			mode: 'retry',
			customData,
		});
		// With the process's memory gone, the retry asked FacilitaPay's list, not a memory.
		expect((await env.control.received(LIST_TRANSACTIONS)).length).toBeGreaterThan(lookupsBefore);
		const sent = await env.control.received(POST_TRANSACTIONS);
		expect(sent.map((request) => request.body.transaction.value)).toEqual([
			'10.00',
			'20.00',
			'30.00',
		]);
		expect(output.map((item) => item.json.alreadyDone ?? false)).toEqual([true, true, false]);
		const listed = await env.run({
			resource: 'subject',
			operation: 'getTransactions',
			subjectId: person.id,
			returnAll: true,
		});
		expect(listed.output).toHaveLength(3);
	});

	test('the same content in another execution is another payment', async () => {
		await env.run(payouts('15.00'), { executionId: execution() });
		await env.run(payouts('15.00'), { executionId: execution() });
		expect(await env.control.received(POST_TRANSACTIONS)).toHaveLength(2);
	});

	test('FacilitaPay dropping meta: the retried item of unknown outcome stays "Outcome unknown", never resent', async () => {
		await env.control.post('/meta', { mode: 'drop' });
		await env.control.faultOnce(POST_TRANSACTIONS, 'reset_after');
		const customData = {};
		await env.runExpectingError(payouts('40.00'), { executionId: execution(), customData });
		resetMoney();
		const error = await env.runExpectingError(payouts('40.00'), {
			executionId: execution(),
			mode: 'retry',
			customData,
		});
		expect(error.message).toMatch(/^Outcome unknown \(item 0\).*does not prove "not sent"/);
		expect(await env.control.received(POST_TRANSACTIONS)).toHaveLength(1);
	});

	test('FacilitaPay refusing meta: the user reads it, and nothing was created', async () => {
		await env.control.post('/meta', { mode: 'refuse' });
		const error = await env.runExpectingError(payouts('50.00'), { executionId: execution() });
		expect(error.description).toMatch(/FacilitaPay refused the request's meta/);
		expect(error.message).toMatch(/meta/);
		expect(await env.control.received(POST_TRANSACTIONS)).toHaveLength(1);
	});

	test('a subscription created with an Idempotency Key is not created again under that key, on another day', async () => {
		const parameters = automaticPixSubscriptionParameters(person.id, {
			idempotencyKey: `plan-${person.id}`,
		});
		const first = await env.run(parameters, { executionId: execution() });
		resetMoney();
		await env.control.post('/clock/advance', { minutes: 48 * 60 });
		const second = await env.run(parameters, { executionId: execution() });
		expect(await env.control.received('POST /api/v1/subscriptions')).toHaveLength(1);
		expect(second.output[0].json).toMatchObject({ alreadyDone: true, id: first.output[0].json.id });
	});
});
