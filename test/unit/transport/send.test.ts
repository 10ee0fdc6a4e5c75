// The send loop and the item engine around money-moving requests: what an error says, what is
// still sent after a failure, a token that expired, error answers given back as data.
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { cardSubscription } from '../actions/subscription/fixtures';
import { createContext, runNode, runNodeExpectingError } from '../helpers/executeContext';
import { connectionError, httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import { BRL_NO_PIX_KEY, dynamicPixParameters } from '../../fixtures/transactions';
import { newExecutionId, payout, service } from '../money/fixtures';

skipRetryWaits();

describe('every path keeps its truth', () => {
	it('a sign-in that timed out means the payout was not sent', async () => {
		const signIn = Object.assign(new Error('timeout of 30000ms exceeded'), {
			code: 'ECONNABORTED',
			config: { url: 'https://sandbox.test/api/v1/sign_in' },
		});
		const { error } = await runNodeExpectingError({
			parameters: [payout('16.00')],
			executionId: newExecutionId(),
			replies: Array(4).fill(Object.assign(new Error('sign-in failed'), { cause: signIn })),
		});
		expect(error.context.outcome).toBe('notSent');
		expect(error.message).toMatch(/^Could not sign in to FacilitaPay \(item 0\)/);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for this item/);
	});

	it('a sign-in failure is "not sent" also when n8n 1.x kept only its words (no cause, no URL)', async () => {
		const words = Object.assign(
			new Error('FacilitaPay sign-in failed: timeout of 30000ms exceeded'),
			{
				code: 'ECONNABORTED',
			},
		);
		const { error } = await runNodeExpectingError({
			parameters: [payout('16.50')],
			executionId: newExecutionId(),
			replies: Array(4).fill(words),
		});
		expect(error.context.outcome).toBe('notSent');
		expect(error.message).toMatch(/^Could not sign in to FacilitaPay \(item 0\)/);
	});

	it('a payout whose output could not be built is "Done (ID …)", not failed', async () => {
		const fake = createContext({
			parameters: [
				dynamicPixParameters({
					toBankAccountId: BRL_NO_PIX_KEY,
					exchangeCurrency: 'BRL',
					value: '10.00',
					dynamicPixExpiresAt: '',
					qrCodeImage: true,
				}),
			],
			executionId: newExecutionId(),
			replies: [
				{
					data: {
						id: 'pix-77',
						dynamic_pix_code:
							'00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
					},
				},
			],
		});
		(fake.ctx.helpers as unknown as IDataObject).prepareBinaryData = async () => {
			throw new Error('the binary data store is full');
		};
		const { FacilitaPay } = await import('../../../nodes/FacilitaPay/FacilitaPay.node');
		await expect(new FacilitaPay().execute.call(fake.ctx)).rejects.toMatchObject({
			message: expect.stringMatching(
				/^Done \(ID pix-77\) \(item 0\), but its output could not be built/,
			),
			context: expect.objectContaining({ outcome: 'done' }),
		});
		expect(fake.requests).toHaveLength(1);
	});

	it('a card subscription that timed out keeps "Outcome unknown" after its card data is hidden', async () => {
		const { output } = await runNode({
			parameters: cardSubscription(),
			continueOnFail: true,
			executionId: newExecutionId(),
			replies: [connectionError('ETIMEDOUT')],
		});
		expect(output[0].json.outcome).toBe('unknown');
		expect(output[0].json.error).toMatch(/^Outcome unknown \(item 0\)/);
	});

	it('one bad item of two: the error says once that nothing was sent for any item', async () => {
		const { error } = await runNodeExpectingError({
			parameters: [payout('1.00'), payout('1.999')],
		});
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
		expect(error.description).not.toMatch(/for this item/);
	});
});

describe('after the first failure, nothing more leaves', () => {
	it('a request waiting out a Retry-After is cancelled when another item fails, and counted as not sent', async () => {
		let release: () => void = () => {};
		jest
			.spyOn(defaultRetryOptions, 'wait')
			.mockImplementation(async () => await new Promise<void>((resolve) => (release = resolve)));
		const facilitaPay = service((value, seen) => {
			if (value === '2.00' && seen === 1)
				return httpError(429, { error: 'too_many_requests' }, { 'retry-after': '30' });
			if (value === '1.00') return httpError(422, { errors: { value: ['no'] } });
			return { data: { id: `p-${value}` } };
		});
		// Item 1 is refused with 429 first and waits; item 0's refusal then stops the run.
		const ordered = [...facilitaPay.replies];
		const parameters = ['1.00', '2.00', '3.00'].map((value) =>
			payout(value, { requestOptions: { concurrency: 2 } }),
		);
		const fake = createContext({
			parameters,
			executionId: newExecutionId(),
			replies: ordered,
		});
		const { FacilitaPay } = await import('../../../nodes/FacilitaPay/FacilitaPay.node');
		const result = new FacilitaPay().execute.call(fake.ctx).catch((error: Error) => error);
		const error = (await result) as Error & { description: string };
		release();
		expect(facilitaPay.sent.filter((value) => value === '2.00')).toHaveLength(1);
		expect(facilitaPay.sent).not.toContain('3.00');
		expect(error.description).toMatch(/Not sent \(the run stopped at the first failure\): 1–2/);
	});
});

describe('a session token that expired is renewed, whatever the interleaving', () => {
	it('a request refused with 401 is sent again without the refused token, so that n8n asks the credential for one', async () => {
		const tokens: unknown[] = [];
		const fake = createContext({
			parameters: [payout('20.00')],
			executionId: newExecutionId(),
			credentials: {
				environment: 'custom',
				baseUrl: 'https://sandbox.test/api/v1',
				authentication: 'usernamePassword',
				username: 'u',
				password: 'p',
				sessionToken: 'old',
			},
			replies: [httpError(401, { error: 'invalid_token' }), { data: { id: 'p-20' } }],
		});
		const http = fake.ctx.helpers.httpRequestWithAuthentication as jest.Mock;
		const original = http.getMockImplementation()!;
		http.mockImplementation(
			async (type: string, options: IHttpRequestOptions, extra: IDataObject) => {
				tokens.push([
					((extra.credentialsDecrypted as IDataObject).data as IDataObject).sessionToken,
					options.ignoreHttpStatusErrors,
				]);
				return await original(type, options, extra);
			},
		);
		const { FacilitaPay } = await import('../../../nodes/FacilitaPay/FacilitaPay.node');
		const [output] = await new FacilitaPay().execute.call(fake.ctx);
		expect(output[0].json.id).toBe('p-20');
		expect(tokens).toEqual([
			['old', true],
			['', true],
		]);
	});
});

describe('error answers come back as data (n8n 1.x drops the headers of the errors it builds)', () => {
	it('a 429 given back as a response is waited out by its Retry-After, then sent once more', async () => {
		const waits: number[] = [];
		jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async (ms: number) => {
			waits.push(ms);
		});
		const { output, requests } = await runNode({
			parameters: [payout('21.00')],
			executionId: newExecutionId(),
			replies: [
				{ statusCode: 429, headers: { 'Retry-After': '7' }, body: { error: 'too_many_requests' } },
				{ statusCode: 201, headers: {}, body: { data: { id: 'p-21' } } },
			],
		});
		expect(requests).toHaveLength(2);
		expect(requests[0].returnFullResponse).toBe(true);
		expect(requests[0].ignoreHttpStatusErrors).toBe(true);
		expect(waits[0]).toBeGreaterThanOrEqual(7000);
		expect(output[0].json.id).toBe('p-21');
	});

	it('a 422 given back as a response fails the item with the service’s words', async () => {
		const { error } = await runNodeExpectingError({
			parameters: [payout('22.00')],
			executionId: newExecutionId(),
			replies: [
				{ statusCode: 422, headers: {}, body: { errors: { value: ['must be positive'] } } },
			],
		});
		expect(error.message).toBe('FacilitaPay rejected the data (item 0): value: must be positive');
		expect(error.context.outcome).toBe('failed');
	});
});

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
