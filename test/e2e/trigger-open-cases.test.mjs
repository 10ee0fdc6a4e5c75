// The FacilitaPay Trigger in a real n8n 2.x, on what the spec leaves open, played by a sandbox of
// its own: a card payment approved while FacilitaPay still shows it pending (version 1: its Verify
// With API attaches the transaction as it is now), wires grouping many
// transactions (40 and 200) and a field the spec does not list.
// The other trigger files: trigger-registration, trigger-events, trigger-duplicates.
import {
	createCheckout,
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
} from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e } from './lib/state.mjs';
import { triggerFigures, triggerItems, useTriggerSandbox } from './lib/trigger.mjs';

const figures = triggerFigures();

describeE2e('FacilitaPay Trigger in a real n8n 2.x: what the spec leaves open', () => {
	const account = useTriggerSandbox({
		id: 'facilitapay-trigger-open-sandbox',
		name: 'FacilitaPay Trigger Open Cases Sandbox',
	});
	let subjectId = '';

	beforeAll(async () => {
		await account.publish({ events: ['*'] });
		const seed = (Date.now() % 100000) + 11000;
		subjectId = (await createPerson(samplePerson(seed, `Open Person ${seed}`), account.state)).id;
	}, CLI_TIMEOUT);

	test(
		'a card payment approved while FacilitaPay still shows it pending starts the workflow (verified by the log, the pending transaction attached); its identification later starts it too',
		async () => {
			await sandboxControl('POST', '/play', { card_identification: 'later' }, account.state);
			const checkout = await createCheckout(subjectId, '80.00', account.state);
			const paid = await sandboxControl(
				'POST',
				`/transactions/${checkout.id}/pay`,
				{ success: true },
				account.state,
			);
			expect(paid.data.status).toBe('pending');
			let executions = await account.next();
			expect(triggerItems(executions.at(-1))).toEqual([
				expect.objectContaining({
					type: 'payment_approved',
					transaction_id: paid.data.id,
					verified: true,
					transaction: expect.objectContaining({ status: 'pending', value: '80.00' }),
				}),
			]);
			await sandboxControl('POST', `/transactions/${paid.data.id}/identify`, {}, account.state);
			executions = await account.next();
			expect(triggerItems(executions.at(-1))).toEqual([
				expect.objectContaining({ type: 'identified', verified: true }),
			]);
			figures.trueEventsSent += 2;
			figures.trueEventsDelivered += 2;
		},
		CLI_TIMEOUT,
	);

	test.each([40, 200])(
		'a wire grouping %i transactions: exchange_created and wire_created each start one verified execution naming all of them, answered within 8 s',
		async (size) => {
			const started = Date.now();
			const grouped = await sandboxControl(
				'POST',
				'/wires/grouped',
				{ subject_id: subjectId, count: size },
				account.state,
			);
			const deliveredWithin = Date.now() - started;
			const ids = grouped.data.transaction_ids;
			const executions = await account.next(2);
			for (const execution of executions.slice(-2)) {
				const [item] = triggerItems(execution);
				expect(item).toMatchObject({ verified: true, transaction_ids: ids });
				expect(item.transactions.map((/** @type {any} */ t) => t.id)).toEqual(ids);
			}
			// One execution each. The reader emits them in the log's order, but n8n may number two
			// executions started moments apart either way (seen on a busy CI machine), so the pair is
			// compared as a set.
			expect(
				executions
					.slice(-2)
					.map((execution) => triggerItems(execution)[0].type)
					.sort(),
			).toEqual(['exchange_created', 'wire_created']);
			// Both notifications delivered one after the other at the first attempt, each within 8 s.
			const records = (
				await sandboxApi('GET', '/notifications?order_by=desc&per_page=2', undefined, account.state)
			).json.data;
			expect(records.map((/** @type {any} */ r) => r.attempts)).toEqual([1, 1]);
			expect(deliveredWithin).toBeLessThan(16_000);
			console.log(
				`wire of ${size} transactions: both notifications answered in ${deliveredWithin} ms in all`,
			);
			figures.trueEventsSent += 2;
			figures.trueEventsDelivered += 2;
		},
		CLI_TIMEOUT,
	);

	test(
		"a field the spec does not list (a failure reason on payment_failed) reaches the workflow as FacilitaPay's record lists it",
		async () => {
			await sandboxControl(
				'POST',
				'/webhooks/delivery',
				{ extra_fields: { payment_failed: { failure_reason: 'insufficient_funds' } } },
				account.state,
			);
			const checkout = await createCheckout(subjectId, '81.00', account.state);
			await sandboxControl(
				'POST',
				`/transactions/${checkout.id}/pay`,
				{ success: false },
				account.state,
			);
			const executions = await account.next();
			expect(triggerItems(executions.at(-1))).toEqual([
				expect.objectContaining({
					type: 'payment_failed',
					verified: true,
					// FacilitaPay's own record carries it: it is FacilitaPay's word, not a delivery's.
					failure_reason: 'insufficient_funds',
				}),
			]);
			expect(triggerItems(executions.at(-1))[0]).not.toHaveProperty('unverifiedFields');
			figures.trueEventsSent += 1;
			figures.trueEventsDelivered += 1;
		},
		CLI_TIMEOUT,
	);
});
