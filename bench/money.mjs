// Benchmark of the money rule and of memory, on the COMPILED node (dist/, or another build given as
// --dist DIR, e.g. an older commit's) with an in-process FacilitaPay that answers at once (no
// network: it measures the node, not HTTP). Prints numbers; asserts nothing.
//   npm run build && node --expose-gc bench/money.mjs [--payouts 50000] [--uploads 100] [--dist DIR] [--no-cost]
// 1. Retry On Fail over a big run: N payouts, the last one refused (422), so n8n would run the node
//    again in the same execution; the second run must send only that one again. Then the Retry
//    button with the process memory emptied (n8n restarted): a new execution that gets the failed
//    one's custom data. Prints requests sent, list pages read, the longest event-loop pause and the
//    memory the money rule holds. 1b: the memory still held after 2,000 payouts answered 503 with
//    a 100 kB page.
// 3. The cost cases of issue 32: a keyed payout to a subject with 50,000 transactions (pages read),
//    a retried payout to a subject with 150,000 (pages read), a Retry of 20,000 keyed payouts of
//    which 10,000 were done (time, longest pause, pages).
// 2. Peak memory of U document uploads of 15 MB each (the files come from n8n's binary store one
//    at a time, as in n8n's filesystem binary mode).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 ? process.argv[at + 1] : fallback;
};
const DIST = path.resolve(argument('dist', path.join(ROOT, 'dist')));
const PAYOUTS = Number(argument('payouts', 50_000));
const UPLOADS = Number(argument('uploads', 100));
const { FacilitaPay } = require(path.join(DIST, 'nodes/FacilitaPay/FacilitaPay.node.js'));
const { createExecuteContext, ProcessedStore } = require('./lib/executeContext.cjs');
const { NodeApiError } = require('n8n-workflow');
/** This process's memory of the build measured (its place moved to money/ in issue 32). */
const memory = (() => {
	for (const place of [
		'nodes/FacilitaPay/money/sentMemory.js',
		'nodes/FacilitaPay/transport/sentMemory.js',
	])
		try {
			return require(path.join(DIST, place)).sentMemory;
		} catch {
			// the other place
		}
	return { clear: () => undefined };
})();
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const node = {
	id: 'bench-node',
	name: 'FacilitaPay',
	type: 'n8n-nodes-facilitapay.facilitaPay',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const credentials = {
	environment: 'custom',
	baseUrl: 'http://127.0.0.1:9/api/v1',
	authentication: 'accessToken',
	accessToken: 't',
};
const SUBJECT = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';

let peakHeap = 0;
let peakRss = 0;
/** Notes the memory in use now (also called by the fake service on every request). */
function sample() {
	const now = process.memoryUsage();
	peakHeap = Math.max(peakHeap, now.heapUsed + now.external + now.arrayBuffers);
	peakRss = Math.max(peakRss, now.rss);
}

/** Peak memory (heap + external) and RSS while `work` runs: sampled every 20 ms and on every request. */
async function peakOf(work) {
	global.gc?.();
	const start = process.memoryUsage();
	peakHeap = start.heapUsed + start.external + start.arrayBuffers;
	peakRss = start.rss;
	const timer = setInterval(sample, 20);
	const started = performance.now();
	try {
		const result = await work();
		sample();
		return { result, ms: performance.now() - started, start, peakHeap, peakRss };
	} finally {
		clearInterval(timer);
	}
}

/** The longest the event loop was blocked while `work` ran, in ms (a 5 ms ticker's longest gap). */
async function longestPause(work) {
	let last = performance.now();
	let longest = 0;
	const ticker = setInterval(() => {
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
	}, 5);
	try {
		const result = await work();
		longest = Math.max(longest, performance.now() - last);
		return { result, pauseMs: longest };
	} finally {
		clearInterval(ticker);
	}
}

/**
 * A FacilitaPay answering at once: payouts become records (with their meta) in one subject's list,
 * read 100 a page by last_id; `refuse(n)` refuses the n-th payout (422); `unavailable(n)` answers
 * it 503 with a 100 kB HTML page (nothing processed).
 */
function fakeService({ refuse = () => false, unavailable = () => false, seed = 0 } = {}) {
	const idOf = (n) => `0b5e7c2a-1f3d-4a8e-9c61-${String(n).padStart(12, '0')}`;
	const records = Array.from({ length: seed }, (_, i) => ({
		id: idOf(i + 1),
		status: 'pending',
		value: '5.00',
		currency: 'USD',
		subject_id: SUBJECT,
		meta: { n8n_facilitapay_ref: `key:EARLIER-${i}` },
	}));
	const counts = { posts: 0, reads: 0 };
	const page503 = `<html>${'x'.repeat(100 * 1024)}</html>`;
	const http = async (_type, options) => {
		// An answer arrives through the event loop, as a real one does (I/O), not as a microtask.
		await new Promise((resolve) => setImmediate(resolve));
		if (options.method === 'GET') {
			counts.reads++;
			const one = /\/transactions\/([^/?]+)$/.exec(String(options.url));
			if (one && !String(options.url).includes('/subject/'))
				return { data: records[Number(one[1].slice(-12)) - 1] };
			const lastId = options.qs?.last_id;
			let start = 0;
			if (lastId) start = Number(lastId.slice(-12));
			return { data: records.slice(start, start + 100) };
		}
		counts.posts++;
		if (counts.posts % 1000 === 0) sample();
		if (unavailable(counts.posts))
			return { statusCode: 503, headers: { 'content-type': 'text/html' }, body: page503 };
		if (refuse(counts.posts)) {
			const cause = Object.assign(new Error('Request failed with status code 422'), {
				response: { status: 422, data: { errors: { value: ['limit reached'] } }, headers: {} },
			});
			throw new NodeApiError(node, cause);
		}
		const transaction = options.body.transaction;
		const record = {
			id: idOf(records.length + 1),
			status: 'pending',
			value: transaction.value,
			currency: 'USD',
			exchange_currency: 'BRL',
			subject_id: SUBJECT,
			meta: transaction.meta ?? {},
		};
		records.push(record);
		return { data: record };
	};
	return { http, counts };
}

const payoutParameters = (count, extra = () => ({})) =>
	Array.from({ length: count }, (_, i) => ({
		resource: 'transaction',
		operation: 'createPayout',
		subjectId: SUBJECT,
		fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
		toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
		currency: 'USD',
		exchangeCurrency: 'BRL',
		value: `${(i % 900) + 100}.00`,
		requestOptions: { concurrency: 100 },
		...extra(i),
	}));

/** `staticData`: the workflow's static data n8n keeps between executions (production runs). */
const contextOf = (options) => {
	const ctx = createExecuteContext({ node, credentials, ...options });
	if (options.staticData) ctx.getWorkflowStaticData = () => options.staticData;
	return ctx;
};
const execute = (options) =>
	new FacilitaPay().execute.call(contextOf(options)).then(
		() => 'success',
		(error) => error.message.slice(0, 60),
	);

// 1. Retry On Fail over N payouts, then the Retry button with the memory emptied (n8n restarted)
{
	const executionId = `${Date.now()}`;
	const parameters = payoutParameters(PAYOUTS);
	const service = fakeService({ refuse: (n) => n === PAYOUTS });
	const customData = {};
	const processedStore = new ProcessedStore();
	const options = {
		parameters,
		executionId,
		runIndex: 0,
		customData,
		processedStore,
		httpRequestWithAuthentication: service.http,
	};
	const first = await peakOf(() => longestPause(() => execute(options)));
	const sentFirst = service.counts.posts;
	global.gc?.();
	const held = process.memoryUsage().heapUsed - first.start.heapUsed;
	const readsBefore = service.counts.reads;
	const second = await peakOf(() => longestPause(() => execute(options)));
	console.log(
		`Retry On Fail over ${PAYOUTS} payouts: first run sent ${sentFirst} (${first.result.result}), ${(first.ms / 1000).toFixed(1)} s, longest pause ${first.result.pauseMs.toFixed(0)} ms, peak heap+external ${mb(first.peakHeap)}; ` +
			`second run sent ${service.counts.posts - sentFirst}, ${service.counts.reads - readsBefore} list reads, ${(second.ms / 1000).toFixed(1)} s, longest pause ${second.result.pauseMs.toFixed(0)} ms; heap held after the first run ${mb(held)} (${(held / PAYOUTS) | 0} B per payout)`,
	);

	// The Retry button days later: a new execution, n8n restarted (no process memory, same store).
	memory.clear();
	const postsBefore = service.counts.posts;
	const readsBeforeRetry = service.counts.reads;
	const retry = await peakOf(() =>
		longestPause(() => execute({ ...options, executionId: `${Date.now() + 1}`, mode: 'retry' })),
	);
	console.log(
		`Retry button over ${PAYOUTS} payouts (memory emptied): sent ${service.counts.posts - postsBefore} (${retry.result.result}), ${service.counts.reads - readsBeforeRetry} list reads, ${(retry.ms / 1000).toFixed(1)} s, longest pause ${retry.result.pauseMs.toFixed(0)} ms`,
	);
}

// 1b. 2,000 payouts answered 503 with a 100 kB page: what the process still holds after the run
{
	const service = fakeService({ unavailable: () => true });
	global.gc?.();
	const before = process.memoryUsage().heapUsed;
	const result = await execute({
		parameters: payoutParameters(2000).map((p) => ({ ...p, requestOptions: { concurrency: 100 } })),
		executionId: `${Date.now() + 2}`,
		continueOnFail: true,
		httpRequestWithAuthentication: service.http,
	});
	global.gc?.();
	const held = process.memoryUsage().heapUsed - before;
	console.log(
		`2,000 payouts answered 503 (100 kB page each, Continue On Fail): ${result}; heap held after the run ${mb(held)}`,
	);
}

// 3. The cost cases of issue 32 (reads and time), on a subject with many earlier transactions.
if (!process.argv.includes('--no-cost')) {
	const reads = async (service, options) => {
		const before = service.counts.reads;
		const run = await peakOf(() => longestPause(() => execute(options)));
		return { reads: service.counts.reads - before, run };
	};
	// 3a. One keyed payout to a subject with 50,000 earlier transactions (a new process), then another.
	{
		memory.clear();
		const service = fakeService({ seed: 50_000 });
		const staticData = {};
		const keyed = (key) => ({
			parameters: payoutParameters(1, () => ({ idempotencyKey: key })),
			executionId: `${Date.now()}-${key}`,
			processedStore: new ProcessedStore(),
			httpRequestWithAuthentication: service.http,
			staticData,
		});
		const first = await reads(service, keyed('ORDER-1'));
		const second = await reads(service, keyed('ORDER-2'));
		// n8n restarted (the process memory gone): the workflow's saved point remains.
		memory.clear();
		const restarted = await reads(service, keyed('ORDER-3'));
		console.log(
			`Keyed payout to a subject with 50,000 transactions: the workflow's first ${first.reads} pages (${(first.run.ms / 1000).toFixed(1)} s), the next keyed payout ${second.reads} pages, the next after a restart ${restarted.reads} pages (${restarted.run.ms.toFixed(0)} ms; each: the lookup, then the re-read after the answer); sent ${service.counts.posts}`,
		);
	}
	// 3b. One retried payout to a subject with 150,000 transactions: its try answered 503, then the
	// Retry button after a restart. The process had paid this subject before (a daily payout).
	{
		memory.clear();
		let posts = 0;
		const service = fakeService({ seed: 150_000, unavailable: () => ++posts === 2 });
		await execute({
			parameters: payoutParameters(1),
			executionId: `${Date.now()}-daily`,
			httpRequestWithAuthentication: service.http,
		});
		const customData = {};
		const options = {
			parameters: payoutParameters(1),
			executionId: `${Date.now()}-try`,
			customData,
			httpRequestWithAuthentication: service.http,
		};
		const tried = await execute(options);
		memory.clear();
		const retry = await reads(service, {
			...options,
			executionId: `${Date.now()}-retry`,
			mode: 'retry',
		});
		console.log(
			`Retried payout to a subject with 150,000 transactions, its try answered 503 alone (${tried.slice(0, 16)}): the retry read ${retry.reads} pages: ${retry.run.result.result.slice(0, 16)} (nothing read since the try shows meta kept); POSTs in all ${service.counts.posts}`,
		);
		// The same with a second payout of that try answered (its record, after the point, shows meta kept).
		memory.clear();
		posts = 0;
		const batch = {
			...options,
			parameters: payoutParameters(2),
			executionId: `${Date.now()}-try2`,
			customData: {},
		};
		await execute({
			...batch,
			parameters: payoutParameters(1),
			executionId: `${Date.now()}-daily2`,
		});
		const postsBefore = service.counts.posts;
		await execute(batch);
		memory.clear();
		const settled = await reads(service, {
			...batch,
			executionId: `${Date.now()}-retry2`,
			mode: 'retry',
		});
		console.log(
			`Retried batch of 2 to that subject (one answered 503, one answered): the retry read ${settled.reads} pages, ${settled.run.result.result}; POSTs of the try and the retry ${service.counts.posts - postsBefore} (3 = the 503 one sent once more)`,
		);
	}
	// 3c. A Retry of 20,000 keyed payouts of which 10,000 were done (the 10,001st refused).
	{
		memory.clear();
		const service = fakeService({ refuse: (n) => n === 10_001 });
		const customData = {};
		const processedStore = new ProcessedStore();
		const options = {
			parameters: payoutParameters(20_000, (i) => ({ idempotencyKey: `PAY-${i}` })),
			executionId: `${Date.now()}-keys`,
			customData,
			processedStore,
			httpRequestWithAuthentication: service.http,
		};
		await execute(options);
		const done = service.counts.posts - 1;
		memory.clear();
		const postsBefore = service.counts.posts;
		const retry = await reads(service, {
			...options,
			executionId: `${Date.now()}-keys-retry`,
			mode: 'retry',
		});
		console.log(
			`Retry of 20,000 keyed payouts (${done} done before): ${(retry.run.ms / 1000).toFixed(1)} s, longest pause ${retry.run.result.pauseMs.toFixed(0)} ms, ${retry.reads} pages read, sent ${service.counts.posts - postsBefore} (${retry.run.result.result})`,
		);
	}
}

// 2. Peak memory of U uploads of 15 MB
{
	const FILE = 15 * 1024 * 1024 - 1024;
	const pdf = () => {
		const buffer = Buffer.alloc(FILE, 0x20);
		buffer.write('%PDF-1.4\n', 0);
		buffer.write('\n%%EOF\n', FILE - 8);
		return buffer;
	};
	const items = Array.from({ length: UPLOADS }, () => ({
		json: {},
		binary: {
			data: { mimeType: 'application/pdf', fileName: 'proof.pdf', id: 'fs', data: 'filesystem-v2' },
		},
	}));
	const ctx = createExecuteContext({
		node,
		items,
		parameters: Array.from({ length: UPLOADS }, () => ({
			resource: 'subject',
			operation: 'uploadDocument',
			subjectId: SUBJECT,
			labels: ['address-proof'],
			source: 'binary',
			binaryPropertyName: 'data',
		})),
		credentials,
		executionId: `bench-upload-${Date.now()}`,
		httpRequestWithAuthentication: async () => {
			sample();
			return { data: { id: 'doc' } };
		},
	});
	// Filesystem binary mode: the file is read from n8n's store when asked for.
	ctx.helpers.getBinaryDataBuffer = async () => pdf();
	const result = await peakOf(async () => await new FacilitaPay().execute.call(ctx));
	console.log(
		`${UPLOADS} uploads of 15 MB: ${(result.ms / 1000).toFixed(1)} s, peak heap+external ${mb(result.peakHeap)}, peak rss ${mb(result.peakRss)}`,
	);
}
