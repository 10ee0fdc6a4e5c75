// A sandbox of each case file's own behind a small proxy that records, for every request, WHICH n8n
// process sent it: the owner of the client socket, read from /proc (the processes all run on
// loopback, so the address alone cannot tell).
import fs from 'node:fs';
import http from 'node:http';
import { createSandbox } from '../../../sandbox/server.mjs';
import { extraWorkers, queueState } from './cluster.mjs';

/** @param {string} hexAddress e.g. "0100007F:1F90" */
const portOf = (hexAddress) => parseInt(hexAddress.split(':')[1], 16);

/**
 * The socket inode of the loopback TCP connection from `clientPort` to `serverPort`.
 * @param {number} clientPort @param {number} serverPort
 */
function socketInode(clientPort, serverPort) {
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text = '';
		try {
			text = fs.readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const line of text.split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields.length < 10) continue;
			if (portOf(fields[1]) === clientPort && portOf(fields[2]) === serverPort) return fields[9];
		}
	}
	return null;
}

/** @param {string} inode @param {Array<{name: string, pid: number}>} candidates */
function ownerOf(inode, candidates) {
	for (const candidate of candidates) {
		let fds = [];
		try {
			fds = fs.readdirSync(`/proc/${candidate.pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (fs.readlinkSync(`/proc/${candidate.pid}/fd/${fd}`) === `socket:[${inode}]`)
					return candidate.name;
			} catch {
				/* closed meanwhile */
			}
		}
	}
	return 'unknown';
}

/** The n8n processes of the cluster (and the workers a test added), by pid. */
function clusterProcesses() {
	const state = queueState();
	return [
		{ name: 'main', pid: state.main.pid },
		{ name: 'webhook', pid: state.webhook.pid },
		...state.workers.map((w) => ({ name: w.name, pid: w.pid })),
		...extraWorkers.map((w) => ({ name: w.name, pid: w.pid })),
	];
}

/**
 * A sandbox of the calling file's own (frozen clock, token `sandbox-token`), behind a proxy that
 * notes which n8n process sent each request. Point the credentials at `apiBase` (the proxy).
 * `requests()` lists what went through the proxy: `{process, method, path, status}`.
 */
export async function startAttributedSandbox() {
	const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', token: 'sandbox-token' });
	await sandbox.listen();
	const sandboxUrl = new URL(String(sandbox.url));
	/** @type {Array<{process: string, method: string, path: string, status: number}>} */
	const log = [];
	const server = http.createServer((request, response) => {
		const socket = /** @type {any} */ (request.socket);
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			const forward = http.request(
				{
					host: sandboxUrl.hostname,
					port: sandboxUrl.port,
					method: request.method,
					path: request.url,
					headers: request.headers,
				},
				(answer) => {
					log.push({
						process: socket.n8nProcess,
						method: String(request.method),
						path: String(request.url).split('?')[0],
						status: Number(answer.statusCode),
					});
					response.writeHead(Number(answer.statusCode), answer.headers);
					answer.pipe(response);
				},
			);
			forward.on('error', (error) => {
				response.writeHead(502);
				response.end(String(error));
			});
			forward.end(Buffer.concat(chunks));
		});
	});
	server.on('connection', (socket) => {
		const inode = socketInode(Number(socket.remotePort), Number(socket.localPort));
		/** @type {any} */ (socket).n8nProcess = inode ? ownerOf(inode, clusterProcesses()) : 'unknown';
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const proxyPort = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
	const base = String(sandbox.url).replace(/\/$/, '');
	return {
		sandboxUrl: base,
		apiBase: `http://127.0.0.1:${proxyPort}/api/v1`,
		requests: () => [...log],
		/** Calls the sandbox directly, as a fixture. @param {string} method @param {string} route @param {unknown} [body] */
		async call(method, route, body) {
			const response = await fetch(`${base}${route}`, {
				method,
				headers: {
					authorization: 'Bearer sandbox-token',
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const text = await response.text();
			if (!response.ok)
				throw new Error(`${method} ${route}: HTTP ${response.status} ${text.slice(0, 300)}`);
			return text ? JSON.parse(text) : null;
		},
		async close() {
			await new Promise((resolve) => server.close(() => resolve(undefined)));
			server.closeAllConnections?.();
			await sandbox.close();
		},
	};
}

/**
 * The calling file's own attributed sandbox (see startAttributedSandbox), started before its
 * tests and closed after them. The object it returns stands for that sandbox once it is started.
 * @returns {Awaited<ReturnType<typeof startAttributedSandbox>>}
 */
export function caseSandbox() {
	/** @type {any} */
	let current;
	const jest = /** @type {any} */ (globalThis);
	jest.beforeAll(async () => {
		current = await startAttributedSandbox();
	});
	jest.afterAll(async () => {
		await current?.close();
	});
	return /** @type {any} */ (
		new Proxy(
			{},
			{
				get(_, key) {
					if (!current) throw new Error('The case sandbox starts in beforeAll: use it in a test.');
					return current[key];
				},
			},
		)
	);
}
