import type { IDataObject } from 'n8n-workflow';

import { parseBody } from './errors';
import type { RetryOptions } from './retry';
import { defaultRetryOptions } from './retry';
import type { FacilitaPayContext, RunState } from './run';
import type { ApiRequest } from './send';
import { send } from './send';

/**
 * Sends one JSON request and returns the service's `data` (or the whole body when it has none).
 * `run`: the run it belongs to (beginRun); without one, a run of its own.
 */
export async function apiRequest<T = unknown>(
	this: FacilitaPayContext,
	request: ApiRequest,
	retryOptions: RetryOptions = defaultRetryOptions,
	run?: RunState,
): Promise<T> {
	const response = await send(this, request, {}, retryOptions, run);
	const parsed = parseBody(response);
	if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'data' in parsed) {
		return (parsed as IDataObject).data as T;
	}
	return parsed as T;
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
	run?: RunState,
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
		run,
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
