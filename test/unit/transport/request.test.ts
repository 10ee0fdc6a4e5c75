import { runNode } from '../helpers/executeContext';
import { skipRetryWaits } from '../helpers/retryWaits';
import { getTransactionParameters } from '../../fixtures/transactions';

skipRetryWaits();

const getTransaction = getTransactionParameters();

describe('transport: URL, auth and envelope', () => {
	it('builds the URL from the credential base URL (trailing slash tolerated) and unwraps data', async () => {
		const { output, requests } = await runNode({
			parameters: getTransaction,
			replies: [{ data: { id: 'tx-1', status: 'pending' } }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/tx-1');
		expect(requests[0].method).toBe('GET');
		expect(output[0].json).toEqual({ id: 'tx-1', status: 'pending' });
		expect(output[0].pairedItem).toEqual({ item: 0 });
	});

	it('sends Content-Type: application/json on every request, even without a body', async () => {
		const { requests } = await runNode({
			parameters: {
				resource: 'notification',
				operation: 'markAsSuccessful',
				notificationId: '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
			},
			replies: [{ data: { id: '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', failed_at: null } }],
		});
		expect(requests[0].method).toBe('PUT');
		expect(requests[0].body).toBeUndefined();
		expect(requests[0].headers).toMatchObject({
			'Content-Type': 'application/json',
			Accept: 'application/json',
		});
	});

	it.each([
		['production', 'https://api.facilitapay.com/api/v1/transactions/tx-1'],
		['sandbox', 'https://sandbox-api.facilitapay.com/api/v1/transactions/tx-1'],
	])('uses the %s host', async (environment, url) => {
		const { requests } = await runNode({
			parameters: getTransaction,
			credentials: { environment, authentication: 'accessToken', accessToken: 't' },
			replies: [{ data: { id: 'tx-1' } }],
		});
		expect(requests[0].url).toBe(url);
	});
});
