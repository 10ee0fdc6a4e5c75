// Smoke test on the last n8n 1.x (1.123.81, Node 20, legacy expression engine): the same packed
// package and the same action workflow as on 2.x, run with the 1.x CLI in its own user folder
// (a 1.x and a 2.x database must not be shared). Uses the sandbox started by global-setup.mjs.
import fs from 'node:fs';
import path from 'node:path';
import {
	ensureN8n,
	executeWorkflow,
	importIntoN8n,
	installPackageInto,
	listNodeTypes,
	nodeOutput,
	removeUserFolder,
	sandboxCredentials,
} from '../../scripts/n8n-runtime.mjs';
import {
	CLI_TIMEOUT,
	INSTALL_TIMEOUT,
	NODE_TYPES,
	describeE2e,
	requirePieces,
	sandboxApi,
	sandboxMark,
	sandboxRequests,
	sharedState,
	validCpf,
	workflowWithNode,
} from './lib/n8n-e2e.mjs';

describeE2e('FacilitaPay in n8n 1.123.81 (smoke)', () => {
	/** @type {{version: 'v1', userFolder: string}} */
	let v1;

	beforeAll(async () => {
		const state = sharedState();
		await ensureN8n('v1');
		const userFolder = path.join(path.dirname(state.userFolder), `${path.basename(state.userFolder)}-v1`);
		removeUserFolder(userFolder);
		fs.mkdirSync(userFolder, { recursive: true });
		installPackageInto(userFolder, state.tarball);
		v1 = { version: 'v1', userFolder };
		if (state.sandboxUrl) {
			await importIntoN8n('credentials', [sandboxCredentials({ baseUrl: `${state.sandboxUrl}/api/v1`, token: state.sandboxToken })], v1);
		}
	}, INSTALL_TIMEOUT);

	test(
		'n8n 1.x loads the package',
		async () => {
			expect(await listNodeTypes(v1)).toContain(NODE_TYPES.action);
		},
		CLI_TIMEOUT,
	);

	test(
		'Subject → Get Many with Return All runs on n8n 1.x and reaches the sandbox',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node']);
			const person = {
				document_type: 'cpf',
				document_number: validCpf(Date.now() % 100000 + 500),
				social_name: 'E2E Person on n8n 1.x',
				fiscal_country: 'Brazil',
			};
			expect((await sandboxApi('POST', '/subject/people', { person }, state)).status).toBeLessThan(300);
			const mark = await sandboxMark(state);
			const workflow = workflowWithNode({
				parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
				credentials: state.credentials,
			});
			await importIntoN8n('workflow', [workflow], v1);

			const run = await executeWorkflow(workflow.id, v1);

			expect(run.code).toBe(0);
			const items = nodeOutput(run.runData, 'FacilitaPay');
			expect(Array.isArray(items)).toBe(true);
			expect(/** @type {any[]} */ (items).map((item) => item.document_number)).toContain(person.document_number);
			const received = await sandboxRequests({ after: mark, method: 'GET', pathPrefix: '/subject/people' }, state);
			expect(received.length).toBeGreaterThanOrEqual(1);
		},
		CLI_TIMEOUT,
	);
});
