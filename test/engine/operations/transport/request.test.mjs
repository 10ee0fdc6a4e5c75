// The transport on n8n's engine: the URL from the credential, n8n's authentication, the headers and
// the envelope FacilitaPay answers in.
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const op = useOperations();
skipRetryWaits();

const getTransaction = {
	resource: 'transaction',
	operation: 'get',
	transactionId: { __rl: true, mode: 'id', value: 'tx-1' },
	simplify: false,
};
const ONE = 'GET /transactions/:id';

describe('transport: URL, auth and envelope', () => {
	it.each([
		['with a trailing slash', (url) => `${url}/`],
		['without one', (url) => url],
	])(
		'builds the URL from the credential base URL (%s) and unwraps data',
		async (_case, baseUrl) => {
			const { items, requests, error } = await op.run({
				parameters: getTransaction,
				credentials: { baseUrl: baseUrl(op.service.url) },
				replies: { [ONE]: { data: { id: 'tx-1', status: 'pending' } } },
			});
			expect(error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'GET',
				path: '/transactions/tx-1',
				route: ONE,
				params: { id: 'tx-1' },
			});
			expect(requests[0].headers.authorization).toBe('Bearer test-token');
			expect(items[0].json).toEqual({ id: 'tx-1', status: 'pending' });
			expect(items[0].pairedItem).toEqual({ item: 0 });
		},
	);

	it('sends Content-Type: application/json on every request, even without a body', async () => {
		const id = '5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
		const { requests, error } = await op.run({
			parameters: { resource: 'notification', operation: 'markAsSuccessful', notificationId: id },
			replies: { 'PUT /notifications/:id': { data: { id, failed_at: null } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PUT', params: { id } });
		expect(requests[0].body).toBeUndefined();
		expect(requests[0].headers).toMatchObject({
			'content-type': 'application/json',
			accept: 'application/json',
		});
	});
});
