import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { credentialBaseUrl } from './tokenTarget';
import { noteRefusedToken } from './signIn';
import type { ErrorFacts, FacilitaPayError, FailureFacts } from './errors';
import {
	connectionProblem,
	describeErrorBody,
	errorFromFacts,
	failureFacts,
	fixForStatus,
	parseBody,
	statusHead,
} from './errors';
import type { RetryOptions, RetryPolicy } from './retry';
import {
	isAmbiguous,
	mayRetry,
	provesNotSent,
	rateLimitDelay,
	retryAfterMs,
	retryDelay,
	timeLeft,
} from './retry';
import type { FacilitaPayContext, RunState } from './run';
import { adoptRenewedToken, beginRun, CREDENTIAL_TYPE, credentialsOf, waitInRun } from './run';
import { accountOfCredentials, noteServiceDate } from './serviceClock';

/** FacilitaPay's clock as an answer shows it (its `Date` header), for the money rule. */
function noteDate(credentials: ICredentialDataDecryptedObject, response: unknown): void {
	if (!isFullResponse(response) || !response.headers) return;
	const headers = response.headers;
	noteServiceDate(accountOfCredentials(credentials), headers.date ?? headers.Date);
}

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

interface FullResponse {
	body: unknown;
	headers?: Record<string, unknown>;
	statusCode: number;
}

function isFullResponse(response: unknown): response is FullResponse {
	return (
		typeof response === 'object' &&
		response !== null &&
		typeof (response as FullResponse).statusCode === 'number' &&
		'body' in response
	);
}

/** The facts of an error answer (4xx, 5xx) given back as a response, or undefined for a success. */
function refusal(response: unknown): FailureFacts | undefined {
	if (!isFullResponse(response) || response.statusCode < 400) return undefined;
	const headers: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(response.headers ?? {}))
		headers[name.toLowerCase()] = value;
	return {
		status: response.statusCode,
		body: response.body,
		headers,
		message: `Request failed with status code ${response.statusCode}`,
	};
}

/** How many times a request refused with 401 is sent again with a renewed session token. */
const TOKEN_RENEWALS = 2;

/** The facts of a request that failed with `facts` after `attempts` tries. */
function facts(
	request: ApiRequest,
	failure: FailureFacts,
	attempts: number,
	timeoutMs?: number,
): ErrorFacts {
	const ambiguous = isAmbiguous(request.retry, failure);
	const notSent = provesNotSent(failure);
	const signIn = failure.signIn === true;
	let head: string;
	let detail: string | undefined;
	if (failure.status) {
		head = signIn ? 'FacilitaPay refused the sign-in' : statusHead(failure.status);
		detail = describeErrorBody(failure.body) ?? failure.message;
	} else {
		head = signIn ? 'Could not sign in to FacilitaPay' : 'Could not reach FacilitaPay';
		detail = connectionProblem(failure.code, failure.message, timeoutMs);
	}
	let fix = fixForStatus(failure.status);
	if (signIn)
		fix = 'Check the username and password in the FacilitaPay credentials and the base URL.';
	else if (!ambiguous && failure.status === undefined && request.retry !== 'sendOnce')
		fix = 'Check the base URL in the credentials and your network, then run the node again.';
	return {
		itemIndex: request.itemIndex,
		outcome: ambiguous ? 'unknown' : notSent ? 'notSent' : 'failed',
		head,
		detail,
		request: `${request.method} ${request.path}`,
		status: signIn ? undefined : failure.status,
		attempts,
		fix,
		movesMoney: request.retry === 'sendOnce',
	};
}

function errorFor(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	failure: FailureFacts,
	attempts: number,
	timeoutMs?: number,
): FacilitaPayError {
	return errorFromFacts(ctx.getNode(), facts(request, failure, attempts, timeoutMs), {
		status: failure.status,
		body: parseBody(failure.body),
	});
}

/** A request the run gave up before it left: it stopped at another item's failure, or ran out of time. */
function notSentError(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	head: string,
	earlier?: FailureFacts,
): FacilitaPayError {
	return errorFromFacts(ctx.getNode(), {
		itemIndex: request.itemIndex,
		outcome: 'notSent',
		head,
		detail: earlier ? (describeErrorBody(earlier.body) ?? earlier.message) : undefined,
		request: `${request.method} ${request.path}`,
		status: earlier?.status,
		movesMoney: request.retry === 'sendOnce',
	});
}

function requestOptions(
	run: RunState,
	credentials: ICredentialDataDecryptedObject,
	request: ApiRequest,
	extra: Partial<IHttpRequestOptions>,
): IHttpRequestOptions {
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
	return options;
}

/**
 * The send loop: one request through the run's limiter, with the retry policy. 429 is tried again
 * for every request (Retry-After honoured, the run's new requests wait it out too); a 401 with a
 * session token is sent again with the renewed token; other failures only under `mayRetry`. No
 * try starts after the run stopped or past the caller's deadline.
 */
export async function send(
	ctx: FacilitaPayContext,
	request: ApiRequest,
	extra: Partial<IHttpRequestOptions>,
	retryOptions: RetryOptions,
	run: RunState = beginRun(),
): Promise<unknown> {
	const wait = async (ms: number) => await waitInRun(run, ms, retryOptions.wait);
	const credentials = await credentialsOf(ctx, run);
	const wantsFullResponse = extra.returnFullResponse === true;
	const options = requestOptions(run, credentials, request, extra);
	// The status, headers and body of an error answer come back as data, not as an n8n error: n8n
	// 1.x drops the headers (Retry-After) of the errors it builds.
	options.returnFullResponse = true;
	options.ignoreHttpStatusErrors = true;
	const baseTimeout = options.timeout ?? run.settings.timeoutMs;
	const node = ctx.getNode();
	const credentialIdentity = {
		id: node.credentials?.[CREDENTIAL_TYPE]?.id ?? CREDENTIAL_TYPE,
		name: node.credentials?.[CREDENTIAL_TYPE]?.name ?? CREDENTIAL_TYPE,
		type: CREDENTIAL_TYPE,
	};
	const sessionAuth = credentials.authentication === 'usernamePassword';

	let otherAttempts = 0;
	let renewals = 0;
	let last: FailureFacts | undefined;
	for (let attempt = 1; ; attempt++) {
		if (run.stopped)
			throw notSentError(ctx, request, 'The run stopped at an earlier failure', last);
		const ticket = await run.limiter.acquire(attempt > 1);
		if (run.stopped) {
			run.limiter.release('failed', ticket);
			throw notSentError(ctx, request, 'The run stopped at an earlier failure', last);
		}
		// After a 429 with Retry-After, requests not yet tried wait for it too (a retry already did).
		const pause = attempt === 1 ? run.limiter.pauseLeft() : 0;
		// Once the service's rate is known, starts are spaced to it.
		const paced = run.limiter.paceDelay();
		if (pause + paced > 0 && pause + paced >= timeLeft(retryOptions)) {
			// The wait would outlast the caller's deadline: give the slot back, send nothing.
			run.limiter.release('failed', ticket);
			if (last) throw errorFor(ctx, request, last, attempt - 1, options.timeout);
			throw notSentError(ctx, request, 'There was no time left to send it');
		}
		if (pause > 0) await wait(pause);
		if (paced > 0) await wait(paced);
		const left = timeLeft(retryOptions);
		if (run.stopped || left <= 0) {
			run.limiter.release('failed', ticket);
			if (run.stopped)
				throw notSentError(ctx, request, 'The run stopped at an earlier failure', last);
			if (last) throw errorFor(ctx, request, last, attempt - 1, options.timeout);
			throw notSentError(ctx, request, 'There was no time left to send it');
		}
		options.timeout = Math.max(1, Math.min(baseTimeout, left));
		// Each try carries its own copy of the run's credentials, so that a refusal reaches the
		// credential's sign-in with the very token this request was sent with; a token renewed on
		// the copy is handed back to the run for the requests that follow.
		const data = { ...credentials };
		let failure: FailureFacts;
		try {
			const response = await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: { ...credentialIdentity, data } },
			);
			adoptRenewedToken(credentials, data);
			noteDate(credentials, response);
			const refused = refusal(response);
			if (refused === undefined) {
				run.limiter.release('ok', ticket);
				return wantsFullResponse || !isFullResponse(response) ? response : response.body;
			}
			failure = refused;
		} catch (error) {
			adoptRenewedToken(credentials, data);
			failure = failureFacts(error);
		}
		run.limiter.release(failure.status === 429 ? 'limited' : 'failed', ticket);
		last = failure;
		if (failure.status === 429) {
			const retryAfter = retryAfterMs(failure.headers, retryOptions.now);
			if (retryAfter !== undefined)
				run.limiter.pauseFor(Math.min(retryAfter, retryOptions.rateLimit.maxRetryAfterMs));
			// Not processed: safe to send again, money or not.
			const delay = rateLimitDelay(attempt, failure, retryOptions);
			if (attempt >= retryOptions.rateLimit.maxAttempts || delay >= timeLeft(retryOptions))
				throw errorFor(ctx, request, failure, attempt, options.timeout);
			await wait(delay);
			continue;
		}
		if (failure.status === 401 && sessionAuth && renewals < TOKEN_RENEWALS) {
			// Refused, so not processed: sent again. The refused token is noted and taken off the run,
			// so n8n asks the credential for a token: the sign-in under way or a new one (one per
			// process, shared by every request refused with that token), or a newer token of the run.
			renewals++;
			noteRefusedToken(credentials, data.sessionToken);
			if (credentials.sessionToken === data.sessionToken) credentials.sessionToken = '';
			continue;
		}
		otherAttempts++;
		if (!mayRetry(request.retry, failure) || otherAttempts >= retryOptions.maxAttempts)
			throw errorFor(ctx, request, failure, attempt, options.timeout);
		const delay = retryDelay(otherAttempts, failure, retryOptions);
		if (delay >= timeLeft(retryOptions))
			throw errorFor(ctx, request, failure, attempt, options.timeout);
		await wait(delay);
	}
}
