// Charge and wait at scale (issue 37), on an n8n given by the caller (test/e2e/wait-at-scale.test.mjs
// asserts, bench/waiting.mjs prints): `count` executions waiting at once; the API reads they cost
// while nothing happens; forged notifications under the account's right secret and calls to guessed
// resume URLs (none may move an execution on); a burst paying `paid` of their charges (each must
// resume once, on Paid); n8n's memory (RSS) with 0 and `count` waiting.
import fs from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { readAnswer } from './state.mjs';
import {
	executionStatuses,
	getExecution,
	listedRecords,
	outcomeOf,
	percentiles,
	startManyWaiting,
} from './waiting.mjs';

/** API reads of FacilitaPay (what the waiting set costs): the log and transaction reads. */
export const READ_ROUTES = ['GET /api/v1/notifications', 'GET /api/v1/transactions/:id'];
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process in MB (Linux /proc), or null. @param {number|undefined} pid */
export function rssMb(pid) {
	if (!pid) return null;
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
		return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
	} catch {
		return null;
	}
}

/**
 * CPU seconds a process (and its children: n8n's task runner) has used so far (Linux /proc), or
 * null. @param {number|undefined} pid
 */
export function cpuSeconds(pid) {
	if (!pid) return null;
	try {
		const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		// utime, stime, cutime, cstime (fields 14-17 of stat; 12-15 after the name)
		const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
		return ticks / 100;
	} catch {
		return null;
	}
}

/** The sandbox's per-route request totals. @param {string} sandboxUrl */
async function totals(sandboxUrl) {
	const answer = await (await fetch(`${sandboxUrl}/_sandbox/requests/totals`)).json();
	return { counts: /** @type {Record<string, number>} */ (answer.data), at: answer.at_ms };
}

/**
 * API reads per second while nothing happens, over `seconds`.
 * @param {string} sandboxUrl @param {number} seconds
 */
export async function idleReads(sandboxUrl, seconds) {
	const before = await totals(sandboxUrl);
	await sleep(seconds * 1000);
	const after = await totals(sandboxUrl);
	const elapsed = (after.at - before.at) / 1000;
	/** @type {Record<string, number>} */
	const byRoute = {};
	let reads = 0;
	for (const route of READ_ROUTES) {
		byRoute[route] = (after.counts[route] ?? 0) - (before.counts[route] ?? 0);
		reads += byRoute[route];
	}
	return { seconds: elapsed, reads, perSecond: reads / elapsed, byRoute };
}

/**
 * Waits until `count` executions of the workflow are saved as waiting.
 * @param {{n8nUrl: string, apiKey: string}} server @param {string} workflowId @param {number} count
 * @param {number} timeoutMs
 */
export async function untilAllWaiting(server, workflowId, count, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const waiting = await executionStatuses(server, workflowId, { status: 'waiting' });
		if (waiting.size >= count) return waiting.size;
		if (Date.now() > deadline)
			throw new Error(`only ${waiting.size} of ${count} executions are waiting`);
		await sleep(1000);
	}
}

/**
 * Forged notifications: POSTed straight to the URL the account notifies (a published FacilitaPay
 * Trigger's), under the account's right secret, saying the waited charges are paid.
 * @param {string} url @param {string} secret @param {string[]} transactionIds @param {number} count
 */
export async function forgeNotifications(url, secret, transactionIds, count) {
	const types = ['identified', 'payment_approved'];
	/** @type {Record<string, number>} */
	const answers = {};
	for (let n = 0; n < count; n += 20) {
		await Promise.all(
			Array.from({ length: Math.min(20, count - n) }, async (_, k) => {
				const index = n + k;
				const answer = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						notification: {
							type: types[index % types.length],
							secret,
							transaction_id: transactionIds[index % transactionIds.length],
						},
					}),
				}).catch((error) => ({ status: String(error.code ?? error.message) }));
				const key = String(answer.status);
				answers[key] = (answers[key] ?? 0) + 1;
				if ('text' in answer) await answer.text();
			}),
		);
	}
	return answers;
}

/**
 * Calls to resume URLs a stranger may try: /webhook-waiting/<id> of the waiting executions (and of
 * ids nearby) without a token, with a random token, with random suffixes, and with n8n's own
 * token where the execution shows it (`resumeToken`: someone who can read executions) but without
 * our signature; GET and POST, with bodies claiming "paid".
 * @param {string} n8nUrl @param {{executionId: string, resumeToken?: string|null}[]} targets
 * @param {number} count
 */
export async function guessResumeUrls(n8nUrl, targets, count) {
	/** @type {Record<string, number>} */
	const answers = {};
	const forms = [
		(/** @type {any} */ t) => `/webhook-waiting/${t.executionId}`,
		(/** @type {any} */ t) =>
			`/webhook-waiting/${t.executionId}?signature=${randomBytes(16).toString('hex')}`,
		(/** @type {any} */ t) => `/webhook-waiting/${t.executionId}/${randomUUID()}`,
		(/** @type {any} */ t) =>
			t.resumeToken
				? `/webhook-waiting/${t.executionId}?signature=${t.resumeToken}`
				: `/webhook-waiting/${t.executionId}?signature=${randomBytes(32).toString('hex')}`,
		(/** @type {any} */ t) => `/webhook-waiting/${Number(t.executionId) + 100000}`,
	];
	for (let n = 0; n < count; n += 20) {
		await Promise.all(
			Array.from({ length: Math.min(20, count - n) }, async (_, k) => {
				const index = n + k;
				const target = targets[index % targets.length];
				const route = forms[index % forms.length](target);
				const post = index % 2 === 0;
				const answer = await fetch(`${n8nUrl}${route}`, {
					method: post ? 'POST' : 'GET',
					headers: post ? { 'content-type': 'application/json' } : {},
					body: post
						? JSON.stringify({
								payload: JSON.stringify({ executionId: target.executionId, paid: true }),
								signature: randomBytes(32).toString('hex'),
								outcome: 'paid',
							})
						: undefined,
				}).catch((error) => ({ status: String(error.code ?? error.message) }));
				const key = String(answer.status);
				answers[key] = (answers[key] ?? 0) + 1;
				if ('text' in answer) await answer.text();
			}),
		);
	}
	return answers;
}

/**
 * The whole scale run. `server` is the n8n (url, apiKey, pid), `sb` its sandbox (sandboxUrl and
 * `control(method, route, body)`), `workflow` a published waitWorkflow (id, path).
 * @param {{
 *   server: {n8nUrl: string, apiKey: string, pid?: number},
 *   sandboxUrl: string,
 *   control: (method: string, route: string, body?: unknown) => Promise<any>,
 *   workflow: {id: string, path: string},
 *   subjectId: string,
 *   count: number, paid: number,
 *   idleSeconds?: number, forgeries?: number, guesses?: number,
 *   forgeUrl?: string | null,
 *   log?: (line: string) => void,
 * }} o
 */
export async function runWaitingScale(o) {
	const log = o.log ?? (() => undefined);
	const idleSeconds = o.idleSeconds ?? 20;
	const figures = /** @type {any} */ ({ count: o.count, paid: o.paid });
	figures.rssIdleMb = rssMb(o.server.pid);
	figures.idleBefore = await idleReads(o.sandboxUrl, Math.min(idleSeconds, 10));
	log(`n8n RSS with 0 waiting: ${figures.rssIdleMb} MB`);

	const startedAt = Date.now();
	const started = await startManyWaiting(o.server.n8nUrl, o.workflow.path, o.subjectId, o.count);
	await untilAllWaiting(o.server, o.workflow.id, o.count, 600_000);
	figures.startSeconds = (Date.now() - startedAt) / 1000;
	log(`${o.count} executions waiting after ${figures.startSeconds.toFixed(1)} s`);

	const cpuBefore = cpuSeconds(o.server.pid);
	figures.idle = await idleReads(o.sandboxUrl, idleSeconds);
	const cpuAfter = cpuSeconds(o.server.pid);
	// n8n's own work while nothing happens: the leases renewed (one short run per waiting execution
	// every ~150 s, docs/waiting.md), on top of n8n's idle cost.
	figures.idleCpuShare =
		cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / figures.idle.seconds;
	figures.rssWaitingMb = rssMb(o.server.pid);
	log(
		`idle with ${o.count} waiting: ${figures.idle.reads} reads in ${figures.idle.seconds.toFixed(1)} s = ${figures.idle.perSecond.toFixed(2)}/s; n8n CPU ${figures.idleCpuShare === null ? '?' : (100 * figures.idleCpuShare).toFixed(1)} % of a core; RSS ${figures.rssWaitingMb} MB`,
	);

	// Strangers: forged notifications (right secret) and guessed resume URLs.
	const readsBefore = await totals(o.sandboxUrl);
	if (o.forgeries && o.forgeUrl) {
		const secret = (await o.control('GET', '/webhook')).data.secret;
		figures.forgedAnswers = await forgeNotifications(
			o.forgeUrl,
			secret,
			started.map((s) => s.transactionId),
			o.forgeries,
		);
		log(`${o.forgeries} forged notifications answered ${JSON.stringify(figures.forgedAnswers)}`);
	}
	if (o.guesses) {
		const sample = started.slice(0, Math.min(started.length, 50));
		const targets = [];
		for (const one of sample) {
			const execution = await getExecution(o.server, one.executionId);
			targets.push({
				executionId: one.executionId,
				resumeToken: execution?.data?.resumeToken ?? null,
			});
		}
		figures.tokensShown = targets.filter((t) => t.resumeToken).length;
		figures.guessAnswers = await guessResumeUrls(o.server.n8nUrl, targets, o.guesses);
		log(`${o.guesses} guessed resume URLs answered ${JSON.stringify(figures.guessAnswers)}`);
	}
	await sleep(5000);
	const readsAfter = await totals(o.sandboxUrl);
	figures.strangerReads = READ_ROUTES.reduce(
		(sum, route) => sum + (readsAfter.counts[route] ?? 0) - (readsBefore.counts[route] ?? 0),
		0,
	);
	figures.strangerSeconds = (readsAfter.at - readsBefore.at) / 1000;
	const stillWaiting = await executionStatuses(o.server, o.workflow.id, { status: 'waiting' });
	figures.movedByStrangers = started.filter((s) => !stillWaiting.has(s.executionId)).length;
	log(
		`after the strangers: ${figures.movedByStrangers} executions moved on; ${figures.strangerReads} API reads in ${figures.strangerSeconds.toFixed(1)} s`,
	);

	// The burst: `paid` charges paid in one go.
	figures.burst = await payInOneCall(o, started, started.slice(0, o.paid), 120_000);
	log(`burst of ${o.paid}: ${JSON.stringify(figures.burst)}`);
	figures.rssAfterMb = rssMb(o.server.pid);
	return { figures, started };
}

/**
 * Pays `toPay` (of the `waiting` executions) in one call to the sandbox and measures how they
 * resumed: latency from FacilitaPay listing each payment to the execution's end (p50/p95/max), how
 * many did not end within `deadlineMs`, ended on another branch than Paid or more than once (the
 * first 60 read in full), and how many of the unpaid ones moved on.
 * @param {{server: {n8nUrl: string, apiKey: string}, sandboxUrl: string, workflow: {id: string},
 *   control: (method: string, route: string, body?: unknown) => Promise<any>}} o
 * @param {Array<{executionId: string, transactionId: string}>} waiting
 * @param {Array<{executionId: string, transactionId: string}>} toPay
 * @param {number} deadlineMs
 */
export async function payInOneCall(o, waiting, toPay, deadlineMs) {
	const burstAt = Date.now();
	await o.control('POST', '/transactions/decide_many', {
		ids: toPay.map((s) => s.transactionId),
		outcome: 'paid',
	});
	const paidIds = new Set(toPay.map((s) => s.executionId));
	const deadline = Date.now() + deadlineMs;
	// Polls the ended ones only (a short list while n8n's database is busy with the burst).
	for (;;) {
		const ended = await executionStatuses(o.server, o.workflow.id, { status: 'success' });
		if (toPay.every((s) => ended.has(s.executionId)) || Date.now() > deadline) break;
		await sleep(2000);
	}
	const statuses = await executionStatuses(o.server, o.workflow.id);
	/** @type {Map<string, number>} */
	const listed = new Map();
	for (const rec of await listedRecords(o.sandboxUrl))
		if (rec.notification?.type === 'identified')
			listed.set(rec.notification.transaction_id, rec.listed_at_ms);
	const latencies = [];
	/** @type {string[]} */
	const notResumed = [];
	/** @type {string[]} */
	const wrong = [];
	for (const one of toPay) {
		const status = statuses.get(one.executionId);
		if (!status?.stoppedAt || status.status !== 'success') {
			notResumed.push(one.executionId);
			continue;
		}
		latencies.push(Date.parse(status.stoppedAt) - (listed.get(one.transactionId) ?? burstAt));
	}
	// Each resumed once, on Paid: read a sample of them in full (all when few).
	const sample = toPay.filter((s) => !notResumed.includes(s.executionId)).slice(0, 60);
	for (const one of sample) {
		const outcome = outcomeOf(await getExecution(o.server, one.executionId));
		if (outcome.branches.join() !== 'Paid' || outcome.branchRuns.Paid !== 1)
			wrong.push(one.executionId);
	}
	const unpaidMoved = waiting.filter(
		(s) => !paidIds.has(s.executionId) && statuses.get(s.executionId)?.status !== 'waiting',
	).length;
	return {
		latencyMs: percentiles(latencies),
		within30s: latencies.filter((ms) => ms <= 30_000).length,
		notResumed: notResumed.length,
		wrongBranch: wrong.length,
		checkedInFull: sample.length,
		unpaidMoved,
		executions: statuses.size,
	};
}
