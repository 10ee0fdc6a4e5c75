/**
 * The local FacilitaPay sandbox: the service's behaviour on loopback, state in memory, driven by
 * a virtual clock. Dev tool of this repository, never shipped.
 *
 *   const sb = await createSandbox({ port: 0 });
 *   await sb.listen();            // sb.url → http://127.0.0.1:41234
 *   ...                           // API under `${sb.url}/api/v1`, control under `${sb.url}/_sandbox`
 *   await sb.close();
 */
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { createClock } from './clock.mjs';
import { createState } from './state.mjs';
import { createWebhooks } from './webhooks.mjs';
import { createAuth } from './auth.mjs';
import { createFaults } from './faults.mjs';
import { installRateLimit } from './rateLimit.mjs';
import { ApiError } from './errors.mjs';
import { createSubjects } from './domain/subjects.mjs';
import { createTransactions } from './domain/transactions.mjs';
import { createSubscriptions } from './domain/subscriptions.mjs';
import { createMarketplace } from './domain/marketplace.mjs';
import { createBankAccounts } from './domain/bankAccounts.mjs';
import { createRefunds } from './domain/refunds.mjs';
import { createLocalPayIns } from './domain/localPayIns.mjs';
import { createOutcomes } from './outcomes.mjs';
import { registerAuthRoutes } from './routes/auth.mjs';
import { registerSubjectRoutes } from './routes/subjects.mjs';
import { registerTransactionRoutes } from './routes/transactions.mjs';
import { registerSubscriptionRoutes } from './routes/subscriptions.mjs';
import { registerWebhookRoutes } from './routes/webhooks.mjs';
import { registerMarketplaceRoutes } from './routes/marketplace.mjs';
import { registerBankAccountRoutes } from './routes/bankAccounts.mjs';
import { registerControlRoutes } from './routes/control.mjs';
import { DEFAULT_HOST, refuseRemoteControl } from './network.mjs';

export const API_PREFIX = '/api/v1';
/** Marks the request a `late_commit` fault sends to its route again (its token). */
const LATE_COMMIT_HEADER = 'x-sandbox-late-commit';
export const CONTROL_PREFIX = '/_sandbox';
/** Largest request body: a 15 MB file in Base64 plus JSON around it. */
export const BODY_LIMIT = 25 * 1024 * 1024;
/** The request log keeps the latest requests only. */
export const MAX_LOGGED_REQUESTS = 10000;

/**
 * @param {{
 *   port?: number, host?: string, token?: string, username?: string, password?: string,
 *   now?: number|string|Date, autoSettle?: boolean, webhookTimeoutMs?: number, logger?: boolean,
 *   random?: () => number, isLocalClient?: (address: string | undefined) => boolean,
 *   rateLimitNow?: () => number,
 * }} [options] `isLocalClient` decides which clients may call /_sandbox (default: loopback only).
 */
export async function createSandbox(options = {}) {
	const config = {
		port: options.port ?? 4010,
		host: options.host ?? DEFAULT_HOST,
		token: options.token ?? 'sandbox-token',
		username: options.username ?? 'sandbox',
		password: options.password ?? 'sandbox',
		autoSettle: options.autoSettle ?? false,
		userId: randomUUID(),
	};
	const clock = createClock({ now: options.now });
	const ctx = {
		config,
		clock,
		state: createState(),
		/** Origin of the sandbox, e.g. http://127.0.0.1:4010 */
		baseUrl: () => sandbox.url ?? `http://${config.host}:${config.port}`,
		/** Host and port, without scheme (BR Code locations). */
		publicHost: () => ctx.baseUrl().replace(/^https?:\/\//, ''),
		emit: (type, fields) => ctx.webhooks.emit(type, fields),
	};
	ctx.auth = createAuth({
		clock,
		token: config.token,
		username: config.username,
		password: config.password,
	});
	ctx.faults = createFaults({ random: options.random });
	ctx.metaMode = 'keep';
	buildDomain();
	ctx.reset = async () => {
		await ctx.webhooks.idle();
		clock.reset();
		ctx.state = createState();
		ctx.faults.clear();
		ctx.metaMode = 'keep';
		ctx.auth.reset();
		buildDomain();
	};
	/**
	 * The webhooks and the domain modules over the current `ctx.state`; again after a reset, since
	 * they read the state object they were created with.
	 */
	function buildDomain() {
		ctx.webhooks = createWebhooks({ state: ctx.state, clock, timeoutMs: options.webhookTimeoutMs });
		clock.setSettle(() => ctx.webhooks.idle());
		ctx.subjects = createSubjects(ctx);
		ctx.transactions = createTransactions(ctx);
		ctx.subscriptions = createSubscriptions(ctx);
		ctx.marketplace = createMarketplace(ctx);
		ctx.bankAccounts = createBankAccounts(ctx);
		ctx.refunds = createRefunds(ctx);
		ctx.localPayIns = createLocalPayIns(ctx);
		ctx.outcomes?.stop();
		ctx.outcomes = createOutcomes(ctx);
	}

	/** Tokens of the requests a `late_commit` fault is doing now (sent by the sandbox itself). */
	const lateCommits = new Set();
	const app = Fastify({
		logger: options.logger ?? false,
		bodyLimit: BODY_LIMIT,
		forceCloseConnections: true,
	});

	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
		const text = String(body);
		if (!text.trim()) return done(null, undefined);
		try {
			done(null, JSON.parse(text));
		} catch (err) {
			const error = new ApiError(400, {
				error: `Malformed JSON in request body: ${/** @type {Error} */ (err).message}`,
			});
			done(error, undefined);
		}
	});

	// The control endpoints have no authentication: only clients on this machine may call them.
	app.addHook('onRequest', refuseRemoteControl(CONTROL_PREFIX, options.isLocalClient));

	installRateLimit(app, ctx, { now: options.rateLimitNow }); // before the hooks below: see rateLimit.mjs
	app.addHook('onRequest', async (request, reply) => {
		if (!request.url.startsWith(API_PREFIX)) return;
		// The work a `late_commit` fault held back, done now: not logged again, no fault.
		if (lateCommits.has(String(request.headers[LATE_COMMIT_HEADER] ?? ''))) return;
		const route = request.routeOptions.url ? `${request.method} ${request.routeOptions.url}` : null;
		const entry = {
			id: randomUUID(),
			method: request.method,
			url: request.url,
			route,
			query: { .../** @type {object} */ (request.query ?? {}) },
			body: null,
			at: clock.iso(),
			status: null,
			fault: null,
		};
		ctx.state.requests.push(entry);
		const totalKey = route ?? `${request.method} ${request.url.split('?')[0]}`;
		ctx.state.requestTotals[totalKey] = (ctx.state.requestTotals[totalKey] ?? 0) + 1;
		if (ctx.state.requests.length > MAX_LOGGED_REQUESTS)
			ctx.state.requests.splice(0, ctx.state.requests.length - MAX_LOGGED_REQUESTS);
		/** @type {any} */ (request).sandboxEntry = entry;
		if (!route) return;
		const fault = ctx.faults.pick(request.method, request.routeOptions.url);
		if (!fault) return;
		entry.fault = fault.kind;
		if (fault.kind === 'latency') {
			await new Promise((resolve) => setTimeout(resolve, fault.ms));
			return;
		}
		if (fault.kind === 'late_commit') {
			/** @type {any} */ (request).lateCommit = fault;
			return;
		}
		if (fault.kind === 'reset_after') {
			/** @type {any} */ (request).resetAfterHandling = true;
			return;
		}
		if (fault.kind === 'reset') {
			reply.hijack();
			request.raw.socket.destroy();
			return reply;
		}
		const status = Number(fault.kind);
		entry.status = status;
		if (status === 429) {
			return reply
				.code(429)
				.header('retry-after', String(fault.retry_after ?? 1))
				.send({ error: 'too_many_requests' });
		}
		if (fault.retry_after !== null) reply.header('retry-after', String(fault.retry_after));
		if (status === 500) return reply.code(500).type('text/plain').send('Internal Server Error');
		if (status === 502)
			return reply
				.code(502)
				.type('text/html')
				.send('<html><body><h1>502 Bad Gateway</h1></body></html>');
		return reply.code(503).send({ error: 'service_unavailable' });
	});

	app.addHook('preHandler', async (request, reply) => {
		const entry = /** @type {any} */ (request).sandboxEntry;
		if (entry) entry.body = redact(request.body);
		if (!request.url.startsWith(API_PREFIX)) return;
		if (/** @type {any} */ (request.routeOptions.config)?.public) return;
		if (!ctx.auth.verify(request.headers.authorization))
			throw new ApiError(401, { error: 'invalid_token' });
		const late = /** @type {any} */ (request).lateCommit;
		if (late) return await holdForLateCommit(request, reply, late);
	});

	/**
	 * `late_commit`: the client is told at once that its request failed (a gateway's 504) or is told
	 * nothing, and the service does the work `fault.ms` later (the same request, sent to the route
	 * again by the sandbox itself): the entry of the request shows `committed_at` once it is done.
	 */
	async function holdForLateCommit(request, reply, fault) {
		const entry = /** @type {any} */ (request).sandboxEntry;
		const token = randomUUID();
		lateCommits.add(token);
		const socket = request.raw.socket;
		const commit = async () => {
			try {
				// Over the sandbox's own socket (fastify's inject loads modules a test runner refuses).
				const address = /** @type {import('node:net').AddressInfo} */ (app.server.address());
				const headers = { ...request.headers, [LATE_COMMIT_HEADER]: token };
				delete headers['content-length'];
				delete headers.host;
				delete headers.connection;
				const done = await fetch(`http://127.0.0.1:${address.port}${request.url}`, {
					method: request.method,
					headers: /** @type {Record<string, string>} */ (headers),
					body: request.body === undefined ? undefined : JSON.stringify(request.body),
				});
				await done.arrayBuffer();
				if (entry) {
					entry.committed_at = clock.iso();
					entry.committed_status = done.status;
				}
			} catch (error) {
				if (entry) entry.committed_error = String(/** @type {Error} */ (error)?.message ?? error);
			} finally {
				lateCommits.delete(token);
				if (fault.answer === 'timeout') socket.destroy();
			}
		};
		const timer = setTimeout(() => void commit(), fault.ms ?? 3000);
		timer.unref?.();
		if (fault.answer === 'timeout') {
			reply.hijack();
			return reply;
		}
		if (entry) entry.status = 504;
		if (fault.answer_ms > 0) await new Promise((resolve) => setTimeout(resolve, fault.answer_ms));
		return reply
			.code(504)
			.type('text/html')
			.send('<html><body><h1>504 Gateway Time-out</h1></body></html>');
	}

	// Every API answer carries the sandbox's clock as its Date (FacilitaPay's own clock: the node
	// reads how much time passed at FacilitaPay since a request of unknown outcome).
	app.addHook('onSend', async (request, reply, payload) => {
		if (request.url.startsWith(API_PREFIX))
			reply.header('date', new Date(clock.now()).toUTCString());
		return payload;
	});

	// `reset_after`: the route did its work (a payment was created); the answer is never sent.
	app.addHook('onSend', async (request, reply, payload) => {
		if (!(/** @type {any} */ (request).resetAfterHandling)) return payload;
		const entry = /** @type {any} */ (request).sandboxEntry;
		if (entry) entry.fault = 'reset_after';
		request.raw.socket.destroy();
		return payload;
	});

	app.addHook('onResponse', async (request, reply) => {
		const entry = /** @type {any} */ (request).sandboxEntry;
		if (entry && entry.status === null) entry.status = reply.statusCode;
	});

	app.setErrorHandler((err, _request, reply) => {
		if (err instanceof ApiError) {
			for (const [key, value] of Object.entries(err.headers)) reply.header(key, value);
			return reply.code(err.status).send(err.body);
		}
		const error = /** @type {any} */ (err);
		if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
			return reply.code(413).send({ error: 'Request body too large' });
		if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
			return reply.code(415).send({ error: 'Content-Type must be application/json' });
		if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
			return reply.code(error.statusCode).send({ error: error.message });
		return reply.code(500).send({ error: 'internal_error', message: error.message });
	});

	app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

	await app.register(
		async (api) => {
			registerAuthRoutes(api, ctx);
			registerSubjectRoutes(api, ctx);
			registerTransactionRoutes(api, ctx);
			registerSubscriptionRoutes(api, ctx);
			registerWebhookRoutes(api, ctx);
			registerMarketplaceRoutes(api, ctx);
			registerBankAccountRoutes(api, ctx);
		},
		{ prefix: API_PREFIX },
	);
	await app.register(async (control) => registerControlRoutes(control, ctx), {
		prefix: CONTROL_PREFIX,
	});

	/** @type {ReturnType<typeof setInterval> | null} */
	let ticker = null;
	const sandbox = {
		app,
		ctx,
		get state() {
			return ctx.state;
		},
		clock,
		config,
		/** @type {string|null} */
		url: null,
		async listen() {
			await app.listen({ port: config.port, host: config.host });
			const addr = /** @type {import('node:net').AddressInfo} */ (app.server.address());
			const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
			sandbox.url = `http://${host}:${addr.port}`;
			return sandbox.url;
		},
		/**
		 * Makes the virtual clock follow real time (expiries, schedules and webhook retries then happen
		 * by themselves), as `npm run sandbox` and `npm start` want; tests leave it frozen. Stopped by close().
		 * @param {(error: Error) => void} [onError]
		 */
		followRealTime(onError = () => {}) {
			if (ticker) return;
			let last = Date.now();
			let busy = false;
			ticker = setInterval(async () => {
				if (busy) return;
				busy = true;
				const now = Date.now();
				const elapsed = now - last;
				last = now;
				try {
					await clock.advance(elapsed);
				} catch (error) {
					onError(/** @type {Error} */ (error));
				} finally {
					busy = false;
				}
			}, 1000);
		},
		async close() {
			if (ticker) clearInterval(ticker);
			ticker = null;
			ctx.outcomes.stop();
			await ctx.webhooks.idle();
			await app.close();
		},
	};
	return sandbox;
}

/** Copy of a request body for the request log, with long strings (file data) shortened. */
function redact(body) {
	if (body === undefined) return null;
	return JSON.parse(
		JSON.stringify(body, (_k, value) =>
			typeof value === 'string' && value.length > 200
				? `${value.slice(0, 32)}… (${value.length} characters)`
				: value,
		),
	);
}
