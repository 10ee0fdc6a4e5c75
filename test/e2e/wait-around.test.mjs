// Issue 43 in a real n8n 2.41.1, no FacilitaPay Trigger: what happens around a wait must not change
// its outcome. A card payment approved before the wait began (FacilitaPay still shows it pending);
// FacilitaPay answering 404 just after the create (read-after-write lag) or 503; the credential
// edited while executions wait; "At a Time" in the workflow's time zone; and a later wait of the
// same execution (a second Wait for Payment, n8n's Wait node) never resumed early by n8n's own timer.
import { activateWorkflow, importWorkflows } from './lib/n8n.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import {
	createCheckout,
	createDynamicPix,
	createPerson,
	samplePerson,
	sandboxApi,
	sandboxControl,
} from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { nodeOutput } from '../../scripts/n8n-runtime.mjs';
import {
	BRANCHES,
	CREATE_NODE,
	WAIT_NODE,
	endedExecution,
	getExecution,
	listedAt,
	startOtherReceiver,
	startWaiting,
	untilEnded,
	untilWaiting,
	waitParameters,
	waitWorkflow,
} from './lib/waiting.mjs';

/** The workflow without its Create PIX: it waits for the charge `transaction_id` of the request. */
function waitForGivenCharge(options) {
	const json = waitWorkflow(options);
	json.nodes = json.nodes.filter((node) => node.name !== CREATE_NODE);
	json.connections.Order = { main: [[{ node: 'Answer the Shop', type: 'main', index: 0 }]] };
	delete json.connections[CREATE_NODE];
	const respond = json.nodes.find((node) => node.name === 'Answer the Shop');
	respond.parameters.responseBody =
		'={{ JSON.stringify({ transaction_id: $json.body.transaction_id, execution_id: $execution.id }) }}';
	const wait = json.nodes.find((node) => node.name === WAIT_NODE);
	wait.parameters.transactionId.value = "={{ $('Order').item.json.body.transaction_id }}";
	return json;
}

/** After Timed Out: a second charge and a second wait (`then`: Wait for Payment or n8n's Wait node). */
function thenWaitAgain(options, then) {
	const json = waitWorkflow(options);
	const create = json.nodes.find((node) => node.name === CREATE_NODE);
	const second = { ...structuredClone(create), id: 'create-2', name: 'Create PIX 2' };
	second.parameters.subjectId = "={{ $('Order').item.json.body.subject_id }}";
	second.parameters.value = '26.00';
	second.position = [1320, 200];
	const later =
		then === 'payment'
			? {
					id: 'wait-2',
					name: 'Wait Again',
					type: create.type,
					typeVersion: 1,
					position: [1540, 200],
					credentials: create.credentials,
					parameters: {
						...waitParameters({
							limitType: 'afterInterval',
							limitAmount: 30,
							limitUnit: 'minutes',
						}),
					},
				}
			: {
					id: 'wait-2',
					name: 'Wait Again',
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					position: [1540, 200],
					webhookId: `wait-again-${options.path}`,
					parameters: { resume: 'webhook', options: {} },
				};
	json.nodes.push(second, later);
	json.connections['Timed Out'] = { main: [[{ node: second.name, type: 'main', index: 0 }]] };
	json.connections[second.name] = { main: [[{ node: later.name, type: 'main', index: 0 }]] };
	return json;
}

describeE2e('Wait for Payment: what happens around the wait (real n8n 2.41.1, no Trigger)', () => {
	/** @type {Awaited<ReturnType<typeof ownN8n>>} */
	let own;
	/** @type {Awaited<ReturnType<typeof startOtherReceiver>>} */
	let other;
	let subjectId = '';
	/** @type {{n8nUrl: string, apiKey: string}} */
	let server;
	const tag = Date.now().toString(36);
	const flows = {
		given: { id: `wait43given`, path: `wait-given-${tag}` },
		zoned: { id: `wait43zone`, path: `wait-zone-${tag}` },
		secondPayment: { id: `wait43second`, path: `wait-second-${tag}` },
		secondWaitNode: { id: `wait43node`, path: `wait-node-${tag}` },
	};
	const control = (method, route, body) => sandboxControl(method, route, body, own.sb.state);
	/** Executions started first (their limits run while the other tests run). */
	const early = { seconds: [], zoned: undefined, startedAt: 0 };

	beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node']);
		own = await ownN8n(state, {
			version: 'v2',
			suffix: 'wait-around',
			sandbox: { id: 'facilitapay-wait-around', name: 'FacilitaPay Wait Around' },
		});
		server = { n8nUrl: own.server.url, apiKey: own.server.apiKey };
		other = await startOtherReceiver();
		expect(
			(await sandboxApi('POST', '/enable_webhooks', { url: other.url }, own.sb.state)).status,
		).toBe(200);
		subjectId = (await createPerson(samplePerson(43043, 'Around Wait'), own.sb.state)).id;
		const credentials = own.sb.credentials;
		const zoned = waitWorkflow({
			...flows.zoned,
			credentials,
			limit: { limitType: 'atTime', limitTime: "={{ $('Order').item.json.body.limit_time }}" },
		});
		zoned.settings.timezone = 'America/Sao_Paulo';
		await importWorkflows(
			[
				waitForGivenCharge({
					...flows.given,
					credentials,
					limit: { limitType: 'afterInterval', limitAmount: 30, limitUnit: 'minutes' },
				}),
				zoned,
				thenWaitAgain(
					{
						...flows.secondPayment,
						credentials,
						limit: { limitType: 'afterInterval', limitAmount: 1, limitUnit: 'minutes' },
					},
					'payment',
				),
				thenWaitAgain(
					{
						...flows.secondWaitNode,
						credentials,
						limit: { limitType: 'afterInterval', limitAmount: 1, limitUnit: 'minutes' },
					},
					'waitNode',
				),
			],
			own.state,
		);
		for (const flow of Object.values(flows)) await activateWorkflow(flow.id, own.state);
		// Started now: their first limits run out while the tests below run.
		early.startedAt = Date.now();
		for (let n = 0; n < 4; n++)
			early.seconds.push(
				await startWaiting(
					server.n8nUrl,
					(n % 2 ? flows.secondWaitNode : flows.secondPayment).path,
					{
						subject_id: subjectId,
					},
				),
			);
		// "At a Time" 2 minutes ahead in São Paulo, written without a zone (the date picker's form).
		const saoPaulo = new Date(Date.now() - 3 * 3600_000 + 2 * 60_000).toISOString().slice(0, 19);
		early.zoned = await startWaiting(server.n8nUrl, flows.zoned.path, {
			subject_id: subjectId,
			limit_time: saoPaulo,
		});
	}, INSTALL_TIMEOUT);

	afterAll(async () => {
		await own?.stop().catch(() => undefined);
		await own?.sb.close().catch(() => undefined);
		await other?.close();
	});

	const waitFor = async (transactionId) =>
		await startWaiting(server.n8nUrl, flows.given.path, {
			subject_id: subjectId,
			transaction_id: transactionId,
		});

	test('a card payment approved before the wait began (payment_approved listed, FacilitaPay still shows it pending): Paid', async () => {
		await control('POST', '/play', { card_identification: 'later' });
		const checkout = await createCheckout(subjectId, '31.00', own.sb.state);
		const attempt = (await control('POST', `/transactions/${checkout.id}/pay`, { success: true }))
			.data;
		expect(attempt.status).toBe('pending');
		const started = await waitFor(attempt.id);
		const outcome = await untilEnded(server, started.executionId, 30_000);
		expect(outcome).toMatchObject({ status: 'success', branches: ['Paid'] });
		expect(outcome.items.Paid[0]).toMatchObject({
			transactionId: attempt.id,
			decidedBy: 'record',
			orderId: started.orderId,
		});
		await control('POST', '/play', { card_identification: 'at_approval' });
	}, 120_000);

	test('FacilitaPay answers 404 for 5 s after the create (read-after-write lag), paid 10 s later: Paid, never "a checkout"', async () => {
		await control('POST', '/play', { read_lag_seconds: 5 });
		const pix = await createDynamicPix(subjectId, '32.00', own.sb.state);
		const started = await waitFor(pix.id);
		await untilWaiting(server, started.executionId);
		await control('POST', `/transactions/${pix.id}/pay`, { after_seconds: 10 });
		const outcome = await untilEnded(server, started.executionId, 60_000);
		expect(outcome).toMatchObject({ status: 'success', branches: ['Paid'] });
		expect(outcome.items.Paid[0]).toMatchObject({
			transactionId: pix.id,
			checkout: false,
			transaction: { id: pix.id, status: 'identified' },
			orderId: started.orderId,
		});
		await control('POST', '/play', { read_lag_seconds: 0 });
	}, 120_000);

	test('the credential edited while the execution waits (access token → username and password): the payment still ends on Paid', async () => {
		const pix = await createDynamicPix(subjectId, '34.00', own.sb.state);
		const started = await waitFor(pix.id);
		await untilWaiting(server, started.executionId);
		const { id, name } = own.sb.credentials;
		const edited = await own.server.client.call('PATCH', `/rest/credentials/${id}`, {
			name,
			type: 'facilitaPayApi',
			data: {
				environment: 'custom',
				baseUrl: `${own.sb.state.sandboxUrl}/api/v1`,
				authentication: 'usernamePassword',
				username: 'sandbox',
				password: 'sandbox',
			},
		});
		expect(edited.status).toBe(200);
		await control('POST', `/transactions/${pix.id}/pay`, {});
		const outcome = await untilEnded(server, started.executionId, 60_000);
		expect(outcome).toMatchObject({ status: 'success', branches: ['Paid'] });
	}, 120_000);

	test('“At a Time” written without a zone is read in the workflow’s time zone (America/Sao_Paulo on a UTC server): it waited, and ended on Timed Out about then, after a last read', async () => {
		const outcome = await untilEnded(server, early.zoned.executionId, 240_000);
		expect(outcome).toMatchObject({ status: 'success', branches: ['Timed Out'] });
		const item = outcome.items['Timed Out'][0];
		expect(item).toMatchObject({ checkedAtLimit: true, orderId: early.zoned.orderId });
		const endedAfter = /** @type {number} */ (outcome.stoppedAt) - early.startedAt;
		console.log(`[wait around] At a Time 2 min ahead in São Paulo: ended after ${endedAfter} ms`);
		expect(endedAfter).toBeGreaterThan(90_000);
		expect(endedAfter).toBeLessThan(200_000);
	}, 300_000);

	test('a later wait of the same execution (a second Wait for Payment, n8n’s Wait node) is never resumed early by n8n’s own timer of the first one', async () => {
		// The first waits' limits (1 min) run out; n8n's timer of each fires then; every execution
		// goes on to its second wait. 100 s after that, each must still wait there.
		await new Promise((resolve) =>
			setTimeout(resolve, Math.max(0, early.startedAt + 60_000 + 160_000 - Date.now())),
		);
		const seen = [];
		for (const one of early.seconds) {
			const execution = await getExecution(server, one.executionId);
			const runData = execution.data?.resultData?.runData ?? {};
			seen.push({
				status: execution.status,
				first: BRANCHES.filter((branch) => runData[branch]),
				waitsAt: execution.data?.resultData?.lastNodeExecuted,
			});
		}
		console.log(`[wait around] second waits: ${JSON.stringify(seen)}`);
		for (const one of seen)
			expect(one).toEqual({ status: 'waiting', first: ['Timed Out'], waitsAt: 'Wait Again' });
	}, 300_000);
	test('a wait renewed while n8n runs (its lease renewed by the waiter, 150 s in): its charge paid now resumes it within 5 s of FacilitaPay listing it', async () => {
		const one = early.seconds[0];
		const execution = await getExecution(server, one.executionId);
		const second = nodeOutput(execution, 'Create PIX 2')[0];
		expect(execution.status).toBe('waiting');
		// The second wait began right after the first one's Timed Out ran (n8n keeps only the last
		// lease's run of a waiting node).
		const waitBegan = execution.data.resultData.runData['Timed Out'][0].startTime;
		expect(Date.now() - waitBegan).toBeGreaterThan(150_000);
		await control('POST', `/transactions/${second.id}/pay`, {});
		const ended = await endedExecution(server, one.executionId, 60_000);
		const out = nodeOutput(ended, 'Wait Again', 0);
		expect(ended.status).toBe('success');
		expect(out).toEqual([expect.objectContaining({ outcome: 'paid', transactionId: second.id })]);
		const listed = /** @type {number} */ (
			await listedAt(own.sb.sandboxUrl, second.id, 'identified')
		);
		const latency = Date.parse(ended.stoppedAt) - listed;
		console.log(`[wait around] renewed wait: Paid ${latency} ms after the listing`);
		expect(latency).toBeLessThanOrEqual(5000);
	}, 120_000);

	test('FacilitaPay answers 503 to every read of the charge for 20 s, the customer pays after it: Paid (a failed read decides nothing)', async () => {
		const pix = await createDynamicPix(subjectId, '33.00', own.sb.state);
		await control('POST', '/faults', {
			route: 'GET /api/v1/transactions/:id',
			kind: '503',
			rate: 1,
		});
		const started = await waitFor(pix.id);
		const waiting = await untilWaiting(server, started.executionId, 90_000);
		expect(waiting.status).toBe('waiting');
		await new Promise((resolve) => setTimeout(resolve, 20_000));
		await control('DELETE', '/faults');
		await control('POST', `/transactions/${pix.id}/pay`, {});
		const outcome = await untilEnded(server, started.executionId, 60_000);
		expect(outcome).toMatchObject({ status: 'success', branches: ['Paid'] });
		expect(outcome.items.Paid[0].orderId).toBe(started.orderId);
	}, 180_000);
});
