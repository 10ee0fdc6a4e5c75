// A caller's deadline on the transport's apiRequest (the trigger's registration gives one), called
// directly: no node run reaches a deadline this short. The transport needs of its caller only the
// node, the credential and n8n's httpRequestWithAuthentication, given here as plain values; the send
// loop through the node runs on n8n's engine: test/engine/operations/transport/send.test.mjs.
import type { IExecuteFunctions, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	apiRequest,
	beginRun,
	DEFAULT_RUN_SETTINGS,
	defaultRetryOptions,
} from '../../../nodes/FacilitaPay/transport';
import { workflowNode } from '../helpers/workflowNode';

const node = workflowNode('node-1', 'FacilitaPay', 'n8n-nodes-facilitapay.facilitaPay');

/** What n8n-core throws for a 429 with Retry-After: 30. */
const tooManyRequests = () => {
	const cause = Object.assign(new Error('Request failed with status code 429'), {
		name: 'AxiosError',
		isAxiosError: true,
		response: {
			status: 429,
			data: { error: 'too_many_requests' },
			headers: { 'retry-after': '30' },
		},
	});
	return new NodeApiError(node, cause as unknown as JsonObject);
};

describe("a caller's deadline bounds every wait", () => {
	it('a request that would have to wait out a Retry-After past the deadline gives its slot back and is not sent', async () => {
		const sent: string[] = [];
		const ctx = {
			getNode: () => node,
			getCredentials: async () => ({
				environment: 'custom',
				baseUrl: 'https://sandbox.test/api/v1/',
				authentication: 'accessToken',
				accessToken: 'test-token',
			}),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
					sent.push(String(request.url));
					throw tooManyRequests();
				},
			},
		} as unknown as IExecuteFunctions;
		const run = beginRun(DEFAULT_RUN_SETTINGS);
		const options = { ...defaultRetryOptions, deadline: Date.now() + 5_000, wait: async () => {} };
		await expect(
			apiRequest.call(ctx, { method: 'GET', path: '/a', retry: 'safe' }, options, run),
		).rejects.toMatchObject({ context: expect.objectContaining({ outcome: 'failed' }) });
		// The 429's Retry-After (30 s) now holds every new request; with 5 s left, none is sent.
		await expect(
			apiRequest.call(ctx, { method: 'GET', path: '/b', retry: 'safe' }, options, run),
		).rejects.toMatchObject({ message: expect.stringMatching(/no time left/) });
		expect(sent).toEqual(['https://sandbox.test/api/v1/a']);
		expect(run.limiter.allowed).toBeGreaterThanOrEqual(1);
	});
});
