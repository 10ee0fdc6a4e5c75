// IDs from a Resource Locator (and from workflows saved before it) on n8n's engine, against a
// FacilitaPay scripted by route. The locator fields themselves (modes, list methods, regexes) are
// read from the description in test/unit/actions/common/locator.description.test.ts.
import { useOperations } from '../../lib/operations.mjs';

const SUBJECT_ID = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';
const GET_TRANSACTION = 'GET /transactions/:id';
const GET_PERSON = 'GET /subject/people/:id';
const REFUND = 'POST /transactions/:id/refund_received_transaction';

const op = useOperations();

const refund = (transactionId) => ({
	resource: 'transaction',
	operation: 'refund',
	transactionId,
});
const PATH_CHANGERS = ['..', '.', '%2e%2e', 'a.b', 'tx 1', 'tx/1', 'tx?x=1', 'ａ'];

describe('IDs from a locator, and from workflows saved before it', () => {
	it('reads the ID of a locator value picked from the list', async () => {
		const { requests, error } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: { __rl: true, mode: 'list', value: 'tx-9' },
				simplify: false,
			},
			replies: { [GET_TRANSACTION]: { data: { id: 'tx-9' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			route: GET_TRANSACTION,
			params: { id: 'tx-9' },
		});
	});

	it('still reads a plain string ID saved by an older workflow', async () => {
		const { requests, items, error } = await op.run({
			parameters: {
				resource: 'subject',
				operation: 'get',
				subjectId: SUBJECT_ID,
				simplify: false,
			},
			replies: { [GET_PERSON]: { data: { id: 'x' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ route: GET_PERSON, params: { id: SUBJECT_ID } });
		expect(items[0].json).toEqual({ id: 'x' });
	});

	it.each(PATH_CHANGERS)(
		'typed in By ID, the path ID %j is refused by the locator before the workflow starts',
		async (id) => {
			const { error, requests } = await op.run({
				parameters: refund({ __rl: true, mode: 'id', value: id }),
				replies: { [REFUND]: { data: {} } },
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
			expect(error.message).toMatch(/Not a valid transaction ID: letters, digits, _ and - only/);
		},
	);

	it.each(PATH_CHANGERS)(
		'refuses the path ID %j before sending (HTTP clients would turn dots into another endpoint)',
		async (id) => {
			const { error, requests } = await op.run({
				parameters: refund({ __rl: true, mode: 'id', value: '={{ $json.transaction }}' }),
				items: [{ json: { transaction: id } }],
				replies: { [REFUND]: { data: {} } },
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(/^Invalid Transaction ID \(item 0\)/);
		},
	);
});
