import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Errors as data. Every error the node raises carries what happened as facts in its `context.facts`
 * (the item, the outcome, the request, the service's own words, how to fix it); `words()` is the one
 * place that turns facts into the message and description a person reads. The item engine (the
 * edge) composes them once more with what it knows of the whole run; nobody edits another layer's
 * sentence.
 */

/** What became of one item's request. */
export type Outcome =
	/** The service answered with an error: nothing happened there. */
	| 'failed'
	/** It may have been processed (timeout, reset, 5xx after it left): never sent again blindly. */
	| 'unknown'
	/** It never left n8n (bad input, refused connection, sign-in failed, run stopped first). */
	| 'notSent'
	/** The service processed it, but something after that failed (building the output item). */
	| 'done';

export interface ErrorFacts {
	itemIndex?: number;
	outcome: Outcome;
	/** What happened, without the item: "FacilitaPay rejected the data", "Invalid CPF". */
	head: string;
	/** The service's or the rule's own words, when there are any: "value: must have two decimals". */
	detail?: string;
	/** `POST /transactions`, when a request was involved. */
	request?: string;
	status?: number;
	attempts?: number;
	/** What the user can do about it. */
	fix?: string;
	/** Whether the request creates or moves money (or is otherwise not idempotent). */
	movesMoney?: boolean;
	/** The record the request created or changed (outcome `done`). */
	recordId?: string;
	/** The input broke a rule: checked before anything was sent. */
	invalidInput?: boolean;
}

export type FacilitaPayError = NodeApiError | NodeOperationError;

export const CHECK_BEFORE_SENDING_AGAIN =
	'Check whether it was processed before sending it again: Transaction > Get (or Subscription > Get) with the ID, Notification > Get Many, or the FacilitaPay dashboard. Retrying the execution from n8n is safe: the node looks the request up at FacilitaPay first.';

const NOT_SENT = 'Nothing was sent to FacilitaPay for this item.';

/** The message and description a person reads, from the facts alone. */
export function words(facts: ErrorFacts): { message: string; description: string } {
	const item = facts.itemIndex === undefined ? '' : ` (item ${facts.itemIndex})`;
	const what = `${facts.head}${facts.detail ? `: ${facts.detail}` : ''}`;
	let message: string;
	if (facts.outcome === 'unknown') message = `Outcome unknown${item}: ${what}`;
	else if (facts.outcome === 'done')
		message = `Done${facts.recordId ? ` (ID ${facts.recordId})` : ''}${item}, but ${lowerFirst(what)}`;
	else if (facts.invalidInput)
		message = `${facts.head}${item}${facts.detail ? `: ${facts.detail}` : ''}`;
	else if (facts.outcome === 'notSent' && !facts.request) message = `Not sent${item}: ${what}`;
	else message = `${facts.head}${item}${facts.detail ? `: ${facts.detail}` : ''}`;

	const parts: string[] = [];
	if (facts.request) {
		parts.push(
			`Request: ${facts.request}${facts.status ? `, HTTP ${facts.status}` : ''}${
				facts.attempts && facts.attempts > 1 ? `, after ${facts.attempts} attempts` : ''
			}.`,
		);
	}
	if (facts.fix) parts.push(facts.fix);
	if (facts.outcome === 'unknown') {
		parts.push(
			`This request creates or moves money and may have been processed by FacilitaPay, so it was not repeated (n8n's Retry On Fail does not send it again in this execution either). ${CHECK_BEFORE_SENDING_AGAIN}`,
		);
	} else if (facts.outcome === 'done') {
		parts.push(
			'FacilitaPay processed the request: do not send it again. Running the node again in this execution returns the same answer instead of sending it.',
		);
	} else if (facts.outcome === 'notSent') {
		parts.push(NOT_SENT);
	}
	return { message, description: parts.join(' ') };
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The facts an error carries, or undefined for an error that did not come from this package. */
export function factsOf(error: unknown): ErrorFacts | undefined {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return undefined;
	return error.context.facts as ErrorFacts | undefined;
}

/** The error that carries `facts`, worded by `words()`. */
export function errorFromFacts(
	node: INode,
	facts: ErrorFacts,
	response?: { status?: number; body?: unknown },
): FacilitaPayError {
	const { message, description } = words(facts);
	let error: FacilitaPayError;
	if (response) {
		error = new NodeApiError(
			node,
			{ message, status: response.status ?? null, body: (response.body ?? null) as JsonObject },
			{
				message,
				description,
				httpCode: response.status ? String(response.status) : undefined,
				itemIndex: facts.itemIndex,
			},
		);
	} else {
		error = new NodeOperationError(node, message, { description, itemIndex: facts.itemIndex });
	}
	setFacts(error, facts);
	return error;
}

/** Stores changed facts on an error and words it again (the only way an error's text changes). */
export function setFacts(error: FacilitaPayError, facts: ErrorFacts, extra?: string): void {
	const { message, description } = words(facts);
	error.context.facts = facts as unknown as IDataObject;
	error.context.outcome = facts.outcome;
	if (facts.itemIndex !== undefined) error.context.itemIndex = facts.itemIndex;
	error.message = message;
	error.description = extra ? `${description}\n\n${extra}`.trim() : description;
}

// ---------------------------------------------------------------------------------------------
// Reading what n8n's request helpers threw

/** How the credential's sign-in errors start: the request they were for never left. */
export const SIGN_IN_FAILED = 'FacilitaPay sign-in failed:';

export interface FailureFacts {
	status?: number;
	code?: string;
	body?: unknown;
	headers: Record<string, unknown>;
	message: string;
	/** The URL of the request that failed, when the error tells it (e.g. the sign-in). */
	url?: string;
	/** The failure was the credential's sign-in: the request itself never left. */
	signIn?: boolean;
}

/** Reads status, body, headers and connection code out of whatever n8n's request helpers threw. */
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
	const config = (cause.config ?? e.config ?? {}) as IDataObject;
	const url = config.url ?? (cause.options as IDataObject | undefined)?.url;
	// n8n 1.x keeps neither the cause nor the URL of the errors it builds; the words survive.
	const texts = [e.message, e.description, cause.message, ...((e.messages as unknown[]) ?? [])];
	const signIn =
		texts.some((text) => typeof text === 'string' && text.includes(SIGN_IN_FAILED)) ||
		(typeof url === 'string' && /\/sign_in(\?|$)/.test(url));
	return {
		status: Number.isFinite(status) && status !== 0 ? status : undefined,
		code: typeof code === 'string' ? code : undefined,
		body,
		headers: (response.headers ?? {}) as Record<string, unknown>,
		message: String(e.message ?? 'Unknown error'),
		url: typeof url === 'string' ? url : undefined,
		signIn,
	};
}

export function parseBody(body: unknown): unknown {
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

const ERROR_HINTS: Record<string, string> = {
	invalid_token:
		'the access token is wrong or expired: check the FacilitaPay credentials, or sign in again',
	invalid_credentials: 'the username or password in the FacilitaPay credentials is wrong',
	not_found: 'no record with this id exists in this FacilitaPay account',
};

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

/** The head of an HTTP error: what the status means. */
export function statusHead(status: number): string {
	return STATUS_TEXT[status] ?? `FacilitaPay answered with HTTP ${status}`;
}

/** What a connection failure means, in words (n8n would replace a message carrying the code). */
export function connectionProblem(
	code: string | undefined,
	message: string,
	timeoutMs?: number,
): string {
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

/** How to fix a failure with this HTTP status, when there is a usual fix. */
export function fixForStatus(status: number | undefined): string | undefined {
	if (status === 400 || status === 422)
		return 'Correct the fields named above and run the node again.';
	if (status === 401)
		return 'Open the FacilitaPay credentials and check the environment and token.';
	if (status === 429)
		return 'FacilitaPay did not process it. Lower Max Parallel Requests in the node options, or run the node again later.';
	return undefined;
}
