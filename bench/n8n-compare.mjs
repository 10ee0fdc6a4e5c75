// Benchmark in a REAL n8n 2.41.1 (`n8n execute` of imported workflows), against the in-process
// sandbox with injected latency: the FacilitaPay node at Max Parallel Requests 1, the default and a
// high setting, beside n8n's own HTTP Request node sending the same requests (FacilitaPay
// credentials as its predefined credential type; its default batching: every item at once); the
// same under the sandbox's rate limit (20 requests/s per token, 429 + Retry-After); Return All over
// 10,000 people; and a CPU profile of the n8n process running our node, now and at an older commit.
// Prints numbers; asserts nothing.
//
//   npm run bench                                   (builds, then this and bench/node-throughput.mjs)
//   node bench/n8n-compare.mjs                      (after npm run build)
//
// Environment:
//   BENCH_ITEMS=1000        items per run
//   BENCH_LATENCY_MS=50     latency the sandbox adds to every API request
//   BENCH_HIGH=100          the "high" Max Parallel Requests (1..100)
//   BENCH_RATE=20           the rate limit, requests per second per token (burst = the same)
//   BENCH_ONLY=latency,payout,ratelimit,signin,returnall,profile,before   a subset (default: all)
//   BENCH_BEFORE=e326396    commit profiled as "before" (built from `git archive` in $TMPDIR); none: skip
//   BENCH_PEOPLE=10000      people listed by the Return All run
//   BENCH_KEEP=1            keep the n8n user folders (printed)
//   BENCH_OUT=.cache/bench  where the .cpuprofile files go (one folder per run)
//   FACILITAPAY_TARBALL     use this packed .tgz instead of packing the current build
//   FACILITAPAY_CACHE_DIR, FACILITAPAY_E2E_DIR: as for the e2e tests (docs/real-n8n.md)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import {
	E2E_RUNS_DIR,
	ROOT,
	ensureN8n,
	executeWorkflow,
	importIntoN8n,
	installPackageInto,
	nodeOutput,
	removeUserFolder,
	run,
	sandboxCredentials,
} from '../scripts/n8n-runtime.mjs';
import { actionStep, chainWorkflow, codeStep, validCpf } from '../test/e2e/lib/n8n-e2e.mjs';
import { ACCOUNTS, control } from '../test/integration/lib/harness.mjs';
import { createSandbox } from '../sandbox/server.mjs';
import { formatSummary, summarise } from './cpuprofile-top.mjs';

const N = Number(process.env.BENCH_ITEMS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const HIGH = Number(process.env.BENCH_HIGH ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 10_000);
const BEFORE = process.env.BENCH_BEFORE ?? 'e326396';
const ALL_PARTS = ['latency', 'payout', 'ratelimit', 'signin', 'returnall', 'profile', 'before'];
const ONLY = new Set(
	(process.env.BENCH_ONLY ?? ALL_PARTS.join(','))
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean),
);
const KEEP = process.env.BENCH_KEEP === '1';
const CREDENTIALS = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };
const startedAt = performance.now();

const say = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line) => process.stderr.write(`[bench] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// The package, now and before

/** `npm pack` of the current build (npm run bench built it) into a folder of its own. */
async function packCurrent(dir) {
	if (process.env.FACILITAPAY_TARBALL) return path.resolve(process.env.FACILITAPAY_TARBALL);
	fs.mkdirSync(dir, { recursive: true });
	await run('npm', ['pack', '--pack-destination', dir], { logFile: path.join(dir, 'pack.log') });
	return path.join(
		dir,
		fs.readdirSync(dir).find((f) => f.endsWith('.tgz')),
	);
}

/** The package as it was at `commit`: `git archive` into $TMPDIR, built with our node_modules, packed (kept for the next run). */
async function packCommit(commit) {
	const dir = path.join(os.tmpdir(), `facilitapay-bench-${commit}`);
	const packDir = path.join(dir, 'pack');
	const packed = fs.existsSync(packDir)
		? fs.readdirSync(packDir).find((f) => f.endsWith('.tgz'))
		: undefined;
	if (packed) return path.join(packDir, packed);
	const src = path.join(dir, 'src');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(src, { recursive: true });
	const archive = spawnSync(
		'sh',
		['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${src}"`],
		{ encoding: 'utf8' },
	);
	if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
	// Same devDependencies as today (checked: package.json and the lock are unchanged since e326396).
	fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(src, 'node_modules'), 'dir');
	fs.mkdirSync(packDir, { recursive: true });
	progress(`building ${commit} in ${src}`);
	await run('npm', ['run', 'build'], { cwd: src, logFile: path.join(dir, 'build.log') });
	await run('npm', ['pack', '--pack-destination', packDir], {
		cwd: src,
		logFile: path.join(dir, 'build.log'),
	});
	return path.join(
		packDir,
		fs.readdirSync(packDir).find((f) => f.endsWith('.tgz')),
	);
}

// ---------------------------------------------------------------------------------------------
// Workflows: Manual Trigger → Code (the N input items) → the node under test

const people = Array.from({ length: N }, (_, k) => ({
	documentNumber: validCpf(k + 1),
	socialName: `Bench Person ${k + 1}`,
}));

function itemsStep(rows) {
	return codeStep(
		'Items',
		`const rows = ${JSON.stringify(rows)};\nreturn rows.map((json) => ({ json }));`,
	);
}

/** Our node. `concurrency` undefined: the option is not set (the default). */
function ourNode(parameters, concurrency) {
	return actionStep(
		'Node',
		{ ...parameters, ...(concurrency === undefined ? {} : { requestOptions: { concurrency } }) },
		{ onError: 'continueRegularOutput' },
	);
}

/** n8n's HTTP Request node with the FacilitaPay credentials (predefined credential type). */
function httpNode(sandboxUrl, apiPath, jsonBodyExpression) {
	return {
		name: 'Node',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/api/v1${apiPath}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'facilitaPayApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: jsonBodyExpression,
			options: {},
		},
	};
}

function workflow(id, rows, node) {
	const wf = chainWorkflow({
		id,
		name: `bench ${id}`,
		steps: [itemsStep(rows), node],
		credentials: CREDENTIALS,
	});
	const last = wf.nodes[wf.nodes.length - 1];
	if (!last.credentials) last.credentials = { facilitaPayApi: CREDENTIALS };
	return wf;
}

const subjectParameters = {
	resource: 'subject',
	operation: 'create',
	documentType: 'cpf',
	documentNumber: '={{ $json.documentNumber }}',
	socialName: '={{ $json.socialName }}',
	fiscalCountry: 'BR',
	additionalFields: {},
};
const subjectBody =
	'={{ JSON.stringify({ person: { document_type: "cpf", document_number: $json.documentNumber, social_name: $json.socialName, fiscal_country: "BR" } }) }}';
const payoutParameters = {
	resource: 'transaction',
	operation: 'createPayout',
	subjectId: '={{ $json.subjectId }}',
	value: '10.00',
	currency: 'USD',
	exchangeCurrency: 'BRL',
	fromBankAccountId: ACCOUNTS.usdCashOut,
	toBankAccountId: ACCOUNTS.brlCustomer,
};
const payoutBody = `={{ JSON.stringify({ transaction: { subject_id: $json.subjectId, from_bank_account_id: "${ACCOUNTS.usdCashOut}", to_bank_account_id: "${ACCOUNTS.brlCustomer}", currency: "USD", exchange_currency: "BRL", value: "10.00" } }) }}`;

// ---------------------------------------------------------------------------------------------
// The sandbox

const sandbox = await createSandbox({ port: 0 });
await sandbox.listen();
const sb = control(sandbox.url);

async function controlOk(method, route, body) {
	const answer = method === 'DELETE' ? await sb.del(route) : await sb.post(route, body);
	if (answer?.errors)
		throw new Error(`${method} /_sandbox${route} refused: ${JSON.stringify(answer.errors)}`);
	return answer;
}

/** Registers `count` people through the control API (not logged, no latency, no rate limit). */
async function seedPeople(count) {
	const ids = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (next < count) {
				const k = next++;
				const { data } = await controlOk('POST', '/subjects', {
					subject: {
						document_type: 'cpf',
						document_number: validCpf(k + 1),
						social_name: `Seeded Person ${k + 1}`,
						fiscal_country: 'BR',
					},
				});
				ids[k] = data.id;
			}
		}),
	);
	return ids;
}

/** Empty sandbox, latency on every API request, the rate limit on or off (counters reset). */
async function prepareSandbox({ rate = 0, seed = 0 } = {}) {
	await controlOk('POST', '/reset');
	const ids = seed > 0 ? await seedPeople(seed) : [];
	if (LATENCY_MS > 0)
		await controlOk('POST', '/faults', { route: '*', kind: 'latency', ms: LATENCY_MS });
	await controlOk('POST', '/rate_limit', { per_second: rate, burst: rate || undefined });
	return ids;
}

/** What the sandbox saw since the last prepareSandbox(). */
function sandboxFacts() {
	const log = sandbox.state.requests;
	const created = new Map();
	for (const entry of log) {
		if (
			entry.method !== 'POST' ||
			!(entry.status >= 200 && entry.status < 300) ||
			entry.url.startsWith('/api/v1/sign_in')
		)
			continue;
		const key = `${entry.url} ${JSON.stringify(entry.body)}`;
		created.set(key, (created.get(key) ?? 0) + 1);
	}
	let duplicates = 0;
	for (const count of created.values()) duplicates += count - 1;
	// The most times one request body was sent (first try and retries; 429s included).
	const tries = new Map();
	for (const entry of log) {
		if (entry.method !== 'POST') continue;
		const key = `${entry.url} ${JSON.stringify(entry.body)}`;
		tries.set(key, (tries.get(key) ?? 0) + 1);
	}
	const maxTries = Math.max(0, ...tries.values());
	const gauge = sandbox.ctx.rateLimit.view();
	return {
		requests: log.length,
		limited: log.filter((e) => e.status === 429).length,
		duplicates,
		maxTries,
		maxInFlight: gauge.max_in_flight,
		firstArrivalAt: gauge.first_arrival_at,
		lastAnswerAt: gauge.last_answer_at,
		subjects: sandbox.state.subjects.size,
		transactions: sandbox.state.transactions.size,
		log,
	};
}

// ---------------------------------------------------------------------------------------------
// n8n

const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
const runsBase = path.join(E2E_RUNS_DIR, `bench-${stamp}`);
/** Profiles are kept (git-ignored) after the user folders are removed. */
const profileDir = path.join(process.env.BENCH_OUT ?? path.join(ROOT, '.cache', 'bench'), stamp);
// Also when a run fails half way.
if (!KEEP) process.once('exit', () => removeUserFolder(runsBase));

async function prepareN8n(name, tarball) {
	const userFolder = path.join(runsBase, name);
	fs.mkdirSync(userFolder, { recursive: true });
	installPackageInto(userFolder, tarball);
	await importIntoN8n('credentials', [sandboxCredentials({ baseUrl: `${sandbox.url}/api/v1` })], {
		version: 'v2',
		userFolder,
	});
	return userFolder;
}

/** Maps a wall-clock time (ms since 1970) to the profile clock (CLOCK_MONOTONIC µs). */
function monotonicMicros(epochMs) {
	const nowEpochMicros = Date.now() * 1000;
	const nowMonoMicros = Number(process.hrtime.bigint() / 1000n);
	return epochMs * 1000 - (nowEpochMicros - nowMonoMicros);
}

/**
 * Runs one imported workflow with `n8n execute`, returns the node's timing and output counts with
 * what the sandbox saw. `profile`: run n8n under --cpu-prof and summarise the node's window.
 */
async function execute(userFolder, wf, { items, profile } = {}) {
	const env = {};
	let dir;
	if (profile) {
		dir = path.join(profileDir, `${path.basename(userFolder)}-${wf.id}`);
		fs.mkdirSync(dir, { recursive: true });
		env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir}`;
	}
	const result = await executeWorkflow(wf.id, { version: 'v2', userFolder, env });
	const root = result.runData?.data ?? result.runData;
	const runs = root?.resultData?.runData?.Node;
	if (!runs) {
		throw new Error(
			`n8n ran no "Node" in ${wf.id} (exit ${result.code}).\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
		);
	}
	const task = runs[runs.length - 1];
	const output = nodeOutput(result.runData, 'Node');
	const list = Array.isArray(output) ? output : [];
	const failed = list.filter((json) => json && typeof json === 'object' && 'error' in json);
	const facts = sandboxFacts();
	const out = {
		ms: task.executionTime,
		// From the node's start to the first request the sandbox received: reading and checking items.
		firstRequestAfterMs:
			facts.firstArrivalAt === null ? undefined : facts.firstArrivalAt - task.startTime,
		itemsPerSecond: (items * 1000) / task.executionTime,
		outputItems: list.length,
		ok: list.length - failed.length,
		failed: failed.length,
		firstError: failed[0]?.error ?? task.error?.message,
		errors: [
			...failed.reduce(
				(m, json) =>
					m.set(
						String(json.error).slice(0, 160),
						(m.get(String(json.error).slice(0, 160)) ?? 0) + 1,
					),
				new Map(),
			),
		],
		nodeError: task.error ? String(task.error.message ?? task.error) : undefined,
		...facts,
	};
	if (profile) {
		const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
		// The n8n process is the biggest profile (the task runner's, if any, is small).
		const biggest = files
			.map((f) => path.join(dir, f))
			.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
		if (biggest) {
			const parsed = JSON.parse(fs.readFileSync(biggest, 'utf8'));
			const from = monotonicMicros(task.startTime);
			out.profile = summarise(parsed, { from, to: from + task.executionTime * 1000, top: 10 });
			if (out.firstRequestAfterMs !== undefined) {
				// The phase before the first request: every item read and checked.
				out.prepareProfile = summarise(parsed, {
					from,
					to: from + out.firstRequestAfterMs * 1000,
					top: 5,
				});
			}
			out.profileFile = biggest;
		}
	}
	return out;
}

// ---------------------------------------------------------------------------------------------
// The runs

const rows = [];
const extra = [];
const profiles = [];
const fmt = (x, digits = 0) =>
	x === undefined || x === null || Number.isNaN(x) ? '–' : Number(x).toFixed(digits);

function record(label, r) {
	rows.push({ label, ...r });
	progress(
		`${label}: ${fmt(r.itemsPerSecond, 1)} items/s, first request after ${fmt(r.firstRequestAfterMs)} ms, ${r.requests} requests, ${r.limited} × 429, most tries ${r.maxTries}, ${r.duplicates} duplicates, max in flight ${r.maxInFlight}, ok ${r.ok}, failed ${r.failed}${r.firstError ? ` (first error: ${JSON.stringify(r.firstError).slice(0, 200)})` : ''}`,
	);
}

await ensureN8n('v2');
const tarball = await packCurrent(path.join(runsBase, 'pack'));
const userFolder = await prepareN8n('now', tarball);
say(
	`FacilitaPay node in a real n8n 2.41.1 (n8n execute), sandbox with ${LATENCY_MS} ms latency per API request, ${N} items per run`,
);
say(
	`machine: ${os.cpus().length} cores, load average ${os
		.loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}; n8n user folders in ${runsBase}`,
);

const sandboxUrl = sandbox.url;
const wfs = {
	c1: workflow('bench-subject-c1', people, ourNode(subjectParameters, 1)),
	cDefault: workflow('bench-subject-default', people, ourNode(subjectParameters, undefined)),
	cHigh: workflow('bench-subject-high', people, ourNode(subjectParameters, HIGH)),
	http: workflow(
		'bench-subject-http',
		people,
		httpNode(sandboxUrl, '/subject/people', subjectBody),
	),
	returnAll: workflow(
		'bench-return-all',
		[{}],
		actionStep(
			'Node',
			{ resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
			{ executeOnce: true },
		),
	),
};
// Payout workflows carry the ids of the people seeded right before their run: imported then.
await importIntoN8n('workflow', Object.values(wfs), { version: 'v2', userFolder });

async function payoutRun(label, node, { rate = 0, id }) {
	const ids = await prepareSandbox({ seed: N, rate: 0 });
	const wf = workflow(
		id,
		ids.map((subjectId) => ({ subjectId })),
		node,
	);
	await importIntoN8n('workflow', [wf], { version: 'v2', userFolder });
	// The seeding happened without limit; now the limit and fresh counters.
	await controlOk('DELETE', '/requests');
	await controlOk('POST', '/rate_limit', { per_second: rate, burst: rate || undefined });
	const r = await execute(userFolder, wf, { items: N });
	r.created = r.transactions;
	record(label, r);
	return r;
}

if (ONLY.has('latency')) {
	for (const [key, label] of [
		['c1', 'FacilitaPay, Max Parallel Requests 1'],
		['cDefault', 'FacilitaPay, default (20)'],
		['cHigh', `FacilitaPay, Max Parallel Requests ${HIGH}`],
		['http', 'HTTP Request node (all at once)'],
	]) {
		await prepareSandbox();
		const r = await execute(userFolder, wfs[key], { items: N });
		r.created = r.subjects;
		record(`Subject create: ${label}`, r);
	}
}
if (ONLY.has('payout')) {
	await payoutRun('Payout: FacilitaPay, default (20)', ourNode(payoutParameters, undefined), {
		id: 'bench-payout-default',
	});
	await payoutRun(
		`Payout: FacilitaPay, Max Parallel Requests ${HIGH}`,
		ourNode(payoutParameters, HIGH),
		{ id: 'bench-payout-high' },
	);
}
if (ONLY.has('ratelimit')) {
	await payoutRun(
		`Payout at ${RATE} req/s: FacilitaPay, default (20)`,
		ourNode(payoutParameters, undefined),
		{ rate: RATE, id: 'bench-payout-limited' },
	);
	await payoutRun(
		`Payout at ${RATE} req/s: HTTP Request node`,
		httpNode(sandboxUrl, '/transactions', payoutBody),
		{ rate: RATE, id: 'bench-payout-limited-http' },
	);
}
if (ONLY.has('signin')) {
	// Username and password credentials; the session token expires while Max Parallel Requests 100 are in flight.
	const login = { id: 'facilitapay-sandbox-login', name: 'FacilitaPay Sandbox (sign-in)' };
	await importIntoN8n(
		'credentials',
		[
			{
				...login,
				type: 'facilitaPayApi',
				data: {
					environment: 'custom',
					baseUrl: `${sandbox.url}/api/v1`,
					authentication: 'usernamePassword',
					username: 'sandbox',
					password: 'sandbox',
				},
			},
		],
		{ version: 'v2', userFolder },
	);
	const wf = chainWorkflow({
		id: 'bench-subject-signin',
		name: 'bench sign-in',
		steps: [itemsStep(people), ourNode(subjectParameters, HIGH)],
		credentials: login,
	});
	// An earlier execution signed in: n8n keeps its session token with the credentials.
	const warmUp = chainWorkflow({
		id: 'bench-signin-warm-up',
		name: 'bench sign-in warm-up',
		steps: [itemsStep(people.slice(0, 1)), ourNode(subjectParameters)],
		credentials: login,
	});
	await importIntoN8n('workflow', [wf, warmUp], { version: 'v2', userFolder });
	await prepareSandbox();
	await execute(userFolder, warmUp, { items: 1 });
	await controlOk('DELETE', '/requests');
	await controlOk('POST', '/rate_limit', { per_second: 0 });
	let expiredAfter;
	const watcher = setInterval(() => {
		const answered = sandbox.state.requests.filter((e) =>
			e.url.startsWith('/api/v1/subject/people'),
		).length;
		if (expiredAfter === undefined && answered >= N / 3) {
			expiredAfter = answered;
			// Every token issued so far is now older than its 24 hours.
			sandbox.clock.advance(25 * 3600 * 1000).catch(() => {});
		}
	}, 5);
	const r = await execute(userFolder, wf, { items: N });
	clearInterval(watcher);
	r.created = r.subjects;
	const signIns = r.log.filter((e) => e.url.startsWith('/api/v1/sign_in'));
	const refused = r.log.filter((e) => e.status === 401).length;
	record(
		`Subject create, sign-in credentials, token expires mid-run: Max Parallel Requests ${HIGH}`,
		r,
	);
	if (process.env.BENCH_DEBUG) {
		progress(JSON.stringify(r.errors, null, 1));
		const per = new Map();
		for (const e of r.log)
			per.set(`${e.url} ${JSON.stringify(e.body)}`, [
				...(per.get(`${e.url} ${JSON.stringify(e.body)}`) ?? []),
				e.status,
			]);
		progress(
			JSON.stringify([...per.entries()].filter(([, v]) => v.filter((x) => x < 300).length > 1)),
		);
		progress(JSON.stringify(r.log.map((e) => e.status).join(' ')));
	}
	extra.push(
		`Token (from an earlier execution) expiring with ${HIGH} requests in flight (the clock moved 25 h after ${expiredAfter} requests): ${signIns.length} sign-ins (${signIns.map((e) => e.status).join(', ')}), ${refused} requests refused with 401 and sent again`,
	);
	progress(extra[extra.length - 1]);
}
if (ONLY.has('returnall')) {
	progress(`seeding ${PEOPLE} people`);
	await prepareSandbox({ seed: PEOPLE });
	await controlOk('DELETE', '/requests');
	const r = await execute(userFolder, wfs.returnAll, { items: 1 });
	const pages = r.log.filter(
		(e) => e.method === 'GET' && e.url.split('?')[0] === '/api/v1/subject/people',
	);
	extra.push(
		`Return All (Subject > Get Many) over ${PEOPLE} people: ${r.outputItems} items out, ${pages.length} requests (${r.requests} in all), ${fmt(r.ms)} ms`,
	);
	progress(extra[extra.length - 1]);
}
if (ONLY.has('profile')) {
	await prepareSandbox();
	const r = await execute(userFolder, wfs.cDefault, { items: N, profile: true });
	profiles.push({
		title: `now (${gitHead()}), Subject create, default (20), ${N} items, ${fmt(r.itemsPerSecond, 1)} items/s under the profiler`,
		r,
	});
	progress(`profiled: ${r.profileFile}`);
}
if (ONLY.has('before') && BEFORE !== 'none') {
	const beforeTarball = await packCommit(BEFORE);
	const beforeFolder = await prepareN8n('before', beforeTarball);
	const wf = workflow(
		'bench-subject-before',
		people,
		actionStep('Node', subjectParameters, { onError: 'continueRegularOutput' }),
	);
	await importIntoN8n('workflow', [wf], { version: 'v2', userFolder: beforeFolder });
	await prepareSandbox();
	const r = await execute(beforeFolder, wf, { items: N, profile: true });
	r.created = r.subjects;
	record(`Subject create: before (${BEFORE}), profiled`, r);
	profiles.push({
		title: `before (${BEFORE}), Subject create, ${N} items, ${fmt(r.itemsPerSecond, 1)} items/s under the profiler`,
		r,
	});
}

function gitHead() {
	return spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], {
		encoding: 'utf8',
	}).stdout.trim();
}

// ---------------------------------------------------------------------------------------------
// The report

say();
say(
	'| Run | items/s | node ms | 1st request after ms | requests received | 429s | most tries of one item | duplicates | max in flight | created | items ok / failed |',
);
say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
	say(
		`| ${r.label} | ${fmt(r.itemsPerSecond, 1)} | ${fmt(r.ms)} | ${fmt(r.firstRequestAfterMs)} | ${r.requests} | ${r.limited} | ${r.maxTries} | ${r.duplicates} | ${r.maxInFlight} | ${r.created} | ${r.ok} / ${r.failed}${r.nodeError ? ` (node error: ${r.nodeError.slice(0, 80)})` : ''} |`,
	);
}
say();
say(
	"items/s: items ÷ the node's own execution time in n8n's run data (node ms). 1st request after: from the node's start to the",
);
say(
	'first request the sandbox received (reading and checking the items). requests, 429s, max in flight (a gauge in sandbox/rateLimit.mjs:',
);
say(
	'requests from arrival, injected latency included, to the answer) and duplicates (the same POST body answered 2xx more than once)',
);
say(
	'are counted by the sandbox; most tries: the most times one request body was sent (our node gives up on an item after 12 × 429);',
);
say('created: subjects or transactions the sandbox holds after the run.');
const by = (prefix) => rows.find((r) => r.label.startsWith(prefix));
const ratio = (a, b) => (a && b ? `${(a.itemsPerSecond / b.itemsPerSecond).toFixed(2)}×` : '–');
const c1 = by('Subject create: FacilitaPay, Max Parallel Requests 1');
const cd = by('Subject create: FacilitaPay, default');
const ch = by(`Subject create: FacilitaPay, Max Parallel Requests ${HIGH}`);
const http = by('Subject create: HTTP Request');
const limited = by(`Payout at ${RATE} req/s: FacilitaPay`);
const duplicates = rows.reduce((sum, r) => sum + r.duplicates, 0);
say();
say('Targets (issue 10):');
if (cd && c1) say(`  default vs Max Parallel Requests 1: ${ratio(cd, c1)} (target ≥ 8×)`);
if (ch && http)
	say(`  Max Parallel Requests ${HIGH} vs HTTP Request node: ${ratio(ch, http)} (target ≥ 0.8×)`);
if (cd && http) say(`  default vs HTTP Request node: ${ratio(cd, http)}`);
if (limited)
	say(
		`  at ${RATE} req/s: ${limited.ok}/${N} items succeeded at ${fmt(limited.itemsPerSecond, 1)} items/s (target ${N}/${N} at ≥ 18 items/s)`,
	);
say(`  duplicate creates over all runs: ${duplicates} (target 0)`);
for (const line of extra) {
	say(
		`  ${line} (target: ${line.startsWith('Return All') ? `exactly ${PEOPLE / 100 + 1} requests` : 'at most 2 sign-ins per token expiry'})`,
	);
}
for (const { title, r } of profiles) {
	say();
	if (!r.profile) {
		say(`${title}: no profile was written`);
		continue;
	}
	say(
		`CPU profile of the n8n process (n8n execute), only the samples while the node ran; ${fmt(r.profile.busyMs / N, 2)} ms of CPU per item`,
	);
	for (const line of formatSummary(r.profile, title)) say(line);
	if (r.prepareProfile) {
		const lines = formatSummary(
			r.prepareProfile,
			`  of which before the first request reached the sandbox (${fmt(r.firstRequestAfterMs)} ms)`,
		);
		for (const line of lines) say(`  ${line}`);
	}
	say(`  file: ${r.profileFile}`);
}
say();
say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);

await sandbox.close();
