// Benchmark in a REAL n8n 2.41.1 (`n8n execute` of imported workflows), against the in-process
// sandbox with injected latency and, for the part where n8n rather than the service is the limit,
// a neutral stand-in (bench/compare/neutral.mjs: answers after the same latency, checks nothing): the FacilitaPay node at Max Parallel Requests 1, the default and a
// high setting, beside n8n's own HTTP Request node sending the same requests as a user adds it (its
// default version and options: Authentication None, the bearer token in a header, every item at
// once; on the neutral stand-in also with the FacilitaPay credential, the earlier baseline); the
// same under the sandbox's rate limit (20 requests/s per token, 429 + Retry-After); Return All over
// 10,000 people; a CPU profile of the n8n process running our node; and, when BENCH_BEFORE names a
// commit, the same profile of that commit's build. Prints numbers; asserts nothing.
// The parts live in bench/compare/: options, package (now and before), sandbox, workflows, n8n
// (user folders and one measured run), profile, runs (one function per part), report.
//
//   npm run bench                                   (builds, then this and bench/node-throughput.mjs)
//   node bench/n8n-compare.mjs                      (after npm run build)
//   BENCH_ITEMS=200 BENCH_ONLY=latency node bench/n8n-compare.mjs   (a short subset)
//
// Environment:
//   BENCH_ITEMS=1000        items per run
//   BENCH_LATENCY_MS=50     latency the sandbox adds to every API request
//   BENCH_HIGH=100          the "high" Max Parallel Requests (1..100)
//   BENCH_RATE=20           the rate limit, requests per second per token (burst = the same)
//   BENCH_ONLY=latency,neutral,payout,ratelimit,signin,returnall,profile,before   a subset (default: all)
//   BENCH_BEFORE=<commit>   also profile that commit's build (`git archive` into $TMPDIR); unset or
//                           none (the default): no comparison
//   BENCH_PEOPLE=10000      people listed by the Return All run
//   BENCH_KEEP=1            keep the n8n user folders (printed)
//   BENCH_OUT=.cache/bench  where the .cpuprofile files go (one folder per run)
//   BENCH_DEBUG=1           the sign-in run's requests in detail
//   FACILITAPAY_TARBALL     use this packed .tgz instead of packing the current build
//   FACILITAPAY_CACHE_DIR, FACILITAPAY_E2E_DIR: as for the e2e tests (docs/real-n8n.md)
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

import { ensureN8n } from '../scripts/n8n-runtime.mjs';
import { benchFolders, importWorkflows, prepareN8n } from './compare/n8n.mjs';
import { readOptions } from './compare/options.mjs';
import { say } from './compare/output.mjs';
import { packCurrent } from './compare/package.mjs';
import { printReport } from './compare/report.mjs';
import * as parts from './compare/runs.mjs';
import { startBenchSandbox } from './compare/sandbox.mjs';

/** Runs the parts the environment selects and prints the report. */
export async function main(env = process.env) {
	const startedAt = performance.now();
	const options = readOptions(env);
	const sandbox = await startBenchSandbox({ latencyMs: options.latencyMs });
	try {
		await ensureN8n('v2');
		const { runsBase, profileDir } = benchFolders(options);
		const tarball = await packCurrent(path.join(runsBase, 'pack'));
		const userFolder = await prepareN8n(runsBase, 'now', tarball, sandbox.url);
		say(
			`FacilitaPay node in a real n8n 2.41.1 (n8n execute), sandbox with ${options.latencyMs} ms latency per API request, ${options.items} items per run`,
		);
		say(
			`machine: ${os.cpus().length} cores, load average ${os
				.loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')}; n8n user folders in ${runsBase}`,
		);
		/** @type {import('./compare/runs.mjs').Bench} */
		const bench = {
			options,
			sandbox,
			userFolder,
			runsBase,
			profileDir,
			tarball,
			results: { rows: [], extra: [], profiles: [] },
		};
		const wfs = parts.subjectWorkflows(bench);
		// Payout workflows carry the ids of the people seeded right before their run: imported then.
		await importWorkflows(userFolder, Object.values(wfs));
		const { only } = options;
		if (only.has('latency')) await parts.latency(bench, wfs);
		if (only.has('neutral')) await parts.neutral(bench);
		if (only.has('payout')) await parts.payout(bench);
		if (only.has('ratelimit')) await parts.ratelimit(bench);
		if (only.has('signin')) await parts.signin(bench);
		if (only.has('returnall')) await parts.returnall(bench, wfs);
		if (only.has('profile')) await parts.profile(bench, wfs);
		if (only.has('before')) await parts.before(bench);
		printReport(bench.results, options);
		say();
		say(`bench took ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
	} finally {
		await sandbox.close();
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	main().catch((error) => {
		process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
		process.exit(1);
	});
}
