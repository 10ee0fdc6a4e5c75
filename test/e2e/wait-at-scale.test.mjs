// Issue 37 at scale in a real n8n 2.41.1 (test/e2e/lib/wait-scale.mjs): executions waiting at once
// with a published FacilitaPay Trigger on the account; while nothing happens they cost at most
// 2 API reads/s in all; forged notifications under the account's right secret and calls to guessed
// resume URLs move none of them on and read nothing; a burst pays 30% of their charges and each of
// those resumes once, on Paid, within 30 s of FacilitaPay listing its payment.
//
// CI runs it small: FACILITAPAY_WAIT_COUNT executions (default 60), FACILITAPAY_WAIT_PAID of them paid
// (default 30%), FACILITAPAY_WAIT_STRANGERS forgeries and as many guesses (default 200). Issue 37's
// size: FACILITAPAY_WAIT_COUNT=1000 FACILITAPAY_WAIT_STRANGERS=1000 (300 paid); issue 43's:
// FACILITAPAY_WAIT_COUNT=100 FACILITAPAY_WAIT_PAID=50.
import { activateWorkflow, importWorkflows } from './lib/n8n.mjs';
import { ownN8n } from './lib/own-n8n.mjs';
import { createPerson, samplePerson, sandboxControl } from './lib/sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { publishTriggerOn } from './lib/trigger.mjs';
import { runWaitingScale } from './lib/wait-scale.mjs';
import { waitWorkflow } from './lib/waiting.mjs';

const COUNT = Number(process.env.FACILITAPAY_WAIT_COUNT ?? 60);
const PAID = Number(process.env.FACILITAPAY_WAIT_PAID ?? Math.round(COUNT * 0.3));
const STRANGERS = Number(process.env.FACILITAPAY_WAIT_STRANGERS ?? 200);

describeE2e(`Wait for Payment at scale in a real n8n 2.41.1 (${COUNT} waiting)`, () => {
	/** @type {Awaited<ReturnType<typeof ownN8n>>} */
	let own;
	const workflow = { id: 'wait37scale', path: `wait-scale-${Date.now().toString(36)}` };
	let subjectId = '';

	beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node']);
		own = await ownN8n(state, {
			version: 'v2',
			suffix: 'wait-scale',
			sandbox: { id: 'facilitapay-wait-scale', name: 'FacilitaPay Wait Scale' },
		});
		await publishTriggerOn(own, { events: ['*'] });
		const seed = (Date.now() % 100000) + 39000;
		subjectId = (await createPerson(samplePerson(seed, `Wait Scale ${seed}`), own.sb.state)).id;
		await importWorkflows(
			waitWorkflow({ ...workflow, credentials: own.sb.credentials }),
			own.state,
		);
		await activateWorkflow(workflow.id, own.state);
	}, INSTALL_TIMEOUT);

	afterAll(async () => {
		await own?.stop().catch(() => undefined);
		await own?.sb.close().catch(() => undefined);
	});

	test(`${COUNT} waiting: ≤ 2 API reads/s idle; ${STRANGERS} forged notifications and ${STRANGERS} guessed resume URLs move none; ${PAID} paid in a burst each resume once on Paid within 30 s`, async () => {
		const hook = (await sandboxControl('GET', '/webhook', undefined, own.sb.state)).data;
		const { figures } = await runWaitingScale({
			server: { n8nUrl: own.server.url, apiKey: own.server.apiKey, pid: own.pid() },
			sandboxUrl: own.sb.sandboxUrl,
			control: (method, route, body) => sandboxControl(method, route, body, own.sb.state),
			workflow,
			subjectId,
			count: COUNT,
			paid: PAID,
			idleSeconds: 20,
			forgeries: STRANGERS,
			guesses: STRANGERS,
			forgeUrl: hook.url,
			log: (line) => console.log(`[wait scale] ${line}`),
		});
		console.log(`[wait scale] figures ${JSON.stringify(figures)}`);
		expect(figures.idle.perSecond).toBeLessThanOrEqual(2);
		expect(figures.movedByStrangers).toBe(0);
		// Forgeries and guesses spend no FacilitaPay read beyond the idle pace.
		expect(figures.strangerReads).toBeLessThanOrEqual(Math.ceil(2 * figures.strangerSeconds) + 2);
		expect(figures.burst).toMatchObject({
			notResumed: 0,
			wrongBranch: 0,
			within30s: PAID,
			unpaidMoved: 0,
		});
		// Each of the paid ones resumed the execution that waited: no new execution of the workflow.
		expect(figures.burst.executions).toBe(COUNT);
	}, 1_800_000);
});
