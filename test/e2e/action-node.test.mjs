// Real n8n 2.x, our packed package installed as a community package, the sandbox in-process:
// the FacilitaPay action node as a user would run it. Prepared by test/e2e/global-setup.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { importIntoN8n, listNodeTypes, sandboxCredentials } from '../../scripts/n8n-runtime.mjs';
import {
	NODE_TYPES,
	createPerson,
	describeE2e,
	runWorkflow,
	samplePerson,
	sandboxMark,
	sandboxRequests,
	testE2e,
	workflowWithNode,
} from './lib/n8n-e2e.mjs';

describeE2e('FacilitaPay in a real n8n 2.x', () => {
	testE2e('n8n loads the installed package and lists its nodes', [], async (state) => {
		const types = await listNodeTypes({ version: state.version, userFolder: state.userFolder });
		expect(types).toContain(NODE_TYPES.action);
		const installed = JSON.parse(
			fs.readFileSync(
				path.join(state.userFolder, '.n8n/nodes/node_modules/n8n-nodes-facilitapay/package.json'),
				'utf8',
			),
		);
		if (
			(installed.n8n?.nodes ?? []).some((/** @type {string} */ n) =>
				n.includes('FacilitaPayTrigger'),
			)
		) {
			expect(types).toContain(NODE_TYPES.trigger);
		}
	});

	testE2e(
		'Subject → Get Many with Return All outputs every person registered in the sandbox',
		['sandbox', 'node'],
		async (state) => {
			const seed = Date.now() % 100000;
			const people = [0, 1, 2].map((i) =>
				samplePerson(seed + i, `E2E Person ${seed}-${i}`, {
					email: `e2e-${seed}-${i}@example.com`,
					complete: false,
					fiscalCountry: 'Brazil',
				}),
			);
			for (const person of people) await createPerson(person, state);
			const mark = await sandboxMark(state);

			const run = await runWorkflow(
				workflowWithNode({
					parameters: {
						resource: 'subject',
						operation: 'getMany',
						returnAll: true,
						simplify: false,
					},
				}),
				{ state },
			);

			expect(run.error).toBeNull();
			expect(run.exitCode).toBe(0);
			const documents = run.items.map((item) => item.document_number);
			for (const person of people) expect(documents).toContain(person.document_number);
			const byDocument = new Map(run.items.map((item) => [item.document_number, item]));
			expect(byDocument.get(people[1].document_number)).toMatchObject({
				social_name: people[1].social_name,
			});

			const received = await sandboxRequests(
				{ after: mark, method: 'GET', pathPrefix: '/subject/people' },
				state,
			);
			expect(received.length).toBeGreaterThanOrEqual(1);
			expect(received.every((request) => request.method === 'GET')).toBe(true);
		},
	);

	testE2e(
		'a wrong access token makes the run fail with an error the user can act on',
		['sandbox', 'node'],
		async (state) => {
			const wrong = sandboxCredentials({
				baseUrl: `${state.sandboxUrl}/api/v1`,
				token: 'not-the-sandbox-token',
				id: 'facilitapay-wrong-token',
				name: 'FacilitaPay Wrong Token',
			});
			await importIntoN8n('credentials', [wrong], {
				version: state.version,
				userFolder: state.userFolder,
			});

			const run = await runWorkflow(
				workflowWithNode({
					parameters: { resource: 'subject', operation: 'getMany', returnAll: false, limit: 5 },
					credentials: { id: wrong.id, name: wrong.name },
				}),
				{ state },
			);

			expect(run.exitCode).not.toBe(0);
			expect(run.items).toEqual([]);
			expect(run.error).not.toBeNull();
			expect(run.error.message).toMatch(/credentials/i);
		},
	);
});
