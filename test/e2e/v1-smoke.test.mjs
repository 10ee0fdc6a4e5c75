// The last n8n 1.x (1.123.81, Node 20, legacy expression engine): the same packed package and the
// same three workflows as operations.test.mjs (every action-node operation), run with the 1.x CLI
// in its own user folder (a 1.x and a 2.x database must not be shared), against a sandbox of its
// own.
import fs from 'node:fs';
import {
	ensureN8n,
	executeWorkflow,
	importIntoN8n,
	installPackageInto,
	listNodeTypes,
	nodeOutput,
	removeUserFolder,
} from '../../scripts/n8n-runtime.mjs';
import {
	CLI_TIMEOUT,
	INSTALL_TIMEOUT,
	NODE_TYPES,
	allOperations,
	chainWorkflow,
	describeE2e,
	recordCoverage,
	requirePieces,
	sandboxMark,
	sandboxRequests,
	sharedState,
	startPrivateSandbox,
} from './lib/n8n-e2e.mjs';
import {
	subjectsAndTransactions,
	subscriptionsAndInvoices,
	wiresMarketplaceWebhooks,
} from './lib/operation-phases.mjs';

describeE2e('FacilitaPay in n8n 1.123.81', () => {
	/** @type {{version: 'v1', userFolder: string}} */
	let v1;
	let n8nVersion = '1.x';
	/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
	let sb;
	/** @type {Record<string, any>} */
	const ctx = {};
	const covered = new Set();

	beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node']);
		n8nVersion = (await ensureN8n('v1')).n8nVersion;
		const userFolder = `${state.userFolder}-v1`;
		removeUserFolder(userFolder);
		fs.mkdirSync(userFolder, { recursive: true });
		installPackageInto(userFolder, state.tarball);
		v1 = { version: 'v1', userFolder };
		sb = await startPrivateSandbox(
			{ id: 'facilitapay-v1-sandbox', name: 'FacilitaPay Sandbox (1.x)', cli: v1 },
			state,
		);
	}, INSTALL_TIMEOUT);

	afterAll(async () => {
		await sb?.close();
		if (covered.size > 0) {
			recordCoverage([...covered], { n8n: n8nVersion });
			console.log(
				`real-n8n operations covered by v1-smoke.test.mjs (n8n ${n8nVersion}): ${covered.size}/${allOperations().length}`,
			);
		}
	});

	/** Imports and runs a chain of steps with the 1.x CLI; returns the run and the requests it caused. */
	async function runPhase(steps) {
		const workflow = chainWorkflow({ steps, credentials: sb.credentials });
		await importIntoN8n('workflow', [workflow], v1);
		const mark = await sandboxMark(sb.state);
		const result = await executeWorkflow(workflow.id, v1);
		const log = await sandboxRequests({ after: mark }, sb.state);
		const run = {
			exitCode: result.code,
			runData: result.runData,
			error: result.runData?.resultData?.error ?? null,
			stdout: result.stdout,
		};
		return { run, log, out: (/** @type {string} */ name) => nodeOutput(result.runData, name) };
	}

	test(
		'n8n 1.x loads the package',
		async () => {
			expect(await listNodeTypes(v1)).toContain(NODE_TYPES.action);
		},
		CLI_TIMEOUT,
	);

	test(
		'1.x: subjects, documents and transactions (create, update, get, upload, PIX, get, refund, boleto + PDF, cancel, payout, checkout, transactions, values, get many)',
		() => subjectsAndTransactions({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'1.x: wire correction, marketplace account, webhooks and notifications',
		() => wiresMarketplaceWebhooks({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);

	test(
		'1.x: subscriptions and invoices',
		() => subscriptionsAndInvoices({ sb, runPhase, ctx, covered }),
		CLI_TIMEOUT,
	);
});
