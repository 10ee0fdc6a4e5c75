// n8n's Retry button (issue 17) in a real n8n 2.41.1 (the shared server): a failed execution
// retried from the executions list ("Retry with original workflow" = loadWorkflow false, "Retry with
// currently saved workflow" = loadWorkflow true; POST /rest/executions/:id/retry as the owner) is a
// NEW execution, mode "retry" (what the node's this.getMode() returns there), that runs only the
// failed node again, with its original items. No payout that reached FacilitaPay in the failed
// execution may be sent again there:
// - definite failure: 4 payouts, Max Parallel Requests 1, Retry On Fail off; items 0 and 1 are paid,
//   item 2 is refused with 429 ("did not process it": the node tries it 12 times, then fails) and the
//   run stops, item 3 is never sent. The fault is removed and the execution retried: items 0 and 1
//   come out `alreadyDone: true` without a request, items 2 and 3 are paid once.
// - unknown outcome: item 1 created by the sandbox, which then drops the connection (`reset_after`);
//   the retry finds it at FacilitaPay and does not send it again.
// - both: a FacilitaPay Trigger in the same workflow keeps its registration (workflow static data),
//   and the retry writes no static data.
// - the Idempotency Key (parameter `idempotencyKey`, = the order id): the same four orders in a
//   second, ordinary execution are not sent again.
// The executions are started by a Webhook node of an active workflow (mode "webhook", saved with
// their data when they fail: saveDataErrorExecution "all"), so the running server can retry them.
// The cases live in lib/retry-cases.mjs; retry-button-v1.test.mjs runs them on n8n 1.123.81.
import { setupOwner } from '../../scripts/n8n-runtime.mjs';
import { startPrivateSandbox } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e } from './lib/state.mjs';
import {
	editedRetryCase,
	identicalExecutionsCase,
	idempotencyKeyAcrossExecutions,
	lateCommitRetryCase,
	retryCase,
	useRetryInstance,
} from './lib/retry-cases.mjs';

describeE2e("n8n's Retry button sends no payout twice, in n8n 2.41.1 (the shared server)", () => {
	const instance = useRetryInstance({
		label: '2.41.1',
		timeout: CLI_TIMEOUT,
		setUp: async (state) => {
			const sb = await startPrivateSandbox({
				id: 'facilitapay-retry-sandbox',
				name: 'FacilitaPay Retry Sandbox',
			});
			const { client } = await setupOwner(state.n8nUrl);
			return { sb, server: { url: state.n8nUrl, apiKey: state.apiKey, client } };
		},
	});

	test.each([
		['Retry with original workflow', false, ['31.01', '31.02', '31.03', '31.04']],
		['Retry with currently saved workflow', true, ['32.01', '32.02', '32.03', '32.04']],
	])(
		'%s after item 2 was refused (429): items 0 and 1, paid before the failure, are not sent again and come out alreadyDone; items 2 and 3 are paid once; the trigger keeps its registration',
		(_name, loadWorkflow, values) =>
			retryCase(instance.n8n, { failure: 'definite', loadWorkflow, values }),
		CLI_TIMEOUT,
	);

	test.each([
		['Retry with original workflow', false, ['33.01', '33.02', '33.03', '33.04']],
		['Retry with currently saved workflow', true, ['33.11', '33.12', '33.13', '33.14']],
	])(
		'%s after an unknown outcome on item 1 (created, then the connection dropped): it is found at FacilitaPay and not sent again',
		(_name, loadWorkflow, values) =>
			retryCase(instance.n8n, { failure: 'unknown', loadWorkflow, values }),
		CLI_TIMEOUT,
	);

	test(
		"Retry right after a 504 whose payout FacilitaPay writes 8 s later: not sent (Outcome unknown); once it is written and FacilitaPay's clock moved 11 minutes, a Retry finds it and pays the rest, each payout once (issue 39)",
		() => lateCommitRetryCase(instance.n8n, { values: ['36.01', '36.02', '36.03', '36.04'] }),
		CLI_TIMEOUT,
	);

	test(
		'Idempotency Key: a second ordinary execution with the same keys sends nothing and outputs alreadyDone for every item',
		() =>
			idempotencyKeyAcrossExecutions(instance.n8n, {
				values: ['34.01', '34.02', '34.03', '34.04'],
			}),
		CLI_TIMEOUT,
	);

	test(
		'Retry with currently saved workflow after To Bank Account was edited: items paid before the failure are not paid again (issue 24)',
		() => editedRetryCase(instance.n8n, { values: ['35.01', '35.02', '35.03', '35.04'] }),
		CLI_TIMEOUT,
	);

	test(
		'another ordinary execution with identical payouts pays them again: content is not identity (issue 24)',
		() => identicalExecutionsCase(instance.n8n, { values: ['36.01', '36.02'] }),
		CLI_TIMEOUT,
	);
});
