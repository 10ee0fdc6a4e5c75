// Benchmark of the money rule and of memory, on the COMPILED node (dist/, or another build given as
// --dist DIR, e.g. an older commit's) with an in-process FacilitaPay that answers at once (no
// network: it measures the node, not HTTP). Prints numbers; asserts nothing.
//   npm run build && node --expose-gc bench/money.mjs [--payouts 50000] [--uploads 100] [--dist DIR]
// 1. Retry On Fail over a big run: N payouts, the last one refused (422), so n8n would run the node
//    again in the same execution; the second run must send only that one again. Prints how many
//    requests each run sent and the memory the money rule holds.
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
const { createExecuteContext } = require('../test/helpers/fakeExecuteContext.js');
const { NodeApiError } = require('n8n-workflow');
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

// 1. Retry On Fail over N payouts
{
	const executionId = `bench-${Date.now()}`;
	const parameters = Array.from({ length: PAYOUTS }, (_, i) => ({
		resource: 'transaction',
		operation: 'createPayout',
		subjectId: SUBJECT,
		fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
		toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
		currency: 'USD',
		exchangeCurrency: 'BRL',
		value: `${(i % 900) + 100}.00`,
		requestOptions: { concurrency: 100 },
	}));
	let sent = 0;
	const http = async (_type, options) => {
		sent++;
		if (sent % 1000 === 0) sample();
		if (sent === PAYOUTS) {
			const cause = Object.assign(new Error('Request failed with status code 422'), {
				response: { status: 422, data: { errors: { value: ['limit reached'] } }, headers: {} },
			});
			throw new NodeApiError(node, cause);
		}
		return {
			data: {
				id: `0b5e7c2a-1f3d-4a8e-9c61-${String(sent).padStart(12, '0')}`,
				status: 'pending',
				value: options.body.transaction.value,
				currency: 'USD',
				exchange_currency: 'BRL',
			},
		};
	};
	const run = () =>
		new FacilitaPay().execute
			.call(
				createExecuteContext({
					node,
					parameters,
					credentials,
					executionId,
					runIndex: 0,
					httpRequestWithAuthentication: http,
				}),
			)
			.then(
				() => 'success',
				(error) => error.message.slice(0, 60),
			);
	const first = await peakOf(run);
	const sentFirst = sent;
	global.gc?.();
	const held = process.memoryUsage().heapUsed - first.start.heapUsed;
	const second = await peakOf(run);
	console.log(
		`Retry On Fail over ${PAYOUTS} payouts: first run sent ${sentFirst} (${first.result}), ${(first.ms / 1000).toFixed(1)} s, peak heap+external ${mb(first.peakHeap)}; ` +
			`second run sent ${sent - sentFirst}, ${(second.ms / 1000).toFixed(1)} s; heap held after the first run ${mb(held)} (${(held / PAYOUTS) | 0} B per payout)`,
	);
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
