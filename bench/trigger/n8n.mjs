// The n8n side of bench/trigger.mjs: a fresh real n8n 2.x with the package (one per run, so what
// one run leaves behind never slows the next), a sandbox account of its own with credentials in
// n8n, the two workflows compared (the FacilitaPay Trigger and n8n's Webhook node), and what the
// bench reads back of n8n (executions, per payment, and its log).
import fs from 'node:fs';
import path from 'node:path';

import {
	E2E_RUNS_DIR,
	createApiKey,
	freePort,
	importIntoN8n,
	installPackageInto,
	publicApi,
	removeUserFolder,
	sandboxCredentials,
	setupOwner,
	startN8n,
} from '../../scripts/n8n-runtime.mjs';
import { createSandbox } from '../../sandbox/server.mjs';
import { triggerNode, webhookNode } from '../../test/e2e/lib/n8n-e2e.mjs';

const TOKEN = 'sandbox-token';
const say = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh n8n 2.x with the package, an owner and an API key. */
export async function startEnvironment(tarball, label) {
	const userFolder = path.join(
		E2E_RUNS_DIR,
		`bench-trigger-${label}-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
	);
	fs.mkdirSync(userFolder, { recursive: true });
	installPackageInto(userFolder, tarball);
	const server = await startN8n({
		version: 'v2',
		userFolder,
		port: await freePort(),
		brokerPort: await freePort(),
		env: JSON.parse(process.env.BENCH_N8N_ENV ?? '{}'),
	});
	const { client } = await setupOwner(server.url);
	const n8n = {
		n8nUrl: server.url,
		url: server.url,
		apiKey: await createApiKey(server.url, { client, label: 'bench' }),
		userFolder,
	};
	const stop = async () => {
		await server.stop();
		if (process.env.BENCH_KEEP === '1') say(`n8n user folder kept: ${userFolder}`);
		else removeUserFolder(userFolder);
	};
	return { server, n8n, stop };
}

/** A sandbox of its own (one FacilitaPay account), with credentials in n8n. */
export async function account(n8n, name) {
	const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', token: TOKEN });
	await sandbox.listen();
	const url = String(sandbox.url).replace(/\/$/, '');
	const creds = sandboxCredentials({
		baseUrl: `${url}/api/v1`,
		token: TOKEN,
		id: `bench-${name}`,
		name: `Bench ${name}`,
	});
	await importIntoN8n('credentials', [creds], { version: 'v2', userFolder: n8n.userFolder });
	const call = async (method, route, body, api = false) => {
		const response = await fetch(`${url}${api ? '/api/v1' : '/_sandbox'}${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				...(api ? { authorization: `Bearer ${TOKEN}` } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return (await response.json()).data;
	};
	return { sandbox, url, credentials: { id: creds.id, name: creds.name }, call };
}

/** The FacilitaPay Trigger (Identified only) on an account's credentials. */
export function triggerWorkflow(name, credentials, options) {
	const id = `bench-${name}-${Date.now()}`;
	return {
		name: `bench ${name}`,
		settings: { executionOrder: 'v1' },
		nodes: [
			triggerNode({
				webhookId: `wh-${id}`,
				credentials,
				events: ['identified'],
				options: { ...options, ...JSON.parse(process.env.BENCH_TRIGGER_OPTIONS ?? '{}') },
				typeVersion: Number(process.env.BENCH_TRIGGER_VERSION ?? 2),
			}),
		],
		connections: {},
	};
}

/** n8n's own Webhook node alone, at /webhook/<pathName>. */
export function webhookNodeWorkflow(pathName) {
	return {
		name: `bench webhook node ${pathName}`,
		settings: { executionOrder: 'v1' },
		nodes: [webhookNode(pathName)],
		connections: {},
	};
}

export async function waitUntil(check, timeoutMs, what) {
	const started = Date.now();
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await sleep(250);
	}
}

export async function countExecutions(n8n, workflowId) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await countExecutionsOnce(n8n, workflowId);
		} catch (error) {
			// n8n answers 503 "Database is not ready" while its database is saturated.
			if (attempt >= 20) throw error;
			await sleep(1_000);
		}
	}
}

async function countExecutionsOnce(n8n, workflowId) {
	let count = 0;
	let last = 0;
	let cursor = '';
	for (;;) {
		const query = new URLSearchParams({ workflowId, includeData: 'false', limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await publicApi(n8n.url, n8n.apiKey, `/executions?${query}`);
		for (const execution of page.data ?? []) {
			count += 1;
			last = Math.max(last, Date.parse(execution.stoppedAt ?? execution.startedAt ?? 0));
		}
		if (!page.nextCursor) return { count, last };
		cursor = page.nextCursor;
	}
}

/**
 * How many executions each payment started: the trigger's item names it (`transaction_id`), the
 * Webhook node's carries the notification it received.
 */
export async function perTransaction(n8n, workflowId) {
	const counts = new Map();
	let cursor = '';
	for (;;) {
		const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '100' });
		if (cursor) query.set('cursor', cursor);
		let page;
		for (let attempt = 1; ; attempt++) {
			try {
				page = await publicApi(n8n.url, n8n.apiKey, `/executions?${query}`);
				break;
			} catch (error) {
				if (attempt >= 20) throw error;
				await sleep(1_000);
			}
		}
		for (const execution of page.data ?? []) {
			const runData = execution.data?.resultData?.runData ?? {};
			const first = Object.values(runData)[0]?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
			const id = first.transaction_id ?? first.body?.notification?.transaction_id;
			counts.set(id, (counts.get(id) ?? 0) + 1);
		}
		if (!page.nextCursor) return counts;
		cursor = page.nextCursor;
	}
}

/** How often n8n's log has this text (n8n answers "Database is not ready!" when its pings fail). */
export function countInLog(userFolder, text) {
	const log = path.join(userFolder, 'n8n.log');
	if (!fs.existsSync(log)) return null;
	return fs.readFileSync(log, 'utf8').split(text).length - 1;
}
