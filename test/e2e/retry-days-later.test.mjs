// Issue 24, "paid twice" days later: a payout batch fails on Friday night (item 2 refused with 429,
// items 0 and 1 paid); over the weekend n8n is restarted (nothing the node kept in the process's
// memory survives) and FacilitaPay's clock moves 49 hours on (a session token signed in on Friday
// has expired); on Sunday the user points To Bank Account at another account, saves, and clicks
// "Retry with currently saved workflow". Nothing paid on Friday is paid again: the identity of each
// payment travels in the failed execution's custom data (kept in n8n's database) and FacilitaPay's
// own record of it (meta), neither of which forgets. On an n8n 2.41.1 of this file, restarted in the
// middle of the case (the shared server is not restarted: other files use it).
import { sandboxControl } from './lib/sandbox.mjs';
import { CLI_TIMEOUT, INSTALL_TIMEOUT, describeE2e } from './lib/state.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { editedRetryCase, useRetryInstance } from './lib/retry-cases.mjs';

describeE2e("n8n's Retry button two days later, after n8n was restarted (n8n 2.41.1)", () => {
	/** @type {Awaited<ReturnType<typeof ownN8n>>} */
	let own;
	const instance = useRetryInstance({
		label: '2.41.1 (restarted)',
		timeout: INSTALL_TIMEOUT,
		setUp: async (state) => {
			own = await ownN8n(state, {
				version: 'v2',
				suffix: 'days-later',
				sandbox: {
					id: 'facilitapay-retry-days-sandbox',
					name: 'FacilitaPay Retry Days Later Sandbox',
				},
			});
			return own;
		},
	});

	test(
		'a batch failed on Friday, n8n restarted, Retry with currently saved workflow on Sunday after an edit: nothing paid on Friday is paid again',
		() =>
			editedRetryCase(instance.n8n, {
				values: ['37.01', '37.02', '37.03', '37.04'],
				meanwhile: async () => {
					const stoppedAt = Date.now();
					// The same database: the owner and the API key are still there.
					await own.restart();
					await sandboxControl('POST', '/clock/advance', { hours: 49 }, instance.n8n.state);
					return `n8n restarted (${((Date.now() - stoppedAt) / 1000).toFixed(1)} s) and FacilitaPay's clock moved 49 h on`;
				},
			}),
		CLI_TIMEOUT,
	);
});
