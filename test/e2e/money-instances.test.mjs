// Issue 32, "reported done, never paid": two n8n instances on one FacilitaPay account (staging and
// production; an n8n reinstalled with a fresh database). Two n8n 2.41.1 of this file, each with its
// own user folder, database and N8N_ENCRYPTION_KEY (so its own instance ID), one sandbox whose
// credentials both hold, the same workflow (same workflow id, same node ids) imported in both.
// Each runs its first execution (execution id 1 in both) with one payout: B's payout is sent (a
// second transaction at FacilitaPay), never answered "already done" with A's record. A payout
// with an Idempotency Key used in both pays once: the key names one payment across the account.
import { activateWorkflow, importWorkflows, knownExecutions, nodeOutput } from './lib/n8n.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { waitForNewExecution } from './lib/retry.mjs';
import {
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxMark,
	sandboxRequests,
} from './lib/sandbox.mjs';
import {
	CLI_TIMEOUT,
	INSTALL_TIMEOUT,
	describeE2e,
	requirePieces,
	sharedState,
	waitFor,
} from './lib/state.mjs';
import { payoutsWorkflow } from './lib/workflows.mjs';

const ROUTE = 'POST /api/v1/transactions';

describeE2e('Two n8n instances on one FacilitaPay account (n8n 2.41.1)', () => {
	/** @type {Awaited<ReturnType<typeof ownN8n>>[]} */
	const instances = [];
	const tag = Date.now().toString(36);
	const plain = { id: 'money3twoinst01', path: `two-instances-${tag}` };
	const keyed = { id: 'money3twoinst02', path: `two-instances-keyed-${tag}` };
	let subjectId = '';

	beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node']);
		const sandbox = { id: 'facilitapay-two-instances', name: 'FacilitaPay Two Instances' };
		const a = await ownN8n(state, {
			version: 'v2',
			suffix: 'instance-a',
			sandbox,
			env: { N8N_ENCRYPTION_KEY: 'facilitapay-e2e-instance-a' },
		});
		instances.push(a);
		const b = await ownN8n(state, {
			version: 'v2',
			suffix: 'instance-b',
			sandbox: { ...sandbox, shared: a.sb },
			env: { N8N_ENCRYPTION_KEY: 'facilitapay-e2e-instance-b' },
		});
		instances.push(b);
		const workflows = [
			{ ...plain, name: 'e2e two instances' },
			{ ...keyed, name: 'e2e two instances (keyed)', idempotencyKey: true },
		].map(({ id, path, name, idempotencyKey }) => ({
			...payoutsWorkflow({ name, path, credentials: a.sb.credentials, idempotencyKey }),
			id,
			active: false,
			pinData: {},
		}));
		for (const own of instances) {
			await importWorkflows(workflows, own.state);
			for (const workflow of workflows) await activateWorkflow(workflow.id, own.state);
		}
		const seed = (Date.now() % 100000) + 61000;
		const person = samplePerson(seed, `Two Instances ${seed}`, { email: null, complete: false });
		subjectId = (await createPerson(person, a.sb.state)).id;
	}, INSTALL_TIMEOUT);

	afterAll(async () => {
		for (const own of instances.reverse()) await own.stop().catch(() => undefined);
		await instances.at(-1)?.sb.close();
	});

	/** Posts `payouts` to the workflow's webhook on `own` and returns the execution once it ended. */
	const runOn = async (own, workflow, payouts) => {
		const known = await knownExecutions(workflow.id, own.state);
		await waitFor(
			async () => {
				const response = await fetch(`${own.server.url}/webhook/${workflow.path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ payouts }),
				});
				await response.text();
				return response.status === 404 ? null : response.ok;
			},
			{ what: `POST /webhook/${workflow.path} to start an execution` },
		);
		const execution = await waitForNewExecution(own.server, workflow.id, { known });
		const output = nodeOutput(execution, 'FacilitaPay');
		return {
			id: String(execution.id),
			status: execution.status,
			items: Array.isArray(output) ? output : [],
		};
	};
	const subjectTransactions = async (value) =>
		(
			(
				await sandboxApi(
					'GET',
					`/subject/${subjectId}/transactions`,
					undefined,
					instances[0].sb.state,
				)
			).json?.data ?? []
		).filter((t) => t.value === value);
	const posts = async (mark) =>
		(
			await sandboxRequests({ after: mark, method: 'POST', route: ROUTE }, instances[0].sb.state)
		).map((r) => `${r.body?.transaction?.value} ${r.status}`);

	test(
		"each instance's first execution pays its payout: B's is sent, not 'already done' with A's record",
		async () => {
			const [a, b] = instances;
			const mark = await sandboxMark(a.sb.state);
			const onA = await runOn(a, plain, [{ subjectId, value: '21.01' }]);
			const onB = await runOn(b, plain, [{ subjectId, value: '21.01' }]);
			console.log(
				`two instances, plain: A execution ${onA.id} (${onA.status}), B execution ${onB.id} (${onB.status}); POSTs ${JSON.stringify(await posts(mark))}`,
			);
			expect([onA.id, onB.id]).toEqual(['1', '1']);
			expect([onA.status, onB.status]).toEqual(['success', 'success']);
			expect(onB.items[0]?.alreadyDone).toBeUndefined();
			expect(onB.items[0]?.id).not.toBe(onA.items[0]?.id);
			expect(await posts(mark)).toEqual(['21.01 200', '21.01 200']);
			const paid = await subjectTransactions('21.01');
			expect(paid.map((t) => t.id).sort()).toEqual([onA.items[0].id, onB.items[0].id].sort());
			// The identities differ only in their scope: run:<instance>:<workflow>:<execution>:…
			const refs = paid.map((t) => String(t.meta?.n8n_facilitapay_ref));
			console.log(`two instances, plain: refs ${JSON.stringify(refs)}`);
			expect(refs.map((ref) => ref.split(':').slice(2).join(':'))).toEqual([
				`${plain.id}:1:facilitapay:0:0`,
				`${plain.id}:1:facilitapay:0:0`,
			]);
			expect(refs[0].split(':')[1]).not.toBe(refs[1].split(':')[1]);
		},
		CLI_TIMEOUT,
	);

	test(
		'one Idempotency Key used in both instances pays once (the key is account-wide)',
		async () => {
			const [a, b] = instances;
			const mark = await sandboxMark(a.sb.state);
			const order = [{ subjectId, value: '21.02', orderId: `INV-two-instances-${tag}` }];
			const onA = await runOn(a, keyed, order);
			const onB = await runOn(b, keyed, order);
			console.log(
				`two instances, keyed: A ${onA.status} ${onA.items[0]?.id}, B ${onB.status} ${onB.items[0]?.id} alreadyDone=${onB.items[0]?.alreadyDone}; POSTs ${JSON.stringify(await posts(mark))}`,
			);
			expect([onA.status, onB.status]).toEqual(['success', 'success']);
			expect(onB.items[0]).toMatchObject({ id: onA.items[0].id, alreadyDone: true });
			expect(await posts(mark)).toEqual(['21.02 200']);
			expect((await subjectTransactions('21.02')).length).toBe(1);
		},
		CLI_TIMEOUT,
	);
});
