// A scripted FacilitaPay for the operation tests on n8n's engine: a real HTTP server on a free port
// whose answers the test gives BY ROUTE, as n8n's own node tests script theirs (nock): the node's
// requests leave through n8n-core's httpRequestWithAuthentication, over the wire, and are answered by
// method and path, whatever their order. Every request that arrived is recorded (method, path,
// query, headers, parsed body).
//
// A route is "METHOD /path" after the API root (`/api/v1`), with `:name` for a path segment:
// `'POST /transactions'`, `'GET /subject/:id/transactions'`. Its script is one reply (answered
// every time), or an array of replies (one each, in order; the last one then repeats), or a
// function (request) => reply. A reply is:
// - a plain value: answered 200 with that JSON body;
// - `{ status, body, headers }` (marked with `reply()`): that status, body and headers;
// - `RESET`: the connection is destroyed before any answer (ECONNRESET at the node);
// - `{ delayMs, then: reply }` (`later()`): answered after that many milliseconds.
// Every answer carries a Date header: FacilitaPay's clock, real time moved by `advanceClock(ms)`.
// A request no route matches is answered 599 and recorded, so a test sees it in `requests`.
import http from 'node:http';

export const API_ROOT = '/api/v1';
const REPLY = Symbol('reply');
export const RESET = Symbol('reset');

/** An HTTP answer with a status other than 200, or headers. */
export const reply = (status, body, headers = {}) => ({ [REPLY]: true, status, body, headers });
/** An answer given after `delayMs`. */
export const later = (delayMs, then) => ({ [REPLY]: 'later', delayMs, then });

function matcher(route) {
	const [method, pattern] = route.split(' ');
	const names = [];
	const source = pattern
		.split('/')
		.map((part) => {
			if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			names.push(part.slice(1));
			return '([^/]+)';
		})
		.join('/');
	const regex = new RegExp(`^${source}$`);
	return (request) => {
		if (request.method !== method) return undefined;
		const found = regex.exec(request.path);
		if (!found) return undefined;
		return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
	};
}

/** Starts the scripted service; `url` is its API root (what a credential's Base URL holds). */
export async function startService() {
	let routes = [];
	// FacilitaPay's clock, as the Date header of every answer shows it: real time moved by the test.
	let clockOffsetMs = 0;
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const url = new URL(req.url, 'http://service.test');
			const path = url.pathname.startsWith(API_ROOT)
				? url.pathname.slice(API_ROOT.length)
				: url.pathname;
			let body;
			const type = req.headers['content-type'] ?? '';
			if (raw.length && type.includes('json')) body = JSON.parse(raw.toString('utf8'));
			else if (raw.length) body = raw.toString('utf8');
			const request = {
				method: req.method,
				path,
				route: undefined,
				params: {},
				query: Object.fromEntries(url.searchParams),
				headers: req.headers,
				body,
			};
			requests.push(request);
			const route = routes.find((entry) => {
				const params = entry.match(request);
				if (params) request.params = params;
				return params;
			});
			if (!route) {
				answer(res, reply(599, { error: `No scripted answer for ${req.method} ${path}` }));
				return;
			}
			request.route = route.name;
			answer(res, route.next(request));
		});
	});

	function answer(res, value) {
		if (value === RESET) {
			res.socket?.destroy();
			return;
		}
		if (value?.[REPLY] === 'later') {
			setTimeout(() => answer(res, value.then), value.delayMs);
			return;
		}
		const full = value?.[REPLY] ? value : { status: 200, body: value, headers: {} };
		const isBuffer = Buffer.isBuffer(full.body);
		const headers = {
			'content-type': isBuffer ? 'application/octet-stream' : 'application/json',
			date: new Date(Date.now() + clockOffsetMs).toUTCString(),
			...full.headers,
		};
		res.writeHead(full.status, headers);
		if (full.body === undefined) res.end();
		else res.end(isBuffer ? full.body : JSON.stringify(full.body));
	}

	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}${API_ROOT}`,
		/** Every request that arrived since the last `script()`, in arrival order. */
		requests,
		/**
		 * Replaces the routes (and forgets the requests): `{ 'POST /transactions': reply, … }`.
		 * Routes are tried in the order given.
		 */
		script(scripts = {}) {
			requests.length = 0;
			routes = Object.entries(scripts).map(([name, script]) => {
				let calls = 0;
				return {
					name,
					match: matcher(name),
					next: (request) => {
						const index = calls++;
						if (typeof script === 'function') return script(request, index);
						if (Array.isArray(script)) return script[Math.min(index, script.length - 1)];
						return script;
					},
				};
			});
		},
		/** Moves FacilitaPay's clock (the Date of its answers) `ms` ahead; `script()` does not reset it. */
		advanceClock(ms) {
			clockOffsetMs += ms;
		},
		/** FacilitaPay's clock back to real time. */
		resetClock() {
			clockOffsetMs = 0;
		},
		/** The requests on one route ("POST /transactions"), as scripted. */
		on: (route) => requests.filter((request) => request.route === route),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(resolve);
			}),
	};
}
