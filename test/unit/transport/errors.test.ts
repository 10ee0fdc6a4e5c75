import { runNode, runNodeExpectingError } from '../helpers/executeContext';
import { httpError } from '../helpers/serviceAnswers';
import { skipRetryWaits } from '../helpers/retryWaits';
import { getTransactionParameters } from '../../fixtures/transactions';

skipRetryWaits();

const getTransaction = getTransactionParameters();

describe('transport: error bodies become one readable message', () => {
	it.each([
		[
			'field errors',
			422,
			{ errors: { document_number: ['is invalid'], email: ['has invalid format', 'is required'] } },
			/FacilitaPay rejected the data \(item 0\): document_number: is invalid \| email: has invalid format; is required/,
		],
		[
			'a token error',
			401,
			{ error: 'invalid_token' },
			/refused the credentials \(item 0\): invalid_token \(the access token is wrong or expired/,
		],
		[
			'another object',
			400,
			{ value: 'must have two decimals' },
			/rejected the request \(item 0\): value: must have two decimals/,
		],
		[
			'plain text',
			500,
			'Internal Server Error',
			/internal error \(item 0\): Internal Server Error/,
		],
		['JSON sent as text', 422, '{"errors":{"value":["is invalid"]}}', /value: is invalid/],
	])('%s', async (_name, status, body, message) => {
		const { error } = await runNodeExpectingError({
			parameters: getTransaction,
			replies: [httpError(status, body)],
		});
		expect(error.message).toMatch(message);
		expect(error.description).toContain(`GET /transactions/tx-1, HTTP ${status}`);
		expect(error.context.itemIndex).toBe(0);
	});

	it('names the item that failed among several', async () => {
		const { error } = await runNodeExpectingError({
			parameters: [getTransaction, { ...getTransaction, transactionId: 'tx-2' }],
			replies: [{ data: { id: 'tx-1' } }, httpError(404, { error: 'not_found' })],
		});
		expect(error.message).toMatch(/did not find the record \(item 1\): not_found/);
		expect(error.context.itemIndex).toBe(1);
	});

	it('with Continue On Fail, a failed item becomes an error item and the others go through', async () => {
		const { output } = await runNode({
			parameters: [
				getTransaction,
				{ ...getTransaction, transactionId: 'tx-2' },
				{ ...getTransaction, transactionId: 'tx-3' },
			],
			continueOnFail: true,
			replies: [
				{ data: { id: 'tx-1' } },
				httpError(404, { error: 'not_found' }),
				{ data: { id: 'tx-3' } },
			],
		});
		expect(output.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toMatch(/not_found/);
		expect(output[2].json).toEqual({ id: 'tx-3' });
	});
});
