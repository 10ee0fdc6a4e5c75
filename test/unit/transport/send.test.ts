// A caller's deadline on the transport's apiRequest, called directly (no node run reaches a deadline
// this short). The send loop through the node, on n8n's engine:
// test/engine/operations/transport/send.test.mjs.
import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { createContext } from '../helpers/executeContext';
import { httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';

skipRetryWaits();

describe("a caller's deadline bounds every wait", () => {
	it('a request that would have to wait out a Retry-After past the deadline gives its slot back and is not sent', async () => {
		const { apiRequest, beginRun } = await import('../../../nodes/FacilitaPay/transport');
		const { DEFAULT_RUN_SETTINGS } = await import('../../../nodes/FacilitaPay/transport/run');
		const fake = createContext({
			parameters: {},
			replies: [httpError(429, { error: 'too_many_requests' }, { 'retry-after': '30' })],
		});
		const run = beginRun(DEFAULT_RUN_SETTINGS);
		const options = { ...defaultRetryOptions, deadline: Date.now() + 5_000 };
		await expect(
			apiRequest.call(fake.ctx, { method: 'GET', path: '/a', retry: 'safe' }, options, run),
		).rejects.toMatchObject({ context: expect.objectContaining({ outcome: 'failed' }) });
		// The 429's Retry-After (30 s) now holds every new request; with 5 s left, none is sent.
		await expect(
			apiRequest.call(fake.ctx, { method: 'GET', path: '/b', retry: 'safe' }, options, run),
		).rejects.toMatchObject({ message: expect.stringMatching(/no time left/) });
		expect(fake.requests.map((r) => r.url)).toEqual(['https://sandbox.test/api/v1/a']);
		expect(run.limiter.allowed).toBeGreaterThanOrEqual(1);
	});
});
