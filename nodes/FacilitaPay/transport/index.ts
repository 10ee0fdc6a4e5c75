import type {
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

export const CREDENTIAL_TYPE = 'facilitaPayApi';

export type FacilitaPayContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * How a request may be repeated after a failure.
 * - `safe`: reads and idempotent updates. Retried on 429, 502, 503, 504 and connection errors.
 * - `sendOnce`: creates or moves money (transactions, checkout, payouts, subscriptions, refunds,
 *   cancels, even when sent as GET) or is otherwise not idempotent (document upload). Never
 *   repeated once it may have reached the service: a duplicate payment is worse than a visible
 *   error. Only a refused connection (nothing was sent) is tried again.
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

function errorForFailure(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	facts: FailureFacts,
	attempts: number,
	note?: string,
): NodeApiError {
	const where = `${request.method} ${request.path}`;
	const detail = describeErrorBody(facts.body);
	const item = request.itemIndex === undefined ? '' : ` (item ${request.itemIndex})`;
	let message: string;
	if (facts.status) {
		const head = STATUS_TEXT[facts.status] ?? `FacilitaPay answered with HTTP ${facts.status}`;
		message = `${head}${item}: ${detail ?? facts.message}`;
	} else {
		message = `Could not reach FacilitaPay${item}: ${facts.code ?? facts.message}`;
	}
	const parts = [
		`Request: ${where}${facts.status ? `, HTTP ${facts.status}` : ''}${
			attempts > 1 ? `, after ${attempts} attempts` : ''
		}.`,
	];
	if (facts.status === 400 || facts.status === 422) {
		parts.push('Correct the fields named above and run the node again.');
	} else if (facts.status === 401) {
		parts.push('Open the FacilitaPay credentials and check the environment and token.');
	}
	if (note) parts.push(note);
	return new NodeApiError(
		ctx.getNode(),
		{ message, status: facts.status ?? null, body: (parseBody(facts.body) ?? null) as JsonObject },
		{
			message,
			description: parts.join(' '),
			httpCode: facts.status ? String(facts.status) : undefined,
			itemIndex: request.itemIndex,
		},
	);
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
		return facts.status === undefined && facts.code !== undefined && NOT_SENT_ERRORS.has(facts.code);
	}
	if (facts.status !== undefined) return RETRYABLE_STATUS.has(facts.status);
	return facts.code !== undefined && CONNECTION_ERRORS.has(facts.code);
}

async function send(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	extra: Partial<IHttpRequestOptions>,
	retryOptions: RetryOptions,
): Promise<unknown> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${credentialBaseUrl(credentials)}${request.path}`,
		json: true,
		...extra,
		// The service wants this header on every request, with or without a body.
		headers: { Accept: 'application/json', ...extra.headers, 'Content-Type': 'application/json' },
	};
	if (request.body !== undefined) options.body = request.body;
	if (request.qs !== undefined && Object.keys(request.qs).length > 0) options.qs = request.qs;

	for (let attempt = 1; ; attempt++) {
		try {
			return await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options);
		} catch (error) {
			const facts = failureFacts(error);
			const retryable = mayRetry(request.retry, facts);
			if (!retryable || attempt >= retryOptions.maxAttempts) {
				let note: string | undefined;
				if (request.retry === 'sendOnce' && !retryable && facts.status === undefined) {
					note =
						'This request creates or moves money and may have reached FacilitaPay, so it was not repeated. Check whether it was processed (for example with Transaction > Get or the notifications list) before running it again.';
				} else if (request.retry === 'sendOnce' && facts.status && facts.status >= 500) {
					note =
						'This request creates or moves money, so it was not repeated automatically. Check whether it was processed before running it again.';
				}
				throw errorForFailure(ctx, request, facts, attempt, note);
			}
			await retryOptions.wait(retryDelay(attempt, facts, retryOptions));
		}
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
			(page.shortPageEnds !== false && page.pageSize !== undefined && pageItems.length < page.pageSize)
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
