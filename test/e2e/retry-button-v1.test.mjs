// n8n's Retry button (issue 17) in a real n8n 1.123.81, on a server of this file (Node 20): the
// unknown-outcome failure retried both ways, and the Idempotency Key across two executions (the
// cases of lib/retry-cases.mjs; retry-button.test.mjs explains them and runs them on 2.41.1).
import { CLI_TIMEOUT, INSTALL_TIMEOUT, describeE2e } from './lib/state.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { idempotencyKeyAcrossExecutions, retryCase, useRetryInstance } from './lib/retry-cases.mjs';

// The unknown-outcome failure here, not the 429 one: measured on 2026-11-24, the failed execution
// with 12 × 429 (Retry-After: 0) took 59.9 s in 1.123.81 against 0.8 s in 2.41.1: in 1.x the
// node backs off as if no Retry-After had been given.
describeE2e(
	"n8n's Retry button sends no payout twice, in n8n 1.123.81 (a server of this file, Node 20)",
	() => {
		const instance = useRetryInstance({
			label: '1.123.81',
			timeout: INSTALL_TIMEOUT,
			setUp: (state) =>
				ownN8n(state, {
					version: 'v1',
					suffix: 'v1-retry',
					sandbox: { id: 'facilitapay-retry-v1-sandbox', name: 'FacilitaPay Retry Sandbox (1.x)' },
				}),
		});

		test.each([
			['Retry with original workflow', false, ['35.01', '35.02', '35.03', '35.04']],
			['Retry with currently saved workflow', true, ['36.01', '36.02', '36.03', '36.04']],
		])(
			'1.x, %s after an unknown outcome on item 1: items 0 and 1 are not sent again, 2 and 3 are paid once',
			(_name, loadWorkflow, values) =>
				retryCase(instance.n8n, { failure: 'unknown', loadWorkflow, values }),
			CLI_TIMEOUT,
		);

		test(
			'1.x, Idempotency Key: a second ordinary execution with the same keys sends nothing',
			() =>
				idempotencyKeyAcrossExecutions(instance.n8n, {
					values: ['37.01', '37.02', '37.03', '37.04'],
				}),
			CLI_TIMEOUT,
		);
	},
);
