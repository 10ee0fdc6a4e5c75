// The benchmark's runs, one function per part of BENCH_ONLY. Each prepares the sandbox, runs a
// workflow in n8n and records what it measured in `results` (rows of the table, extra lines,
// profiles) for bench/compare/report.mjs.
import { importIntoN8n } from '../../scripts/n8n-runtime.mjs';
import { execute, importWorkflows, prepareN8n } from './n8n.mjs';
import { startNeutralServer } from './neutral.mjs';
import { fmt, progress } from './output.mjs';
import { gitHead, packCommit } from './package.mjs';
import {
	benchPeople,
	httpNode,
	httpNodeDefaults,
	ourNode,
	payoutBody,
	payoutParameters,
	returnAllWorkflow,
	signInCredentials,
	subjectBody,
	subjectParameters,
	workflow,
} from './workflows.mjs';

/** The token the sandboxes answer (scripts' sandboxCredentials default), typed into the HTTP Request node's header. */
const SANDBOX_TOKEN = 'sandbox-token';

/**
 * @typedef {ReturnType<typeof import('./options.mjs').readOptions>} Options
 * @typedef {Awaited<ReturnType<typeof import('./sandbox.mjs').startBenchSandbox>>} BenchSandbox
 * @typedef {{rows: any[], extra: string[], profiles: Array<{title: string, r: any}>}} Results
 * @typedef {{options: Options, sandbox: BenchSandbox, userFolder: string, runsBase: string, profileDir: string, tarball: string, results: Results}} Bench
 */

/** @param {Results} results @param {string} label @param {any} r */
function record(results, label, r) {
	results.rows.push({ label, ...r });
	progress(
		`${label}: ${fmt(r.itemsPerSecond, 1)} items/s, first request after ${fmt(r.firstRequestAfterMs)} ms, ${r.requests} requests, ${r.limited} × 429, most tries ${r.maxTries}, ${r.duplicates} duplicates, max in flight ${r.maxInFlight}, ok ${r.ok}, failed ${r.failed}${r.firstError ? ` (first error: ${JSON.stringify(r.firstError).slice(0, 200)})` : ''}`,
	);
}

/** @param {Results} results @param {string} line */
function note(results, line) {
	results.extra.push(line);
	progress(line);
}

/** Runs `wf` (already imported) in the bench's n8n. @param {Bench} bench @param {any} wf @param {{items: number, profile?: boolean, userFolder?: string}} options */
const run = (bench, wf, { items, profile = false, userFolder = bench.userFolder }) =>
	execute(userFolder, wf, {
		items,
		facts: bench.sandbox.facts,
		profileDir: profile ? bench.profileDir : undefined,
	});

/** The Subject create workflows (and Return All), imported once. @param {Bench} bench */
export function subjectWorkflows(bench) {
	const { items, high } = bench.options;
	const people = benchPeople(items);
	return {
		c1: workflow('bench-subject-c1', people, ourNode(subjectParameters, 1)),
		cDefault: workflow('bench-subject-default', people, ourNode(subjectParameters, undefined)),
		cHigh: workflow('bench-subject-high', people, ourNode(subjectParameters, high)),
		http: workflow(
			'bench-subject-http',
			people,
			httpNodeDefaults(bench.sandbox.url, '/subject/people', subjectBody, SANDBOX_TOKEN),
		),
		returnAll: returnAllWorkflow(),
	};
}

/** Subject create at Max Parallel Requests 1, the default and high, and the HTTP Request node. @param {Bench} bench @param {ReturnType<typeof subjectWorkflows>} wfs */
export async function latency(bench, wfs) {
	for (const [key, label] of /** @type {const} */ ([
		['c1', 'FacilitaPay, Max Parallel Requests 1'],
		['cDefault', 'FacilitaPay, default (20)'],
		['cHigh', `FacilitaPay, Max Parallel Requests ${bench.options.high}`],
		['http', 'HTTP Request node (default options)'],
	])) {
		await bench.sandbox.prepare();
		const r = await run(bench, wfs[key], { items: bench.options.items });
		r.created = r.subjects;
		record(bench.results, `Subject create: ${label}`, r);
	}
}

/**
 * One payout run: people seeded, a workflow paying each of them imported, then run with the rate
 * limit `rate` (0: none).
 * @param {Bench} bench @param {string} label @param {any} node @param {{rate?: number, id: string}} options
 */
async function payoutRun(bench, label, node, { rate = 0, id }) {
	const { items } = bench.options;
	const ids = await bench.sandbox.prepare({ seed: items, rate: 0 });
	const wf = workflow(
		id,
		ids.map((subjectId) => ({ subjectId })),
		node,
	);
	await importWorkflows(bench.userFolder, [wf]);
	// The seeding happened without limit; now the limit and fresh counters.
	await bench.sandbox.forgetRequests();
	await bench.sandbox.rateLimit(rate);
	const r = await run(bench, wf, { items });
	r.created = r.transactions;
	record(bench.results, label, r);
	return r;
}

/** Payouts at the default and high Max Parallel Requests. @param {Bench} bench */
export async function payout(bench) {
	const { high } = bench.options;
	await payoutRun(bench, 'Payout: FacilitaPay, default (20)', ourNode(payoutParameters), {
		id: 'bench-payout-default',
	});
	await payoutRun(
		bench,
		`Payout: FacilitaPay, Max Parallel Requests ${high}`,
		ourNode(payoutParameters, high),
		{ id: 'bench-payout-high' },
	);
}

/** Payouts under the sandbox's rate limit: our node and the HTTP Request node. @param {Bench} bench */
export async function ratelimit(bench) {
	const { rate } = bench.options;
	await payoutRun(
		bench,
		`Payout at ${rate} req/s: FacilitaPay, default (20)`,
		ourNode(payoutParameters),
		{ rate, id: 'bench-payout-limited' },
	);
	await payoutRun(
		bench,
		`Payout at ${rate} req/s: HTTP Request node`,
		httpNodeDefaults(bench.sandbox.url, '/transactions', payoutBody, SANDBOX_TOKEN),
		{ rate, id: 'bench-payout-limited-http' },
	);
}

/**
 * Username and password credentials; the session token (from an earlier execution) expires while
 * Max Parallel Requests `high` are in flight.
 * @param {Bench} bench
 */
export async function signin(bench) {
	const { items, high } = bench.options;
	const { sandbox, userFolder, results } = bench;
	const login = signInCredentials(sandbox.url);
	await importIntoN8n('credentials', [login], { version: 'v2', userFolder });
	const loginRef = { id: login.id, name: login.name };
	const people = benchPeople(items);
	const wf = workflow('bench-subject-signin', people, ourNode(subjectParameters, high), loginRef);
	// An earlier execution signed in: n8n keeps its session token with the credentials.
	const warmUp = workflow(
		'bench-signin-warm-up',
		people.slice(0, 1),
		ourNode(subjectParameters),
		loginRef,
	);
	await importWorkflows(userFolder, [wf, warmUp]);
	await sandbox.prepare();
	await run(bench, warmUp, { items: 1 });
	await sandbox.forgetRequests();
	await sandbox.rateLimit(0);
	/** @type {number|undefined} */
	let expiredAfter;
	const watcher = setInterval(() => {
		const answered = sandbox.sandbox.state.requests.filter((/** @type {any} */ e) =>
			e.url.startsWith('/api/v1/subject/people'),
		).length;
		if (expiredAfter === undefined && answered >= items / 3) {
			expiredAfter = answered;
			// Every token issued so far is now older than its 24 hours.
			sandbox.sandbox.clock.advance(25 * 3600 * 1000).catch(() => {});
		}
	}, 5);
	const r = await run(bench, wf, { items }).finally(() => clearInterval(watcher));
	r.created = r.subjects;
	const signIns = r.log.filter((/** @type {any} */ e) => e.url.startsWith('/api/v1/sign_in'));
	const refused = r.log.filter((/** @type {any} */ e) => e.status === 401).length;
	record(
		results,
		`Subject create, sign-in credentials, token expires mid-run: Max Parallel Requests ${high}`,
		r,
	);
	if (bench.options.debug) debugRequests(r);
	note(
		results,
		`Token (from an earlier execution) expiring with ${high} requests in flight (the clock moved 25 h after ${expiredAfter} requests): ${signIns.length} sign-ins (${signIns.map((/** @type {any} */ e) => e.status).join(', ')}), ${refused} requests refused with 401 and sent again`,
	);
}

/** BENCH_DEBUG: the errors, the requests answered 2xx more than once, every status in order. @param {any} r */
function debugRequests(r) {
	progress(JSON.stringify(r.errors, null, 1));
	/** @type {Map<string, number[]>} */
	const statuses = new Map();
	for (const e of r.log) {
		const key = `${e.url} ${JSON.stringify(e.body)}`;
		statuses.set(key, [...(statuses.get(key) ?? []), e.status]);
	}
	const twice = [...statuses].filter(([, list]) => list.filter((x) => x < 300).length > 1);
	progress(JSON.stringify(twice));
	progress(r.log.map((/** @type {any} */ e) => e.status).join(' '));
}

/** Subject → Get Many, Return All, over BENCH_PEOPLE people. @param {Bench} bench @param {ReturnType<typeof subjectWorkflows>} wfs */
export async function returnall(bench, wfs) {
	const { people } = bench.options;
	progress(`seeding ${people} people`);
	await bench.sandbox.prepare({ seed: people });
	await bench.sandbox.forgetRequests();
	const r = await run(bench, wfs.returnAll, { items: 1 });
	const pages = r.log.filter(
		(/** @type {any} */ e) =>
			e.method === 'GET' && e.url.split('?')[0] === '/api/v1/subject/people',
	);
	note(
		bench.results,
		`Return All (Subject > Get Many) over ${people} people: ${r.outputItems} items out, ${pages.length} requests (${r.requests} in all), ${fmt(r.ms)} ms`,
	);
}

/** Subject create at the default setting under the CPU profiler. @param {Bench} bench @param {ReturnType<typeof subjectWorkflows>} wfs */
export async function profile(bench, wfs) {
	const { items } = bench.options;
	await bench.sandbox.prepare();
	const r = await run(bench, wfs.cDefault, { items, profile: true });
	bench.results.profiles.push({
		title: `now (${gitHead()}), Subject create, default (20), ${items} items, ${fmt(r.itemsPerSecond, 1)} items/s under the profiler`,
		r,
	});
	progress(`profiled: ${r.profileFile}`);
}

/** The build of BENCH_BEFORE, Subject create at its default, profiled. @param {Bench} bench */
export async function before(bench) {
	const { items, before: commit } = bench.options;
	if (!commit) return;
	const folder = await prepareN8n(
		bench.runsBase,
		'before',
		await packCommit(commit),
		bench.sandbox.url,
	);
	const wf = workflow('bench-subject-before', benchPeople(items), ourNode(subjectParameters));
	await importWorkflows(folder, [wf]);
	await bench.sandbox.prepare();
	const r = await run(bench, wf, { items, profile: true, userFolder: folder });
	r.created = r.subjects;
	record(bench.results, `Subject create: before (${commit}), profiled`, r);
	bench.results.profiles.push({
		title: `before (${commit}), Subject create, ${items} items, ${fmt(r.itemsPerSecond, 1)} items/s under the profiler`,
		r,
	});
}

/**
 * Subject create on the neutral stand-in (a plain server answering after the same latency, checking
 * nothing): our node at the default and high Max Parallel Requests beside the HTTP Request node, in
 * an n8n user folder of its own whose credentials point at the stand-in.
 * @param {Bench} bench
 */
export async function neutral(bench) {
	const { items, high, latencyMs } = bench.options;
	const server = await startNeutralServer({ latencyMs });
	try {
		const userFolder = await prepareN8n(bench.runsBase, 'neutral', bench.tarball, server.url);
		const people = benchPeople(items);
		const runs = /** @type {const} */ ([
			['default (20)', workflow('bench-neutral-default', people, ourNode(subjectParameters))],
			[
				`Max Parallel Requests ${high}`,
				workflow('bench-neutral-high', people, ourNode(subjectParameters, high)),
			],
			[
				'HTTP Request node (default options)',
				workflow(
					'bench-neutral-http',
					people,
					httpNodeDefaults(server.url, '/subject/people', subjectBody, SANDBOX_TOKEN),
				),
			],
			[
				'HTTP Request node (FacilitaPay credential)',
				workflow(
					'bench-neutral-http-credential',
					people,
					httpNode(server.url, '/subject/people', subjectBody),
				),
			],
		]);
		await importWorkflows(
			userFolder,
			runs.map(([, wf]) => wf),
		);
		for (const [label, wf] of runs) {
			server.reset();
			const r = await execute(userFolder, wf, { items, facts: server.facts });
			r.created = r.subjects;
			record(
				bench.results,
				`Neutral stand-in, Subject create: ${label.startsWith('HTTP') ? label : `FacilitaPay, ${label}`}`,
				r,
			);
		}
	} finally {
		await server.close();
	}
}
