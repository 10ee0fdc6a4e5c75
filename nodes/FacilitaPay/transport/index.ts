import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { credentialBaseUrl } from '../../../credentials/FacilitaPayApi.credentials';
import { AdaptiveLimiter } from './limiter';
import type { SentOutcome } from './sendOnce';
import { SentRequests, sentRequests } from './sendOnce';

export const CREDENTIAL_TYPE = 'facilitaPayApi';

export type FacilitaPayContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * How a request may be repeated after a failure. Every request, whatever its policy, is tried again
 * after 429 (the service did not process it), honouring Retry-After.
 * - `safe`: reads and idempotent updates. Also retried on 502, 503, 504 and connection errors.
 * - `sendOnce`: creates or moves money (transactions, checkout, payouts, subscriptions, refunds,
 *   cancels, even when sent as GET) or is otherwise not idempotent (document upload). Sent at most
 *   once per execution, also when n8n runs the node again: never repeated once it may have
 *   reached the service (timeout, reset, 5xx: the item fails with an unknown outcome). Only a
 *   refused connection (nothing was sent) is tried again.
 */
export type RetryPolicy = 'safe' | 'sendOnce';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, starting with a slash, e.g. `/subject/people`. */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	retry: RetryPolicy;
	/** The item this request is for; named in errors. */
	itemIndex?: number;
	/** How long to wait for the answer, in milliseconds; defaults to the run's timeout (30 s). */
	timeout?: number;
}

export interface RetryOptions {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Injected in tests; defaults to Math.random. */
	random: () => number;
	/** Injected in tests; defaults to n8n-workflow's sleep. */
	wait: (ms: number) => Promise<void>;
}

export const defaultRetryOptions: RetryOptions = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 10_000,
	random: Math.random,
	wait: async (ms: number) => await sleep(ms),
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const CONNECTION_ERRORS = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'ECONNREFUSED',
	'ENOTFOUND',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
/** Connection errors that prove the request never reached the service. */
const NOT_SENT_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

interface FailureFacts {
	status?: number;
	code?: string;
	body?: unknown;
	headers: Record<string, unknown>;
	message: string;
}

/** Reads status, body and connection code out of whatever n8n's request helpers threw. */
export function failureFacts(error: unknown): FailureFacts {
	const e = (error ?? {}) as IDataObject & { message?: string };
	const cause = (e.cause ?? {}) as IDataObject;
	const response = (cause.response ?? e.response ?? {}) as IDataObject;
	const rawStatus = response.status ?? e.httpCode ?? e.statusCode ?? cause.status;
	const status = rawStatus === undefined || rawStatus === null ? undefined : Number(rawStatus);
	const code = (cause.code ?? e.code) as string | undefined;
	let body: unknown = response.data ?? response.body;
	if (body === undefined && e.context && typeof e.context === 'object') {
		body = (e.context as IDataObject).data;
	}
	return {
		status: Number.isFinite(status) && status !== 0 ? status : undefined,
		code: typeof code === 'string' ? code : undefined,
		body,
		headers: (response.headers ?? {}) as Record<string, unknown>,
		message: String(e.message ?? 'Unknown error'),
	};
}

function parseBody(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body === 'string') {
		const text = body.trim();
		if (text.startsWith('{') || text.startsWith('[')) {
			try {
				return JSON.parse(text);
			} catch {
				return text;
			}
		}
		return text;
	}
	return body;
}

function describeValue(value: unknown): string {
	if (Array.isArray(value)) return value.map(describeValue).join('; ');
	if (value && typeof value === 'object') {
		return Object.entries(value as IDataObject)
			.map(([key, inner]) => `${key}: ${describeValue(inner)}`)
			.join('; ');
	}
	return String(value);
}

/**
 * Turns every error body the service is known to send into one line a person can act on:
 * `{"errors":{"field":["message"]}}`, `{"error":"invalid_token"}`, other `{field: message}`
 * objects, and plain text.
 */
export function describeErrorBody(body: unknown): string | undefined {
	const parsed = parseBody(body);
	if (parsed === undefined || parsed === null || parsed === '') return undefined;
	if (typeof parsed === 'string') {
		return parsed.length > 300 ? `${parsed.slice(0, 300)}…` : parsed;
	}
	if (typeof parsed !== 'object') return String(parsed);
	const object = parsed as IDataObject;
	if (object.errors && typeof object.errors === 'object' && !Array.isArray(object.errors)) {
		return Object.entries(object.errors as IDataObject)
			.map(([field, messages]) => `${field}: ${describeValue(messages)}`)
			.join(' | ');
	}
	if (Array.isArray(object.errors)) return describeValue(object.errors);
	if (typeof object.error === 'string') {
		const hint = ERROR_HINTS[object.error];
		return hint ? `${object.error} (${hint})` : object.error;
	}
	if (typeof object.message === 'string') return object.message;
	return describeValue(object);
}

const ERROR_HINTS: Record<string, string> = {
	invalid_token:
		'the access token is wrong or expired: check the FacilitaPay credentials, or sign in again',
	invalid_credentials: 'the username or password in the FacilitaPay credentials is wrong',
	not_found: 'no record with this id exists in this FacilitaPay account',
};

const STATUS_TEXT: Record<number, string> = {
	400: 'FacilitaPay rejected the request',
	401: 'FacilitaPay refused the credentials',
	403: 'FacilitaPay does not allow this for your account',
	404: 'FacilitaPay did not find the record',
	409: 'FacilitaPay reports a conflict',
	422: 'FacilitaPay rejected the data',
	429: 'FacilitaPay is rate limiting requests',
	500: 'FacilitaPay had an internal error',
	502: 'FacilitaPay is unreachable right now (bad gateway)',
	503: 'FacilitaPay is unavailable right now',
	504: 'FacilitaPay did not answer in time',
};

/** What a connection failure means, in words (n8n would replace a message carrying the code). */
function connectionProblem(code: string | undefined, message: string, timeoutMs?: number): string {
	const seconds = timeoutMs === undefined ? undefined : Math.round(timeoutMs / 100) / 10;
	if (
		/timeout|timed out/i.test(message) ||
		['ETIMEDOUT', 'ECONNABORTED', 'ERR_SOCKET_CONNECTION_TIMEOUT'].includes(code ?? '')
	) {
		return seconds === undefined
			? 'FacilitaPay did not answer in time'
			: `FacilitaPay did not answer within ${seconds} s`;
	}
	if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(message)) {
		return 'the connection was closed before FacilitaPay answered';
	}
	if (code === 'ECONNREFUSED')
		return 'the connection was refused (is the base URL right, and is the service up?)';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return 'the host name of the base URL could not be resolved';
	if (/abort|cancel/i.test(message)) return 'the request was cancelled';
	return 'the connection failed before FacilitaPay answered';
}

/**
 * Whether a money-moving request may have been processed although it failed: no answer after it
 * left (timeout, reset), or a 5xx. Such a request is never sent again automatically.
 */
function isAmbiguous(request: ApiRequest, facts: FailureFacts): boolean {
	if (request.retry !== 'sendOnce') return false;
	if (facts.status === undefined)
		return !(facts.code !== undefined && NOT_SENT_ERRORS.has(facts.code));
	return facts.status >= 500;
}

const CHECK_BEFORE_SENDING_AGAIN =
	'Check whether it was processed before sending it again: Transaction > Get (or Subscription > Get) with the ID, Notification > Get Many, or the FacilitaPay dashboard.';

function errorForFailure(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	facts: FailureFacts,
	attempts: number,
	timeoutMs?: number,
): NodeApiError {
	const where = `${request.method} ${request.path}`;
	const detail = describeErrorBody(facts.body);
	const item = request.itemIndex === undefined ? '' : ` (item ${request.itemIndex})`;
	const ambiguous = isAmbiguous(request, facts);
	let message: string;
	if (facts.status) {
		const head = STATUS_TEXT[facts.status] ?? `FacilitaPay answered with HTTP ${facts.status}`;
		message = `${head}${item}: ${detail ?? facts.message}`;
	} else {
		message = `Could not reach FacilitaPay${item}: ${connectionProblem(facts.code, facts.message, timeoutMs)}`;
	}
	if (ambiguous) message = `Outcome unknown${item}: ${message.replace(item, '')}`;
	const parts = [
		`Request: ${where}${facts.status ? `, HTTP ${facts.status}` : ''}${
			attempts > 1 ? `, after ${attempts} attempts` : ''
		}.`,
	];
	if (facts.status === 400 || facts.status === 422) {
		parts.push('Correct the fields named above and run the node again.');
	} else if (facts.status === 401) {
		parts.push('Open the FacilitaPay credentials and check the environment and token.');
	} else if (facts.status === 429) {
		parts.push(
			'FacilitaPay did not process it. Lower Max Parallel Requests in the node options, or run the node again later.',
		);
	}
	if (ambiguous) {
		parts.push(
			`This request creates or moves money and may have been processed by FacilitaPay, so it was not repeated (n8n's Retry On Fail does not send it again in this execution either). ${CHECK_BEFORE_SENDING_AGAIN}`,
		);
	} else if (facts.status === undefined && request.retry === 'safe') {
		parts.push('Check the base URL in the credentials and your network, then run the node again.');
	}
	const error = new NodeApiError(
		ctx.getNode(),
		{ message, status: facts.status ?? null, body: (parseBody(facts.body) ?? null) as JsonObject },
		{
			message,
			description: parts.join(' '),
			httpCode: facts.status ? String(facts.status) : undefined,
			itemIndex: request.itemIndex,
		},
	);
	if (ambiguous) error.context.outcome = 'unknown';
	return error;
}

/** A money-moving request whose first try in this execution had no clear outcome: not sent again. */
function repeatedUnknownOutcome(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	earlier: SentOutcome,
): NodeApiError {
	const item = request.itemIndex === undefined ? '' : ` (item ${request.itemIndex})`;
	const cause =
		earlier.state === 'unknown'
			? earlier.error.message.replace(/^Outcome unknown( \(item \d+\))?: /, '')
			: 'it was still being sent';
	const error = new NodeApiError(
		ctx.getNode(),
		{ message: 'outcome unknown' },
		{
			message: `Outcome unknown${item}: this request was already sent in this execution and ${cause.charAt(0).toLowerCase()}${cause.slice(1)}`,
			description: `Request: ${request.method} ${request.path}. It creates or moves money, so it is sent at most once per execution, also when the node runs again (Retry On Fail). ${CHECK_BEFORE_SENDING_AGAIN}`,
			itemIndex: request.itemIndex,
		},
	);
	error.context.outcome = 'unknown';
	return error;
}

function retryAfterMs(headers: Record<string, unknown>): number | undefined {
	const raw = headers['retry-after'] ?? headers['Retry-After'];
	if (raw === undefined || raw === null) return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(raw));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with full jitter, or the service's Retry-After when it gives one. */
export function retryDelay(attempt: number, facts: FailureFacts, options: RetryOptions): number {
	const fromHeader = retryAfterMs(facts.headers);
	if (fromHeader !== undefined) return Math.min(fromHeader, options.maxDelayMs * 3);
	const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (options.random() * ceiling) / 2);
}

function mayRetry(policy: RetryPolicy, facts: FailureFacts): boolean {
	if (policy === 'sendOnce') {
		return (
			facts.status === undefined && facts.code !== undefined && NOT_SENT_ERRORS.has(facts.code)
		);
	}
	if (facts.status !== undefined) return RETRYABLE_STATUS.has(facts.status);
	return facts.code !== undefined && CONNECTION_ERRORS.has(facts.code);
}

/** What one node run shares among all its requests: the limiter, the credentials, the timeout. */
export interface RunSettings {
	/** Max Parallel Requests: the most requests in flight at once. */
	concurrency: number;
	/** How long to wait for an answer, in milliseconds. */
	timeoutMs: number;
}

export const DEFAULT_RUN_SETTINGS: RunSettings = { concurrency: 20, timeoutMs: 30_000 };

interface RunState {
	settings: RunSettings;
	limiter: AdaptiveLimiter;
	credentials?: Promise<ICredentialDataDecryptedObject>;
	/** n8n's $runIndex of this run of the node, when n8n tells it. */
	runIndex?: number;
}

const runs = new WeakMap<object, RunState>();

/**
 * Starts a run of the node: its requests then share one adaptive limiter, one read of the
 * credentials (whose refreshed session token every request sees) and one timeout.
 */
export function beginRun(ctx: FacilitaPayContext, settings: RunSettings): AdaptiveLimiter {
	const limiter = new AdaptiveLimiter(settings.concurrency);
	runs.set(ctx, { settings, limiter, runIndex: runIndexOf(ctx) });
	return limiter;
}

/** n8n's $runIndex: unchanged when Retry On Fail runs the node again, higher on each loop pass. */
function runIndexOf(ctx: FacilitaPayContext): number | undefined {
	try {
		const runIndex = (ctx as IExecuteFunctions).getWorkflowDataProxy?.(0)?.$runIndex;
		return typeof runIndex === 'number' ? runIndex : undefined;
	} catch {
		return undefined;
	}
}

function runOf(ctx: FacilitaPayContext): RunState {
	let run = runs.get(ctx);
	if (!run) {
		run = {
			settings: DEFAULT_RUN_SETTINGS,
			limiter: new AdaptiveLimiter(DEFAULT_RUN_SETTINGS.concurrency),
		};
		runs.set(ctx, run);
	}
	return run;
}

/**
 * The credentials, read and decrypted once per run (n8n would read and decrypt them from its
 * database for every request). A session token renewed by any request is written back here, so the
 * requests that follow use it instead of each signing in again.
 */
async function credentialsOf(
	ctx: FacilitaPayContext,
	run: RunState,
): Promise<ICredentialDataDecryptedObject> {
	if (!run.credentials) {
		const reading = ctx.getCredentials(CREDENTIAL_TYPE) as Promise<ICredentialDataDecryptedObject>;
		// A failed read is not kept: the next request reads again.
		reading.catch(() => {
			if (run.credentials === reading) run.credentials = undefined;
		});
		run.credentials = reading;
	}
	return await run.credentials;
}

/** Hands a session token renewed during one request (on its copy) to the run's credentials. */
function adoptRenewedToken(
	run: ICredentialDataDecryptedObject,
	used: ICredentialDataDecryptedObject,
): void {
	if (used.sessionToken === undefined || used.sessionToken === run.sessionToken) return;
	run.sessionToken = used.sessionToken;
	run.sessionFingerprint = used.sessionFingerprint;
}

/** How many times a request refused with 429 is tried, the first try included. */
const RATE_LIMITED_ATTEMPTS = 12;
/** The longest Retry-After honoured as given; longer ones are cut to this. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The key under which a money-moving request is remembered, or undefined outside an execution. */
function sentKey(ctx: FacilitaPayContext, request: ApiRequest): string | undefined {
	if (request.retry !== 'sendOnce' || !('getExecutionId' in ctx)) return undefined;
	const executionId = (ctx as IExecuteFunctions).getExecutionId?.();
	if (!executionId) return undefined;
	const node = ctx.getNode();
	return SentRequests.key({
		executionId: String(executionId),
		nodeId: node.id ?? node.name,
		runIndex: runs.get(ctx)?.runIndex,
		itemIndex: request.itemIndex ?? -1,
		method: request.method,
		path: request.path,
		body: request.body,
	});
}

/** The wait before trying a 429 again: Retry-After (with up to 20 % jitter) or backoff. */
function rateLimitDelay(attempt: number, facts: FailureFacts, options: RetryOptions): number {
	const fromHeader = retryAfterMs(facts.headers);
	if (fromHeader !== undefined) {
		const base = Math.min(fromHeader, MAX_RETRY_AFTER_MS);
		return Math.round(base + base * 0.2 * options.random());
	}
	return retryDelay(Math.min(attempt, 6), facts, options);
}

async function send(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	extra: Partial<IHttpRequestOptions>,
	retryOptions: RetryOptions,
): Promise<unknown> {
	const run = runOf(ctx);
	const key = sentKey(ctx, request);
	if (key) {
		const earlier = sentRequests.get(key);
		if (earlier?.state === 'done') return earlier.answer;
		if (earlier) throw repeatedUnknownOutcome(ctx, request, earlier);
	}
	const credentials = await credentialsOf(ctx, run);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${credentialBaseUrl(credentials)}${request.path}`,
		json: true,
		timeout: request.timeout ?? run.settings.timeoutMs,
		...extra,
		// The service wants this header on every request, with or without a body.
		headers: { Accept: 'application/json', ...extra.headers, 'Content-Type': 'application/json' },
	};
	if (request.body !== undefined) options.body = request.body;
	if (request.qs !== undefined && Object.keys(request.qs).length > 0) options.qs = request.qs;
	const node = ctx.getNode();
	const credentialIdentity = {
		id: node.credentials?.[CREDENTIAL_TYPE]?.id ?? CREDENTIAL_TYPE,
		name: node.credentials?.[CREDENTIAL_TYPE]?.name ?? CREDENTIAL_TYPE,
		type: CREDENTIAL_TYPE,
	};

	let otherAttempts = 0;
	for (let attempt = 1; ; attempt++) {
		const ticket = await run.limiter.acquire(attempt > 1);
		// After a 429 with Retry-After, requests not yet tried wait for it too (a retry already did).
		const pause = attempt === 1 ? run.limiter.pauseLeft() : 0;
		if (pause > 0) await retryOptions.wait(pause);
		if (key) sentRequests.set(key, { state: 'sending' });
		let facts: FailureFacts;
		// Each try carries its own copy of the run's credentials, so that a refusal reaches the
		// credential's sign-in with the very token this request was sent with; a token renewed on
		// the copy is handed back to the run for the requests that follow.
		const data = { ...credentials };
		try {
			const answer = await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
				{
					credentialsDecrypted: { ...credentialIdentity, data },
				},
			);
			adoptRenewedToken(credentials, data);
			run.limiter.release('ok', ticket);
			if (key) sentRequests.set(key, { state: 'done', answer });
			return answer;
		} catch (error) {
			adoptRenewedToken(credentials, data);
			facts = failureFacts(error);
			run.limiter.release(facts.status === 429 ? 'limited' : 'failed', ticket);
		}
		if (facts.status === 429) {
			const retryAfter = retryAfterMs(facts.headers);
			if (retryAfter !== undefined) run.limiter.pauseFor(Math.min(retryAfter, MAX_RETRY_AFTER_MS));
			// Not processed: safe to send again, money or not.
			if (key) sentRequests.forget(key);
			if (attempt >= RATE_LIMITED_ATTEMPTS)
				throw errorForFailure(ctx, request, facts, attempt, options.timeout);
			await retryOptions.wait(rateLimitDelay(attempt, facts, retryOptions));
			continue;
		}
		otherAttempts++;
		const retryable = mayRetry(request.retry, facts);
		if (!retryable || otherAttempts >= retryOptions.maxAttempts) {
			const failure = errorForFailure(ctx, request, facts, attempt, options.timeout);
			if (key) {
				if (isAmbiguous(request, facts))
					sentRequests.set(key, { state: 'unknown', error: failure });
				else sentRequests.forget(key);
			}
			throw failure;
		}
		if (key) sentRequests.forget(key);
		await retryOptions.wait(retryDelay(otherAttempts, facts, retryOptions));
	}
}

/** Sends one JSON request and returns the service's `data` (or the whole body when it has none). */
export async function apiRequest<T = unknown>(
	this: FacilitaPayContext,
	request: ApiRequest,
	retryOptions: RetryOptions = defaultRetryOptions,
): Promise<T> {
	const response = await send(this, request, {}, retryOptions);
	const parsed = parseBody(response);
	if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'data' in parsed) {
		return (parsed as IDataObject).data as T;
	}
	return parsed as T;
}

export interface PageOptions {
	/** Stop after this many items; undefined returns all. */
	limit?: number;
	/** The service's page size for this list, when known (people: 100). A shorter page ends the list. */
	pageSize?: number;
	/** Query parameter that carries the page size, when the endpoint accepts one. */
	pageSizeParam?: string;
	/**
	 * Whether a page shorter than `pageSize` ends the list (default true). Set it to false when the
	 * service's maximum page size is unknown and it may return fewer items than asked for: the list
	 * then ends only on an empty page, a page with nothing new, or the `limit`.
	 */
	shortPageEnds?: boolean;
}

/**
 * Follows `last_id` keyset paging: asks for the next page with the id of the last item seen, until
 * a page is empty, shorter than the known page size, or brings nothing new; or until `limit` items
 * were collected (no further page is requested once it is reached).
 */
export async function apiRequestAllItems(
	this: FacilitaPayContext,
	request: ApiRequest,
	page: PageOptions = {},
	retryOptions: RetryOptions = defaultRetryOptions,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	const qs: IDataObject = { ...(request.qs ?? {}) };
	const seen = new Set<string>();
	for (;;) {
		if (page.pageSizeParam && page.pageSize) {
			const remaining = page.limit === undefined ? page.pageSize : page.limit - items.length;
			qs[page.pageSizeParam] = String(Math.min(page.pageSize, remaining));
		}
		const data = await apiRequest.call(this, { ...request, qs: { ...qs } }, retryOptions);
		const pageItems = Array.isArray(data) ? (data as IDataObject[]) : [];
		let fresh = 0;
		for (const item of pageItems) {
			const id = item && typeof item === 'object' ? String(item.id ?? '') : '';
			if (id && seen.has(id)) continue;
			if (id) seen.add(id);
			items.push(item);
			fresh++;
			if (page.limit !== undefined && items.length >= page.limit) return items;
		}
		const last = pageItems[pageItems.length - 1];
		const lastId = last && typeof last === 'object' ? last.id : undefined;
		if (
			pageItems.length === 0 ||
			fresh === 0 ||
			lastId === undefined ||
			lastId === null ||
			(page.shortPageEnds !== false &&
				page.pageSize !== undefined &&
				pageItems.length < page.pageSize)
		) {
			return items;
		}
		qs.last_id = lastId;
	}
}

export interface BinaryResponse {
	data: Buffer;
	contentType: string;
}

/** Downloads a file (e.g. the boleto PDF) as a Buffer with its content type. */
export async function apiDownload(
	this: FacilitaPayContext,
	request: ApiRequest,
	retryOptions: RetryOptions = defaultRetryOptions,
): Promise<BinaryResponse> {
	const response = (await send(
		this,
		request,
		{
			json: false,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			headers: { Accept: 'application/pdf, application/octet-stream, */*' },
		},
		retryOptions,
	)) as { body: Buffer | ArrayBuffer | string; headers?: Record<string, string> };
	const body = response.body;
	const data = Buffer.isBuffer(body)
		? body
		: typeof body === 'string'
			? Buffer.from(body, 'binary')
			: Buffer.from(body as ArrayBuffer);
	const contentType = String(response.headers?.['content-type'] ?? 'application/octet-stream')
		.split(';')[0]
		.trim();
	return { data, contentType };
}
