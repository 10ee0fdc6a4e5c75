// Issue 32 against the local sandbox over real HTTP, through the compiled node: a key bound to its
// payment, a retry settling each item in the subject it was sent to, custom data the node did not
// write (two n8n instances: test/engine/operations/money/scope.test.mjs; this harness has one instance ID). Build first: `npm run build`.
import { createSandbox } from '../../sandbox/server.mjs';
import { loadDist, useSandbox } from './lib/harness.mjs';
import { contactParameters } from './lib/parameters.mjs';
import { payoutParameters } from '../fixtures/transactions.js';

const { resetMoney } = loadDist('nodes/FacilitaPay/money/index.js');

const env = useSandbox(createSandbox);
const POST_TRANSACTIONS = 'POST /api/v1/transactions';

let executions = 0;
const execution = () => `${Date.now()}${++executions}`;

describe('Issue 32 against the sandbox', () => {
	let person;
	let other;
	beforeEach(async () => {
		person = await env.createSubject(contactParameters);
		other = await env.createSubject(contactParameters, {
			documentNumber: '52998224725',
			socialName: 'João Souza',
		});
	});

	const payout = (value, extra = {}) =>
		payoutParameters(value, { subjectId: person.id, requestOptions: { concurrency: 1 }, ...extra });

	test('INV-7 reused for 500.00 after a restart: refused naming both payments, FacilitaPay received one', async () => {
		const first = await env.run([payout('100.00', { idempotencyKey: 'INV-7' })], {
			executionId: execution(),
		});
		resetMoney();
		const error = await env.runExpectingError([payout('500.00', { idempotencyKey: 'INV-7' })], {
			executionId: execution(),
		});
		expect(error.message).toContain(`already names another payment: ${first.output[0].json.id}`);
		expect(error.message).toMatch(/value=500/);
		expect(await env.control.received(POST_TRANSACTIONS)).toHaveLength(1);
	});

	test('Subject ID edited, n8n restarted, Retry with currently saved workflow: the done items are found at the first subject', async () => {
		await env.control.faultOnce(POST_TRANSACTIONS, 'reset', { skip: 2 });
		const customData = {};
		await env.runExpectingError([payout('1.00'), payout('2.00'), payout('3.00')], {
			executionId: execution(),
			customData,
		});
		resetMoney();
		// Retried once FacilitaPay's clock shows its settle window passed since the reset try (issue
		// 39: sooner, "not found" does not prove "not sent").
		await env.control.post('/clock/advance', { minutes: 11 });
		const edited = ['1.00', '2.00', '3.00'].map((value) => payout(value, { subjectId: other.id }));
		const { output } = await env.run(edited, {
			executionId: execution(),
			mode: 'retry',
			customData,
		});
		expect(output.map((item) => item.json.alreadyDone ?? false)).toEqual([true, true, false]);
		const subjects = (await env.control.received(POST_TRANSACTIONS)).map(
			(request) => request.body?.transaction?.subject_id,
		);
		// Items 0 and 1 once, at the first subject; item 2 (reset, nothing done) once, to the new one.
		expect(subjects.filter((id) => id === other.id)).toHaveLength(1);
		expect(output[2].json.subject_id).toBe(other.id);
	});

	test("a workflow's own custom data under facilitapay (last month's value): this month's payout is paid", async () => {
		const october = {};
		await env.run([payout('80.00')], { executionId: execution(), customData: october });
		const { output } = await env.run([payout('80.00')], {
			executionId: execution(),
			customData: { facilitapay: october.facilitapay },
		});
		expect(output[0].json.alreadyDone).toBeUndefined();
		expect(await env.control.received(POST_TRANSACTIONS)).toHaveLength(2);
	});
});
