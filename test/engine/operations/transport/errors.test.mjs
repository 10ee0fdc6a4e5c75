// Error answers on n8n's engine: what FacilitaPay answered becomes one readable message naming the
// item, and Continue On Fail keeps the other items going.
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';

const op = useOperations();
skipRetryWaits();

const ONE = 'GET /transactions/:id';
const getTransaction = (id = 'tx-1') => ({
	resource: 'transaction',
	operation: 'get',
	transactionId: { __rl: true, mode: 'id', value: id },
	simplify: false,
});
const text = (status, body) => reply(status, Buffer.from(body), { 'content-type': 'text/plain' });

describe('transport: error bodies become one readable message', () => {
	it.each([
		[
			'field errors',
			422,
			reply(422, {
				errors: { document_number: ['is invalid'], email: ['has invalid format', 'is required'] },
			}),
			/FacilitaPay rejected the data \(item 0\): document_number: is invalid \| email: has invalid format; is required/,
		],
		[
			'a token error',
			401,
			reply(401, { error: 'invalid_token' }),
			/refused the credentials \(item 0\): invalid_token \(the access token is wrong or expired/,
		],
		[
			'another object',
			400,
			reply(400, { value: 'must have two decimals' }),
			/rejected the request \(item 0\): value: must have two decimals/,
		],
		[
			'plain text',
			500,
			text(500, 'Internal Server Error'),
			/internal error \(item 0\): Internal Server Error/,
		],
		[
			'JSON sent as text',
			422,
			text(422, '{"errors":{"value":["is invalid"]}}'),
			/value: is invalid/,
		],
	])('%s', async (_name, status, answer, message) => {
		const { error, items, requests } = await op.run({
			parameters: getTransaction(),
			replies: { [ONE]: answer },
		});
		expect(requests[0]).toMatchObject({ method: 'GET', params: { id: 'tx-1' } });
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain(`GET /transactions/tx-1, HTTP ${status}`);
		expect(error.context.itemIndex).toBe(0);
	});

	it('names the item that failed among several', async () => {
		const { error } = await op.run({
			parameters: [getTransaction('tx-1'), getTransaction('tx-2')],
			replies: {
				[ONE]: ({ params }) =>
					params.id === 'tx-2' ? reply(404, { error: 'not_found' }) : { data: { id: params.id } },
			},
		});
		expect(error.message).toMatch(/did not find the record \(item 1\): not_found/);
		expect(error.context.itemIndex).toBe(1);
	});

	it('with Continue On Fail, a failed item becomes an error item and the others go through', async () => {
		const { items, requests } = await op.run({
			parameters: [getTransaction('tx-1'), getTransaction('tx-2'), getTransaction('tx-3')],
			continueOnFail: true,
			replies: {
				[ONE]: ({ params }) =>
					params.id === 'tx-2' ? reply(404, { error: 'not_found' }) : { data: { id: params.id } },
			},
		});
		expect(requests.map((request) => request.params.id).sort()).toEqual(['tx-1', 'tx-2', 'tx-3']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toEqual({ id: 'tx-1' });
		expect(items[1].json.error).toMatch(/not_found/);
		expect(items[2].json).toEqual({ id: 'tx-3' });
	});
});
