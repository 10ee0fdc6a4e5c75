import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { SUBJECT_ID } from '../../fixtures/subjects';
import { facilitaPay, newExecutionId, payout } from './fixtures';

// Transaction > Find By Idempotency Key: support asks "did order 9001 pay?".

const find = (key: string) => ({
	resource: 'transaction',
	operation: 'findByIdempotencyKey',
	subjectId: SUBJECT_ID,
	lookupKey: key,
	simplify: false,
});

describe('Transaction > Find By Idempotency Key', () => {
	it('returns the transaction a payment sent with the key made, read from the subject list', async () => {
		const service = facilitaPay();
		await runNode({
			parameters: [payout('90.01', { idempotencyKey: 'ORDER-9001' }), payout('5.00')],
			executionId: newExecutionId(),
			replies: service.replies,
		});
		const { output, requests } = await runNode({
			parameters: find('ORDER-9001'),
			replies: service.replies,
		});
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			found: true,
			idempotencyKey: 'ORDER-9001',
			id: 'tx-1',
			value: '90.01',
		});
		expect(requests.every((request) => request.method === 'GET')).toBe(true);
	});

	it('says nothing was found, and how far back it looked', async () => {
		const service = facilitaPay();
		await runNode({
			parameters: [payout('5.00'), payout('6.00')],
			executionId: newExecutionId(),
			replies: service.replies,
		});
		const { output } = await runNode({ parameters: find('ORDER-404'), replies: service.replies });
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					found: false,
					idempotencyKey: 'ORDER-404',
					transactionsRead: 2,
					note: expect.stringMatching(/All 2 of its transactions were read, from the oldest/),
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an empty key is refused before anything is read', async () => {
		const { error, requests } = await runNodeExpectingError({ parameters: find('  ') });
		expect(error.message).toMatch(/Idempotency Key/);
		expect(requests).toHaveLength(0);
	});
});
