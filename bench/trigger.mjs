// Benchmark in a REAL n8n 2.41.1 (regular mode, `n8n start`): the FacilitaPay Trigger beside n8n's
// own Webhook node. The burst (issues 18 and 31): BENCH_BURST payments at once, FacilitaPay (the
// sandbox) delivering their notifications 25 at a time and all at once (10 s timeout, redelivery
// after 1, 2, 4, 8 and 16 s), the API at 20 reads/s: for each target, events/s (payments / seconds
// from the first payment to the last execution), answers, deliveries, reads, lost and doubled, and
// the trigger's events/s over the Webhook node's. Run it once with BENCH_N8N_ENV=
// '{"N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE":"true"}' and once without. The steady run (BENCH_ONLY=
// steady) posts notifications straight to the URLs: the trigger answers them but starts nothing
// (its events come from FacilitaPay's notification log), so it measures answers only. Prints
// numbers and writes them as JSON; asserts nothing.
//
//   npm run build && node bench/trigger.mjs
//
// Environment:
//   BENCH_EVENTS=300         notifications per steady run
//   BENCH_CONCURRENCY=10     requests in flight during a steady run
//   BENCH_BURST=300          payments of the burst (0: no burst)
//   BENCH_RATE=20            the API's reads per second during the burst
//   BENCH_ONLY=steady,burst  a subset
//   BENCH_TARGETS='webhook node,trigger'   which bursts; 'trigger@<commit>' adds the trigger as it
//                            was at that commit (git archive, built, packed), e.g.
//                            'webhook node,trigger@b9bfc99,trigger'
//   BENCH_DELIVERY='25,all'  FacilitaPay's first deliveries in flight at once, per burst
//   BENCH_TRIGGER_OPTIONS='{"attachObjects":true}'   more options of the trigger
//   BENCH_TRIGGER_VERSION=2                    the trigger's typeVersion
//   BENCH_OUT=.cache/bench   where trigger-<time>.json goes
//   BENCH_KEEP=1             keep the n8n user folder
//   BENCH_N8N_ENV='{"DB_LOGGING_ENABLED":"true","DB_LOGGING_OPTIONS":"query"}'   more environment for n8n
//   FACILITAPAY_TARBALL, FACILITAPAY_CACHE_DIR, FACILITAPAY_E2E_DIR: as for the e2e tests
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { CACHE_DIR, buildAndPackPackage } from '../scripts/n8n-runtime.mjs';
import { packCommit } from './compare/package.mjs';
import { activateWorkflow, createWorkflowViaApi, samplePerson } from '../test/e2e/lib/n8n-e2e.mjs';
import {
	account,
	countExecutions,
	countInLog,
	perTransaction,
	startEnvironment,
	triggerWorkflow,
	waitUntil,
	webhookNodeWorkflow,
} from './trigger/n8n.mjs';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 300);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'burst').split(',').map((s) => s.trim()));
const say = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line) => process.stderr.write(`[bench:trigger] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A payer with everything the sandbox's payments need. @param {number} seed */
const person = (seed) =>
	samplePerson(seed, `Bench Payer ${seed}`, { email: `bench.${seed}@example.com` });

function percentiles(list) {
	if (list.length === 0) return null;
	const sorted = [...list].sort((a, b) => a - b);
	const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
	return { p50: Math.round(at(0.5)), p95: Math.round(at(0.95)), max: Math.round(sorted.at(-1)) };
}

/** Posts `bodies` to `url`, CONCURRENCY at a time; answer times and statuses. */
async function post(url, bodies) {
	const times = [];
	const statuses = {};
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < bodies.length) {
				const body = bodies[next++];
				const at = performance.now();
				let status;
				try {
					const response = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(body),
					});
					await response.text();
					status = response.status;
				} catch (error) {
					status = error.code ?? 'error';
				}
				times.push(performance.now() - at);
				statuses[status] = (statuses[status] ?? 0) + 1;
			}
		}),
	);
	const seconds = (performance.now() - started) / 1000;
	return {
		seconds,
		eventsPerSecond: Math.round((bodies.length / seconds) * 10) / 10,
		answerMs: percentiles(times),
		statuses,
	};
}

/**
 * One steady run: the workflow activated, then `target()` (once it is registered) gives the URL and
 * the bodies, which are posted; then the executions are counted.
 */
async function steady(n8n, name, workflow, target, expected = undefined) {
	const created = await createWorkflowViaApi(workflow, n8n);
	await activateWorkflow(created.id, n8n);
	const { url, bodies } = await target();
	const sentAt = Date.now();
	const result = await post(url, bodies);
	const want = expected ?? bodies.length;
	if (want === 0) await sleep(3_000);
	const executions = await waitUntil(
		async () => {
			const counted = await countExecutions(n8n, created.id);
			return counted.count >= want ? counted : null;
		},
		want === 0 ? 1 : 180_000,
		`${want} executions of ${name}`,
	).catch(async () => await countExecutions(n8n, created.id));
	const row = {
		name,
		...result,
		executions: executions.count,
		secondsUntilLastExecution: Math.round((executions.last - sentAt) / 100) / 10,
	};
	say(
		`${name.padEnd(34)} ${String(row.eventsPerSecond).padStart(7)} events/s   answer p50 ${row.answerMs.p50} ms, p95 ${row.answerMs.p95} ms, max ${row.answerMs.max} ms   statuses ${JSON.stringify(row.statuses)}   executions ${row.executions} (last ${row.secondsUntilLastExecution} s after the first)`,
	);
	return row;
}

async function main() {
	const startedAt = performance.now();
	const tarball = process.env.FACILITAPAY_TARBALL
		? path.resolve(process.env.FACILITAPAY_TARBALL)
		: await buildAndPackPackage({ reuse: true });
	const environment = await startEnvironment(tarball, 'steady');
	const { server } = environment;
	let n8n = environment.n8n;
	const stops = [environment.stop];
	const results = {
		n8n: server.install.n8nVersion,
		events: EVENTS,
		concurrency: CONCURRENCY,
		steady: [],
		burst: [],
	};
	const accounts = [];
	try {
		if (ONLY.has('steady')) {
			say(
				`\nSteady: ${EVENTS} notifications, ${CONCURRENCY} in flight (n8n ${server.install.n8nVersion}, regular mode, SQLite)`,
			);
			// n8n's Webhook node, the same bodies.
			const hookBodies = Array.from({ length: EVENTS }, (_, n) => ({
				notification: { type: 'identified', secret: '1234', transaction_id: `t-${n}` },
			}));
			results.steady.push(
				await steady(n8n, "n8n's Webhook node", webhookNodeWorkflow('bench-hook'), async () => {
					await sleep(1_000);
					return { url: `${server.url}/webhook/bench-hook`, bodies: hookBodies };
				}),
			);
			for (const verify of [false, true]) {
				const acct = await account(n8n, verify ? 'verify-on' : 'verify-off');
				accounts.push(acct);
				// Real transactions, made before the trigger enables notifications (so nothing is sent).
				const subject = await acct.call(
					'POST',
					'/subject/people',
					{ person: person(41000 + (verify ? 1 : 0)) },
					true,
				);
				const { transaction_ids: ids } = await acct.call('POST', '/pix/receive_many', {
					document_number: subject.document_number,
					value: '5.00',
					count: EVENTS,
				});
				const workflow = triggerWorkflow(verify ? 'on' : 'off', acct.credentials, {
					attachObjects: verify,
				});
				results.steady.push(
					await steady(
						n8n,
						`FacilitaPay Trigger (answers only), attach ${verify ? 'on' : 'off'}`,
						workflow,
						async () => {
							const hook = await waitUntil(
								async () => {
									const current = await acct.call('GET', '/webhook');
									return current.enabled ? current : null;
								},
								30_000,
								'the trigger to register',
							);
							return {
								url: hook.url,
								bodies: ids.map((id) => ({
									notification: { type: 'identified', secret: hook.secret, transaction_id: id },
								})),
							};
						},
						0,
					),
				);
			}
		}
		// The steady n8n is not needed any more: each burst gets an n8n of its own.
		await stops.shift()?.();
		if (ONLY.has('burst') && BURST > 0) {
			say(
				`\nBurst: ${BURST} payments at once, delivered together (10 s timeout, redelivery after 1, 2, 4, 8, 16 s), the API at ${RATE} reads/s`,
			);
			const targets = (process.env.BENCH_TARGETS ?? 'webhook node,trigger').split(',');
			const modes = (process.env.BENCH_DELIVERY ?? '25,all').split(',').map((m) => m.trim());
			for (const mode of modes)
				for (const target of targets.map((t) => t.trim())) {
					// Each burst on an n8n of its own: what one left behind (executions, a busy database)
					// must not slow the other down.
					// "trigger@<commit>": the trigger as it was at that commit (packed from git), in the
					// same run, for a side-by-side comparison (issue 45: BENCH_TARGETS='webhook node,
					// trigger@b9bfc99,trigger').
					const [kind, commit] = target.split('@');
					const pkg = commit ? await packCommit(commit) : tarball;
					const fresh = await startEnvironment(pkg, `burst-${target.replace(/[ @]/g, '-')}`);
					stops.push(fresh.stop);
					n8n = fresh.n8n;
					const burstUrl = fresh.server.url;
					const acct = await account(n8n, `burst-${target.replace(/[ @]/g, '-')}`);
					accounts.push(acct);
					const subject = await acct.call(
						'POST',
						'/subject/people',
						{ person: person(42000 + accounts.length) },
						true,
					);
					let workflowId;
					if (kind === 'trigger') {
						const created = await createWorkflowViaApi(
							triggerWorkflow('burst', acct.credentials, {}),
							n8n,
						);
						workflowId = created.id;
						await activateWorkflow(created.id, n8n);
						await waitUntil(
							async () => (await acct.call('GET', '/webhook')).enabled,
							30_000,
							'registration',
						);
					} else {
						const created = await createWorkflowViaApi(webhookNodeWorkflow('bench-burst'), n8n);
						workflowId = created.id;
						await activateWorkflow(created.id, n8n);
						await sleep(1_000);
						await acct.call(
							'POST',
							'/enable_webhooks',
							{ url: `${burstUrl}/webhook/bench-burst` },
							true,
						);
					}
					await acct.call('POST', '/webhooks/delivery', {
						concurrent: mode === 'all' ? true : Number(mode),
						timeout_ms: 10_000,
						retry_seconds: [1, 2, 4, 8, 16],
					});
					await acct.call('POST', '/rate_limit', { per_second: RATE, burst: RATE });
					const started = Date.now();
					const { transaction_ids: ids } = await acct.call('POST', '/pix/receive_many', {
						document_number: subject.document_number,
						value: '5.00',
						count: BURST,
					});
					await acct.call('POST', '/deliveries/wait', { redeliveries: true });
					const deliveredAfter = (Date.now() - started) / 1000;
					await sleep(3_000);
					const executions = await waitUntil(
						async () => {
							const counted = await countExecutions(n8n, workflowId);
							return counted.count >= ids.length ? counted : null;
						},
						60_000,
						'executions',
					).catch(async () => await countExecutions(n8n, workflowId));
					const delivery = await acct.call('GET', '/webhooks/delivery');
					const rate = await acct.call('GET', '/rate_limit');
					const perPayment = await perTransaction(n8n, workflowId);
					const seconds = (executions.last - started) / 1000;
					const row = {
						target,
						delivery: mode === 'all' ? 'all at once' : `${mode} at a time`,
						payments: ids.length,
						executions: executions.count,
						lost: ids.filter((id) => !perPayment.has(id)).length,
						doubled: [...perPayment.values()].filter((n) => n > 1).length,
						eventsPerSecond: Math.round((ids.length / seconds) * 10) / 10,
						deliveredOk: delivery.stats.delivered,
						failedAfterRedeliveries: delivery.stats.failing,
						deliveries: delivery.stats.attempts,
						answers: delivery.stats.by_status,
						answerMs: delivery.stats.answer_ms,
						notReady: countInLog(fresh.n8n.userFolder, 'Database is not ready'),
						reads429: rate.limited,
						readsAllowed: rate.allowed,
						secondsUntilAllDelivered: Math.round(deliveredAfter * 10) / 10,
						secondsUntilLastExecution: Math.round(((executions.last - started) / 1000) * 10) / 10,
					};
					results.burst.push(row);
					say(`${target.padEnd(14)} ${JSON.stringify(row)}`);
					const hook = results.burst.find(
						(r) => r.target === 'webhook node' && r.delivery === row.delivery,
					);
					if (kind === 'trigger' && hook)
						say(
							`  ${target} / Webhook node (${row.delivery}): ${(row.eventsPerSecond / hook.eventsPerSecond).toFixed(2)}x events/s`,
						);
					// Stopped before the next target's burst: an n8n still finishing its executions
					// would take the CPU from the next one.
					stops.splice(stops.indexOf(fresh.stop), 1);
					await fresh.stop();
				}
		}
	} finally {
		for (const acct of accounts) await acct.sandbox.close().catch(() => undefined);
		for (const stop of stops) await stop().catch(() => undefined);
	}
	const out = process.env.BENCH_OUT ?? path.join(CACHE_DIR, 'bench');
	fs.mkdirSync(out, { recursive: true });
	const file = path.join(out, `trigger-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
	fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
	say(`\n(${((performance.now() - startedAt) / 1000).toFixed(0)} s; ${file})`);
	progress('done');
}

await main();
