// The FacilitaPay Trigger against strangers, in a real n8n 2.x (issue 31): a delivery proves
// nothing, FacilitaPay's notification log does. A guesser trying secrets learns nothing (one status,
// one body, the right secret's time inside the wrong ones'), and a stranger holding the secret who
// floods forged notifications spends at most 10 % of the API's reads and loses no true event.
// The other trigger files: trigger-log (what the log decides), trigger-catch-up, trigger-burst.
import { performance } from 'node:perf_hooks';

import { listExecutions } from './lib/n8n.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e } from './lib/state.mjs';
import {
	isNotice,
	postAll,
	spread,
	triggerFigures,
	triggerItems,
	useTriggerSandbox,
	waitForExecutions,
} from './lib/trigger.mjs';

const figures = triggerFigures();
const LONG = 5 * CLI_TIMEOUT;
/** How many secrets the guesser tries, the right one among them (E2E_GUESSES=10000: all of them). */
const GUESSES = Number(process.env.E2E_GUESSES ?? 1_000);
/** The forged notifications per second of the flood, and for how many seconds. */
const FLOOD_PER_SECOND = 100;
const FLOOD_SECONDS = 10;

/** The percentile (0..100) of `value` among `list`. */
function percentileOf(value, list) {
	return Math.round((100 * list.filter((ms) => ms < value).length) / list.length);
}

/** GET /notifications requests the sandbox received after `mark`. */
async function logReads(mark, state) {
	return (
		await e2eSandbox.sandboxRequests(
			{ after: mark, method: 'GET', pathPrefix: '/notifications' },
			state,
		)
	).length;
}

describeE2e('FacilitaPay Trigger in a real n8n 2.x: strangers', () => {
	const account = useTriggerSandbox({
		id: 'facilitapay-trigger-strangers-sandbox',
		name: 'FacilitaPay Trigger Strangers Sandbox',
	});
	let subject = /** @type {any} */ (undefined);

	beforeAll(async () => {
		await account.publish({ events: ['*'] }, { typeVersion: 2 });
		const seed = (Date.now() % 100000) + 51000;
		subject = await e2eSandbox.createPerson(
			e2eSandbox.samplePerson(seed, `Stranger Payer ${seed}`),
			account.state,
		);
	}, CLI_TIMEOUT);

	test(
		`${GUESSES} guesses (the right secret among them), 8 at a time, then each of 50 sent twice at once: one status, one body; the right secret's time inside the wrong ones'; nothing started`,
		async () => {
			const hook = (await e2eSandbox.sandboxControl('GET', '/webhook', undefined, account.state))
				.data;
			const right = String(hook.secret).padStart(4, '0');
			const secrets = Array.from({ length: GUESSES }, (_, n) =>
				String((Number(right) + n - Math.floor(GUESSES / 2) + 10_000) % 10_000).padStart(4, '0'),
			);
			const event = { type: 'identified', transaction_id: '0b5e7c2a-1f3d-4a8e-9c61-00000guessed' };
			const startedAt = performance.now();
			const answers = await postAll(
				hook.url,
				secrets.map((secret) => ({ notification: { ...event, secret } })),
				8,
			);
			const seconds = (performance.now() - startedAt) / 1000;
			const at = secrets.indexOf(right);
			const wrong = answers.filter((_, index) => index !== at).map((answer) => answer.ms);
			/** @type {Record<string, number>} */
			const counts = {};
			for (const answer of answers) {
				const key = `${answer.status} ${answer.text}`;
				counts[key] = (counts[key] ?? 0) + 1;
			}
			// The old leak: two identical notifications at once (503 for the right secret's second).
			const pairs = [right, ...secrets.filter((s) => s !== right).slice(0, 49)];
			const paired = await postAll(
				hook.url,
				pairs.flatMap((secret) => [
					{ notification: { ...event, secret } },
					{ notification: { ...event, secret } },
				]),
				2,
			);
			const pairCounts = [...new Set(paired.map((a) => `${a.status} ${a.text}`))];
			const rightMs = answers[at].ms;
			console.log(
				`guesses: ${GUESSES} in ${seconds.toFixed(1)} s, answers ${JSON.stringify(counts)}; wrong ${JSON.stringify(spread(wrong))} ms; the right one ${Math.round(rightMs)} ms (percentile ${percentileOf(rightMs, wrong)} of the wrong ones); pairs: ${JSON.stringify(pairCounts)}`,
			);
			expect(Object.keys(counts)).toEqual(['200 {"message":"Received"}']);
			expect(pairCounts).toEqual(['200 {"message":"Received"}']);
			expect(rightMs).toBeGreaterThanOrEqual(Math.min(...wrong));
			expect(rightMs).toBeLessThanOrEqual(Math.max(...wrong));
			// No guess started anything: the log lists none of them for this workflow. Guessing for
			// minutes (E2E_GUESSES=10000) is told once, as a failed execution saying they may be forged.
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			const after = await listExecutions({ workflowId: account.workflow.id }, account.state);
			expect(after.filter((e) => !isNotice(e))).toHaveLength(account.expected);
			expect(after.filter(isNotice).length).toBeLessThanOrEqual(1);
			figures.forgedWrongSecret += GUESSES - 1 + 98;
			figures.forgedRightSecretFalseContent += 3;
		},
		4 * LONG,
	);

	test(
		`a stranger holding the secret floods ${FLOOD_PER_SECOND} forged notifications/s for ${FLOOD_SECONDS} s beside 20 true payments, the API at 20 reads/s: 20 executions, none forged; the flood's log reads <= 10 % of the API`,
		async () => {
			const state = account.state;
			const hook = (await e2eSandbox.sandboxControl('GET', '/webhook', undefined, state)).data;
			await e2eSandbox.sandboxControl('POST', '/rate_limit', { per_second: 20, burst: 20 }, state);
			await e2eSandbox.sandboxControl('POST', '/webhooks/delivery', { concurrent: true }, state);
			try {
				// The reader's own pace while nothing arrives: the baseline.
				const idleMark = await e2eSandbox.sandboxMark(state);
				await new Promise((resolve) => setTimeout(resolve, FLOOD_SECONDS * 1000));
				const idleReads = await logReads(idleMark, state);

				const floodMark = await e2eSandbox.sandboxMark(state);
				const flooded = [];
				const floodStart = performance.now();
				const payments = (async () => {
					const ids = [];
					for (let n = 0; n < 20; n++) {
						await new Promise((resolve) => setTimeout(resolve, (FLOOD_SECONDS * 1000) / 22));
						const paid = await e2eSandbox.sandboxControl(
							'POST',
							'/pix/receive_many',
							{ document_number: subject.document_number, value: '3.00', count: 1 },
							state,
						);
						ids.push(...paid.data.transaction_ids);
					}
					return ids;
				})();
				for (let n = 0; n < FLOOD_PER_SECOND * FLOOD_SECONDS; n++) {
					const due = floodStart + (n * 1000) / FLOOD_PER_SECOND;
					const wait = due - performance.now();
					if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
					flooded.push(
						fetch(hook.url, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({
								notification: {
									type: 'identified',
									transaction_id: `forged-${n}`,
									secret: hook.secret,
								},
							}),
						})
							.then((response) => response.status)
							.catch(() => 0),
					);
				}
				const floodSeconds = (performance.now() - floodStart) / 1000;
				const floodReads = await logReads(floodMark, state);
				const ids = await payments;
				const statuses = await Promise.all(flooded);
				const executions = await waitForExecutions(
					account.workflow.id,
					account.expected + 20,
					state,
				);
				await new Promise((resolve) => setTimeout(resolve, 3_000));
				const all = await listExecutions({ workflowId: account.workflow.id }, state);
				account.expected = all.filter((e) => !isNotice(e)).length;
				const started = executions.flatMap((e) => triggerItems(e).map((i) => i.transaction_id));
				const rate = (await e2eSandbox.sandboxControl('GET', '/rate_limit', undefined, state)).data;
				const result = {
					forged_sent: statuses.length,
					forged_answered_200: statuses.filter((s) => s === 200).length,
					flood_seconds: Math.round(floodSeconds * 10) / 10,
					true_payments: ids.length,
					true_started: ids.filter((id) => started.includes(id)).length,
					forged_started: started.filter((id) => String(id).startsWith('forged-')).length,
					log_reads_idle_per_s: Math.round((idleReads / FLOOD_SECONDS) * 100) / 100,
					log_reads_during_flood_per_s: Math.round((floodReads / floodSeconds) * 100) / 100,
					flood_share_of_20_reads_per_s:
						Math.round(((floodReads / floodSeconds - idleReads / FLOOD_SECONDS) / 20) * 1000) /
						1000,
					api_refused_429: rate.limited,
				};
				console.log(`flood figures: ${JSON.stringify(result)}`);
				expect(result.true_started).toBe(20);
				expect(result.forged_started).toBe(0);
				expect(result.flood_share_of_20_reads_per_s).toBeLessThanOrEqual(0.1);
				figures.forgedRightSecretFalseContent += statuses.length;
				figures.trueEventsSent += 20;
				figures.trueEventsDelivered += result.true_started;
			} finally {
				await e2eSandbox
					.sandboxControl('DELETE', '/rate_limit', undefined, state)
					.catch(() => undefined);
			}
		},
		LONG,
	);
});
