// Issues 37 and 43's targets for one n8n version (test/e2e/wait-for-payment*.test.mjs): an n8n of the
// file's own (it is stopped and started again) with the package, a private sandbox whose account
// notifies "another system" (no FacilitaPay Trigger at all), and the workflow
// "Webhook → Create Dynamic PIX → Respond to Webhook → Wait for Payment → Paid / Not Paid / Timed Out".
import { activateWorkflow, importWorkflows } from './n8n.mjs';
import { ownN8n } from './own-n8n.mjs';
import { createPerson, samplePerson, sandboxApi, sandboxControl } from './sandbox.mjs';
import { INSTALL_TIMEOUT, describeE2e, requirePieces, sharedState } from './state.mjs';
import { guessResumeUrls } from './wait-scale.mjs';
import {
	executionStatuses,
	getExecution,
	listedAt,
	startOtherReceiver,
	startWaiting,
	untilEnded,
	untilWaiting,
	waitWorkflow,
} from './waiting.mjs';

/** Wall-clock budget from "FacilitaPay lists the event" to "the execution has ended on Paid". */
export const RESUME_BUDGET_MS = 5000;

/**
 * @param {'v2'|'v1'} version
 */
export function describeWaitScenarios(version) {
	const label = version === 'v2' ? 'n8n 2.41.1' : 'n8n 1.123.81';
	describeE2e(`Transaction > Wait for Payment in a real ${label}`, () => {
		/** @type {Awaited<ReturnType<typeof ownN8n>>} */
		let own;
		/** @type {Awaited<ReturnType<typeof startOtherReceiver>>} */
		let other;
		let subjectId = '';
		const tag = `${version}-${Date.now().toString(36)}`;
		const flows = {
			expiry: { id: `wait37exp${version}`, path: `wait-expiry-${tag}` },
			minute: { id: `wait37min${version}`, path: `wait-minute-${tag}` },
			twoMinutes: { id: `wait37two${version}`, path: `wait-two-${tag}` },
		};
		/** @type {{n8nUrl: string, apiKey: string}} */
		let server;

		beforeAll(async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node']);
			own = await ownN8n(state, {
				version,
				suffix: `wait-${version}`,
				sandbox: { id: `facilitapay-wait-${version}`, name: `FacilitaPay Wait ${version}` },
			});
			server = { n8nUrl: own.server.url, apiKey: own.server.apiKey };
			other = await startOtherReceiver();
			// The account notifies another system's URL: FacilitaPay lists what it sends there.
			const enabled = await sandboxApi(
				'POST',
				'/enable_webhooks',
				{ url: other.url },
				own.sb.state,
			);
			expect(enabled.status).toBe(200);
			const seed = (Date.now() % 100000) + (version === 'v2' ? 37000 : 38000);
			subjectId = (await createPerson(samplePerson(seed, `Wait ${version} ${seed}`), own.sb.state))
				.id;
			const credentials = own.sb.credentials;
			await importWorkflows(
				[
					waitWorkflow({ ...flows.expiry, credentials }),
					waitWorkflow({
						...flows.minute,
						credentials,
						limit: { limitType: 'afterInterval', limitAmount: 1, limitUnit: 'minutes' },
					}),
					waitWorkflow({
						...flows.twoMinutes,
						credentials,
						limit: { limitType: 'afterInterval', limitAmount: 2, limitUnit: 'minutes' },
					}),
				],
				own.state,
			);
			for (const flow of Object.values(flows)) await activateWorkflow(flow.id, own.state);
		}, INSTALL_TIMEOUT);

		afterAll(async () => {
			await own?.stop().catch(() => undefined);
			await own?.sb.close().catch(() => undefined);
			await other?.close();
		});

		let emptyLogTried = false;
		const control = (method, route, body) => sandboxControl(method, route, body, own.sb.state);

		test('a charge decided by the first record of an account whose notification log was empty: Not Paid (expired)', async () => {
			expect((await control('GET', '/notifications')).data).toEqual([]);
			const first = await startWaiting(server.n8nUrl, flows.expiry.path, {
				subject_id: subjectId,
			});
			await untilWaiting(server, first.executionId);
			await control('POST', `/transactions/${first.transactionId}/expire`, {});
			emptyLogTried = true;
			const outcome = await untilEnded(server, first.executionId, 30_000);
			expect(outcome).toMatchObject({ status: 'success', branches: ['Not Paid'] });
		}, 120_000);

		beforeEach(async () => {
			// The tests after the first one start from a non-empty log (an unrelated record).
			if (emptyLogTried && (await control('GET', '/notifications')).data.length === 0)
				await control('POST', '/events', { type: 'exchange_created', exchange_id: 'seed' });
		});

		test('paid 20 s after the wait began → the same execution resumes on Paid within 5 s of FacilitaPay listing the event; expired → Not Paid with the reason; nothing by the limit → Timed Out', async () => {
			const before = await executionStatuses(server, flows.expiry.id);
			const paid = await startWaiting(server.n8nUrl, flows.expiry.path, { subject_id: subjectId });
			const expired = await startWaiting(server.n8nUrl, flows.expiry.path, {
				subject_id: subjectId,
			});
			const timedOut = await startWaiting(server.n8nUrl, flows.minute.path, {
				subject_id: subjectId,
			});
			for (const one of [paid, expired, timedOut]) await untilWaiting(server, one.executionId);
			const waitBegan = Date.now();
			await control('POST', `/transactions/${paid.transactionId}/pay`, { after_seconds: 20 });
			await control('POST', `/transactions/${expired.transactionId}/expire`, {});

			const notPaid = await untilEnded(server, expired.executionId, 30_000);
			expect(notPaid).toMatchObject({ status: 'success', branches: ['Not Paid'], waitRuns: 1 });
			expect(notPaid.items['Not Paid']).toHaveLength(1);
			expect(notPaid.items['Not Paid'][0].orderId).toBe(expired.orderId);
			expect(JSON.stringify(notPaid.items['Not Paid'][0])).toContain(expired.transactionId);
			expect(JSON.stringify(notPaid.items['Not Paid'][0])).toMatch(/"expired"/);

			const onPaid = await untilEnded(server, paid.executionId, 60_000);
			const listed = await listedAt(own.sb.sandboxUrl, paid.transactionId, 'identified');
			expect(listed).not.toBeNull();
			expect(/** @type {number} */ (listed) - waitBegan).toBeGreaterThanOrEqual(20_000);
			expect(onPaid).toMatchObject({ status: 'success', branches: ['Paid'], waitRuns: 1 });
			expect(onPaid.branchRuns).toEqual({ Paid: 1 });
			const item = onPaid.items.Paid[0];
			expect(item.orderId).toBe(paid.orderId);
			expect(JSON.stringify(item)).toContain(paid.transactionId);
			expect(JSON.stringify(item)).toMatch(/"identified"/);
			const latencyMs = /** @type {number} */ (onPaid.stoppedAt) - /** @type {number} */ (listed);
			console.log(
				`[wait ${version}] paid after 20 s: ended ${latencyMs} ms after the record was listed`,
			);
			expect(latencyMs).toBeLessThanOrEqual(RESUME_BUDGET_MS);

			const onTimeout = await untilEnded(server, timedOut.executionId, 150_000);
			expect(onTimeout).toMatchObject({ status: 'success', branches: ['Timed Out'] });
			expect(onTimeout.items['Timed Out'][0]).toMatchObject({
				transactionId: timedOut.transactionId,
				orderId: timedOut.orderId,
				checkedAtLimit: true,
			});
			// The same executions resumed: no other execution of the workflow was started.
			const after = await executionStatuses(server, flows.expiry.id);
			expect(after.size - before.size).toBe(2);
		}, 300_000);

		test('200 calls to guessed resume URLs (no token, random tokens and suffixes, n8n’s own token where the execution shows it, without our signature) move nothing and read nothing; the charge paid then still resumes it on Paid', async () => {
			const one = await startWaiting(server.n8nUrl, flows.expiry.path, {
				subject_id: subjectId,
			});
			const waiting = await untilWaiting(server, one.executionId);
			const before = (await control('GET', '/requests/totals')).data;
			const answers = await guessResumeUrls(
				server.n8nUrl,
				[{ executionId: one.executionId, resumeToken: waiting.data?.resumeToken ?? null }],
				200,
			);
			console.log(`[wait ${version}] 200 guessed resume URLs answered ${JSON.stringify(answers)}`);
			const after = (await control('GET', '/requests/totals')).data;
			const reads = (/** @type {Record<string, number>} */ t) =>
				t['GET /api/v1/transactions/:id'] ?? 0;
			expect(reads(after) - reads(before)).toBe(0);
			expect((await getExecution(server, one.executionId)).status).toBe('waiting');
			expect(answers['200'] ?? 0).toBe(0);
			await control('POST', `/transactions/${one.transactionId}/pay`, {});
			const outcome = await untilEnded(server, one.executionId, 30_000);
			expect(outcome).toMatchObject({ status: 'success', branches: ['Paid'] });
			expect(outcome.branchRuns).toEqual({ Paid: 1 });
		}, 120_000);

		// n8n stopped while executions wait, no FacilitaPay Trigger anywhere (nothing of ours reads
		// after the start but the waits' own code, at n8n's time of each wait: docs/waiting.md).
		test('n8n stopped during the waits, no FacilitaPay Trigger: a charge paid meanwhile ends on Paid within 5 minutes of n8n being back (a long limit: the lease; a 2-minute one: the limit), an unpaid one on Timed Out after a last read; each with its order number', async () => {
			const before = await executionStatuses(server, flows.expiry.id);
			const start = (/** @type {string} */ path) =>
				startWaiting(server.n8nUrl, path, { subject_id: subjectId });
			const lease = await start(flows.expiry.path);
			const limit = await start(flows.twoMinutes.path);
			const unpaid = await start(flows.minute.path);
			for (const one of [lease, limit, unpaid]) await untilWaiting(server, one.executionId);
			await own.stop();
			for (const one of [lease, limit])
				await control('POST', `/transactions/${one.transactionId}/pay`, {});
			await control('POST', '/deliveries/wait');
			await own.start();
			const readyAt = Date.now();
			const ended = {};
			for (const [name, one] of Object.entries({ lease, limit, unpaid }))
				ended[name] = await untilEnded(server, one.executionId, 330_000);
			const after = (/** @type {any} */ outcome) =>
				/** @type {number} */ (outcome.stoppedAt) - readyAt;
			console.log(
				`[wait ${version}] restart without a Trigger: ${JSON.stringify(Object.fromEntries(Object.entries(ended).map(([name, o]) => [name, { branches: o.branches, endedAfterReadyMs: after(o) }])))}`,
			);
			for (const [name, branch] of [
				['lease', 'Paid'],
				['limit', 'Paid'],
				['unpaid', 'Timed Out'],
			]) {
				const outcome = ended[name];
				expect(outcome).toMatchObject({ status: 'success', branches: [branch] });
				expect(outcome.branchRuns).toEqual({ [branch]: 1 });
				expect(outcome.items[branch][0].orderId).toBe({ lease, limit, unpaid }[name].orderId);
			}
			expect(ended.unpaid.items['Timed Out'][0].checkedAtLimit).toBe(true);
			expect(after(ended.lease)).toBeLessThanOrEqual(300_000);
			expect(after(ended.limit)).toBeLessThanOrEqual(300_000);
			// The same executions ended: none was started again.
			const afterStatuses = await executionStatuses(server, flows.expiry.id);
			expect(afterStatuses.size - before.size).toBe(1);
		}, 600_000);
	});
}
