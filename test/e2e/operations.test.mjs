// Every operation of the FacilitaPay action node in a real n8n 2.x (39/39), against a sandbox of
// its own (so the clock can move days and webhooks can be switched without disturbing other
// files). The workflows and their checks are in lib/operation-phases.mjs, shared with the n8n 1.x
// run in v1-smoke.test.mjs: four workflows, so four `n8n execute` calls in all.
import {
	CLI_TIMEOUT,
	allOperations,
	chainWorkflow,
	describeE2e,
	nodeOutput,
	recordCoverage,
	requirePieces,
	runWorkflow,
	sandboxMark,
	sandboxRequests,
	sharedState,
	startPrivateSandbox,
} from './lib/n8n-e2e.mjs';
import {
	publicDocsOperations,
	servicePart2Operations,
	subjectsAndTransactions,
	subscriptionsAndInvoices,
	wiresMarketplaceWebhooks,
} from './lib/operation-phases.mjs';

describeE2e('Every FacilitaPay operation in a real n8n 2.x', () => {
	/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
	let sb;
	/** @type {Record<string, any>} */
	const ctx = {};
	const covered = new Set();

	beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'node']);
		sb = await startPrivateSandbox({
			id: 'facilitapay-ops-sandbox',
			name: 'FacilitaPay Operations Sandbox',
		});
	}, CLI_TIMEOUT);

	afterAll(async () => {
		await sb?.close();
		if (covered.size > 0) {
			recordCoverage([...covered]);
			console.log(
				`real-n8n operations covered by operations.test.mjs (n8n ${sharedState().n8nVersion ?? '2.x'}): ${covered.size}/${allOperations().length}`,
			);
		}
	});

	/** Runs a chain of steps against the private sandbox; returns the run and the requests it caused. */
	async function runPhase(steps) {
		const mark = await sandboxMark(sb.state);
		const run = await runWorkflow(chainWorkflow({ steps, credentials: sb.credentials }), {
			state: sb.state,
		});
		const log = await sandboxRequests({ after: mark }, sb.state);
		return { run, log, out: (/** @type {string} */ name) => nodeOutput(run.runData, name) };
	}

	test(
		'Subjects, documents and transactions: create, update, get, upload (binary and URL), dynamic PIX, get, refund, refund status, boleto + PDF, cancel (void record), payout, checkout, transactions, values, get many',
		() => subjectsAndTransactions({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'From the public docs: company, customer bank account, payout to it, balance before and after, local pay-in',
		() => publicDocsOperations({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'From FacilitaPay’s public clients: a card charged once (approved and declined) and previewed masked, PSE with a listed bank and By ID without the list, a dynamic CLABE, Metadata beside the node’s key, NIT and RFC companies',
		() => servicePart2Operations({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'Wire correction, marketplace account, webhooks and notifications: update bank account, request authorisation + bank account, get the request, enable, list failed, mark successful, disable',
		() => wiresMarketplaceWebhooks({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'Subscriptions and invoices: card and automatic PIX creation, a declined card answered with a 3DS challenge, get, get many, invoices, one invoice, cancel',
		() => subscriptionsAndInvoices({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);
});
