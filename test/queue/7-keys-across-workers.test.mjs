// Queue mode, case 7 (issue 32: a key recognised on either worker; reads bounded per process): a
// keyed payout looks its Idempotency Key up in the subject's transaction list (oldest first, 100 a
// page), read whole the first time a process needs it, afterwards only from its newest record. Keys
// ORDER-1 … ORDER-6 one after the other (each waits for its execution to end), then ORDER-1 again:
// recognised, nothing sent. Each execution reports which worker ran it and its reads of the list
// and by ID. A second test: the workflow's other nodes keep their static data (a FacilitaPay
// Trigger's registration) when a keyed payout runs on a worker.
//
// Why the node keeps nothing in static data (docs/money.md, "How far back a lookup reads"): this
// case first proved a saved point there (n8n 1.123.81: a worker's first keyed lookup read 4 instead
// of 34), and showed n8n 2.41.1 running a new webhook execution on a worker with NO static data:
// WorkflowRunner.run() stores the execution with toWorkflowSnapshot() (no staticData) and queues
// the job with loadStaticData only for resumed executions, so JobProcessor.processJob() starts from
// {}; after the run hookFunctionsSaveWorker() saves the whole column when a node changed it, and a
// keyed payout erased the FacilitaPay Trigger's registration. The second test keeps that from
// coming back.
import {
	CASE_TIMEOUT,
	api,
	caseCredentials,
	caseSandbox,
	createActiveWorkflow,
	describeQueue,
	ensureWorkers,
	executionsByWorker,
	executionsOf,
	nodeOutput,
	postWebhook,
	postWhenRegistered,
	queueState,
	report,
	registerSubjects,
	waitFor,
} from './lib/queue.mjs';
import { validCpf } from '../e2e/lib/n8n-e2e.mjs';
import { CREDENTIAL_TYPE, sandboxCredentials, setupOwner } from '../../scripts/n8n-runtime.mjs';
import {
	KEEP_EXECUTION_DATA,
	actionNode,
	payoutFromItem,
	payoutsWorkflow,
	webhookNode,
} from '../e2e/lib/workflows.mjs';

const EARLIER = 3000;
const KEYS = 6;
const LIST_ROUTE = 'GET /api/v1/subject/:id/transactions';
const ONE_ROUTE = 'GET /api/v1/transactions/:id';
const CREATE_ROUTE = 'POST /api/v1/transactions';

describeQueue('queue mode: keyed payouts on either worker', () => {
	const sandbox = caseSandbox();
	/** @type {Awaited<ReturnType<typeof ensureWorkers>>} */
	let workers;
	/** @type {{id: string}} */
	let workflow;
	let subjectId = '';
	const path = `queue-points-${Date.now().toString(36)}`;
	const tag = Date.now().toString(36);

	/**
	 * The case's credentials. The cluster runs n8n 1.x with FACILITAPAY_QUEUE_N8N=v1 (to compare
	 * n8n's queue mode there), whose public API refuses them (its schema wants the fields of every
	 * authentication at once): there they are created through the editor's REST API, as the owner.
	 * @param {string} name
	 */
	async function credentialsFor(name) {
		if (!queueState().versions.n8n.startsWith('1.')) return caseCredentials(sandbox, name);
		const { client } = await setupOwner(queueState().main.url);
		const created = await client.call('POST', '/rest/credentials', {
			name,
			type: CREDENTIAL_TYPE,
			data: sandboxCredentials({ baseUrl: sandbox.apiBase }).data,
		});
		if (!created.ok)
			throw new Error(`POST /rest/credentials: HTTP ${created.status} ${created.text}`);
		return { id: String(created.json.data.id), name };
	}

	beforeAll(async () => {
		workers = await ensureWorkers(2, { prefix: 'points' });
		const credentials = await credentialsFor('FacilitaPay Queue Saved Points');
		const seed = (Date.now() % 100000) + 77000;
		const person = {
			document_type: 'cpf',
			document_number: validCpf(seed),
			social_name: `Queue Points ${seed}`,
			fiscal_country: 'BR',
		};
		subjectId = (await sandbox.call('POST', '/api/v1/subject/people', { person })).data.id;
		// The subject's earlier life: 3,000 PIX receipts, 30 pages of its transaction list.
		const seeded = await sandbox.call('POST', '/_sandbox/pix/receive_many', {
			document_number: person.document_number,
			value: '5.00',
			count: EARLIER,
		});
		expect(seeded.data.transaction_ids).toHaveLength(EARLIER);
		workflow = await createActiveWorkflow({
			name: 'queue: keyed payouts from a webhook',
			settings: KEEP_EXECUTION_DATA,
			nodes: [
				webhookNode(path),
				actionNode({
					credentials,
					parameters: {
						...payoutFromItem(),
						subjectId,
						value: '30.00',
						idempotencyKey: '={{ $json.body.key }}',
					},
				}),
			],
			connections: { Webhook: { main: [[{ node: 'FacilitaPay', type: 'main', index: 0 }]] } },
		});
	}, CASE_TIMEOUT);

	afterAll(async () => {
		await workers?.stop();
	});

	/** The sandbox's own request log (with routes). */
	const sandboxLog = async () =>
		/** @type {Array<{method: string, url: string, route?: string, status?: number, body?: any}>} */ (
			(await sandbox.call('GET', '/_sandbox/requests')).data
		);

	/** What the node left in the workflow's static data (the shared database): nothing, it keeps none. */
	const nodeStaticData = async () =>
		(await api('GET', `/workflows/${workflow.id}`)).staticData?.['node:FacilitaPay'];

	/**
	 * POSTs `{key}` to the webhook processor and waits for the execution it started to end; returns
	 * it with what the sandbox received meanwhile and which process sent it.
	 * @param {string} key
	 */
	async function pay(key) {
		const mark = (await sandboxLog()).length;
		const proxyMark = sandbox.requests().length;
		const known = new Set((await executionsOf(workflow.id)).map((e) => String(e.id)));
		const answer =
			known.size === 0 ? await postWhenRegistered(path, { key }) : await postWebhook(path, { key });
		expect(answer.status).toBe(200);
		const [ended] = await waitFor(
			async () => {
				const fresh = (await executionsOf(workflow.id)).filter((e) => !known.has(String(e.id)));
				const done = fresh.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
				return fresh.length >= 1 && done.length === fresh.length ? done : null;
			},
			{ what: `the execution of ${key}`, timeoutMs: 180_000 },
		);
		const execution = await api('GET', `/executions/${ended.id}?includeData=true`);
		const requests = (await sandboxLog()).slice(mark);
		const count = (/** @type {string} */ route) => requests.filter((r) => r.route === route).length;
		const created = requests.filter(
			(r) =>
				r.route === CREATE_ROUTE &&
				Number(r.status) < 300 &&
				r.body?.transaction?.meta?.n8n_facilitapay_ref === `key:${key}`,
		).length;
		const senders = [
			...new Set(
				sandbox
					.requests()
					.slice(proxyMark)
					.map((r) => r.process),
			),
		];
		const worker = (executionsByWorker().get(String(ended.id)) ?? ['?']).join('+');
		const output = nodeOutput(execution, 'FacilitaPay');
		return {
			key,
			id: String(ended.id),
			status: execution.status,
			worker,
			senders,
			item: Array.isArray(output) ? output[0] : undefined,
			listPages: count(LIST_ROUTE),
			byId: count(ONE_ROUTE),
			posts: requests.filter((r) => r.route === CREATE_ROUTE).length,
			created,
			saved: await nodeStaticData(),
		};
	}

	test(
		`${EARLIER} earlier transactions, keys ORDER-1…ORDER-${KEYS} then ORDER-1 again: one payout per key on either worker; each worker reads the list whole once, then only what is new`,
		async () => {
			const started = Date.now();
			const runs = [];
			for (let n = 1; n <= KEYS; n++) runs.push(await pay(`ORDER-${tag}-${n}`));
			const again = await pay(`ORDER-${tag}-1`);
			const seconds = (Date.now() - started) / 1000;

			const firstOn = (/** @type {(typeof runs)[number]} */ r) =>
				[...runs, again].find((other) => other.worker === r.worker) === r;
			const line = (/** @type {(typeof runs)[number]} */ r, /** @type {string} */ label) =>
				`${label} execution ${r.id} on ${r.worker} (requests from ${r.senders.join(',') || 'none'}): ` +
				`${r.status}, ${r.item?.alreadyDone ? 'alreadyDone' : 'paid'} ${r.item?.id ?? '?'}, ` +
				`${r.posts} payout POST(s), ${r.listPages} list page(s) + ${r.byId} by ID = ${r.listPages + r.byId} reads`;
			report(
				[
					`case 7 (keys across workers, ${EARLIER} earlier transactions of the subject, workers ${workers.names.join(', ')}):`,
					...runs.map(
						(r, i) =>
							`  ${line(r, `ORDER-${i + 1}`)}${firstOn(r) ? ` [first execution on ${r.worker}]` : ''}`,
					),
					`  ${line(again, 'ORDER-1 again')}`,
					`  case took ${seconds.toFixed(1)} s`,
				].join('\n'),
			);

			// Exactly one payout per new key, all different.
			for (const r of runs) {
				expect(r.status).toBe('success');
				expect(r.created).toBe(1);
				expect(r.posts).toBe(1);
				expect(r.item).toMatchObject({ value: '30.00' });
				expect(r.item.alreadyDone).toBeFalsy();
			}
			expect(new Set(runs.map((r) => r.item.id)).size).toBe(KEYS);
			// Across the whole case: one payout request per key, none twice.
			const sentKeys = (await sandboxLog())
				.filter((r) => r.route === CREATE_ROUTE)
				.map((r) => String(r.body?.transaction?.meta?.n8n_facilitapay_ref ?? ''))
				.filter((ref) => ref.startsWith(`key:ORDER-${tag}-`));
			expect(sentKeys.sort()).toEqual(runs.map((r) => `key:${r.key}`).sort());
			// ORDER-1 again: recognised, nothing sent.
			expect(again.status).toBe('success');
			expect(again.posts).toBe(0);
			expect(again.created).toBe(0);
			expect(again.item).toMatchObject({ alreadyDone: true, id: runs[0].item.id });

			// Each execution's requests left from the worker that ran it (a key this worker paid
			// itself is answered from its memory, without a request).
			for (const r of [...runs, again])
				for (const sender of r.senders) expect(sender).toBe(r.worker);
			for (const r of runs) expect(r.senders).toEqual([r.worker]);
			const first = runs[0].worker;
			const elsewhere = [...runs.slice(1), again].filter((r) => r.worker !== first);
			report(
				`case 7: ${elsewhere.length} of ${KEYS} later executions ran on another worker than ORDER-1's (${first})` +
					(elsewhere.length === 0
						? ': n8n put them all on one worker, the cross-worker path was NOT exercised'
						: ''),
			);
			// Each worker (its own process) reads the list whole the first time it needs it, then only
			// what came after the newest record it knows.
			expect(runs[0].listPages).toBeGreaterThan(30);
			for (const r of [...runs.slice(1), again]) {
				if (firstOn(r)) expect(r.listPages).toBeGreaterThan(30);
				else expect(r.listPages + r.byId).toBeLessThanOrEqual(4);
			}
			// Nothing of the node in the workflow's static data.
			for (const r of [...runs, again]) expect(r.saved).toBeUndefined();
		},
		CASE_TIMEOUT * 2,
	);

	test(
		"a keyed payout run by a worker leaves the static data of the workflow's other nodes (the FacilitaPay Trigger's registration) in place",
		async () => {
			const triggerPath = `queue-points-trigger-${Date.now().toString(36)}`;
			const credentials = await credentialsFor('FacilitaPay Queue Points Trigger');
			const withTrigger = await createActiveWorkflow(
				payoutsWorkflow({
					name: 'queue: keyed payouts beside a FacilitaPay Trigger',
					path: triggerPath,
					credentials,
					idempotencyKey: true,
					withTrigger: true,
				}),
			);
			const staticOf = async () => (await api('GET', `/workflows/${withTrigger.id}`)).staticData;
			const TRIGGER = 'node:FacilitaPay Trigger';
			await waitFor(async () => (await staticOf())?.[TRIGGER]?.secretHmac, {
				what: "the FacilitaPay Trigger's registration in the workflow static data",
			});
			const before = await staticOf();
			const [payee] = await registerSubjects(sandbox, 1, 'Queue Points Trigger');
			const known = new Set((await executionsOf(withTrigger.id)).map((e) => String(e.id)));
			const key = `ORDER-trigger-${tag}`;
			const answer = await postWhenRegistered(triggerPath, {
				payouts: [{ subjectId: payee, value: '31.00', orderId: key }],
			});
			expect(answer.status).toBe(200);
			const [ended] = await waitFor(
				async () => {
					const fresh = (await executionsOf(withTrigger.id)).filter(
						(e) => !known.has(String(e.id)),
					);
					const done = fresh.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
					return fresh.length >= 1 && done.length === fresh.length ? done : null;
				},
				{ what: `the execution of ${key}`, timeoutMs: 180_000 },
			);
			const after = await staticOf();
			const worker = (executionsByWorker().get(String(ended.id)) ?? ['?']).join('+');
			const shape = (/** @type {any} */ data) =>
				JSON.stringify(
					Object.fromEntries(
						Object.entries(data ?? {}).map(([node, value]) => [
							node,
							Object.keys(/** @type {object} */ (value ?? {})),
						]),
					),
				);
			report(
				`case 7 (trigger beside a keyed payout): execution ${ended.id} on ${worker}: ${ended.status}; ` +
					`static data before ${shape(before)}; after ${shape(after)}`,
			);
			expect(ended.status).toBe('success');
			expect(after?.[TRIGGER]).toEqual(before?.[TRIGGER]);
		},
		CASE_TIMEOUT,
	);
});
