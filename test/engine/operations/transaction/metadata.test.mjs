// Metadata (JSON) of every operation that creates a transaction, on n8n's engine, against a
// FacilitaPay scripted by route.
import subjects from '../../../fixtures/subjects.js';
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { fixClock, payIn, sent } from './lib.mjs';

const { SUBJECT_ID } = subjects;
const CREATE = 'POST /transactions';
const ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-000000000001';
const CASH_OUT = '0b5e7c2a-1f3d-4a8e-9c61-000000000003';

const op = useOperations();
skipRetryWaits();
fixClock('2026-11-27T12:00:00Z');

/** One item's parameters of each operation that creates a transaction with POST /transactions. */
const OPERATIONS = [
	[
		'createDynamicPix',
		{
			subjectId: SUBJECT_ID,
			value: '10.00',
			exchangeCurrency: 'BRL',
			fromBankAccountId: ACCOUNT,
			toBankAccountId: ACCOUNT,
			dynamicPixExpiresAt: '2026-11-27T13:00:00Z',
			qrCodeImage: false,
		},
	],
	[
		'createBoleto',
		{
			subjectId: SUBJECT_ID,
			value: '10.00',
			currency: 'BRL',
			exchangeCurrency: 'BRL',
			toBankAccountId: ACCOUNT,
			expireAt: '2026-12-10',
		},
	],
	[
		'createPayout',
		{
			subjectId: SUBJECT_ID,
			value: '10.00',
			currency: 'USD',
			exchangeCurrency: 'BRL',
			fromBankAccountId: CASH_OUT,
			toBankAccountId: ACCOUNT,
		},
	],
	[
		'createSpeiPayment',
		{
			subjectId: SUBJECT_ID,
			value: '1500.00',
			exchangeCurrency: 'MXN',
			toBankAccountId: ACCOUNT,
			paymentDescription: '',
		},
	],
];

describe('Metadata (JSON) on every new transaction', () => {
	it.each(OPERATIONS)('%s sends it as the transaction’s meta', async (operation, parameters) => {
		const { items, requests, error } = await op.run({
			parameters: {
				resource: 'transaction',
				operation,
				...parameters,
				metadata: '{"order_id": "1001", "channel": "web"}',
			},
			replies: { [CREATE]: { data: { id: 'tx-1', meta: { order_id: '1001', channel: 'web' } } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: CREATE });
		expect(sent(requests[0]).meta).toMatchObject({ order_id: '1001', channel: 'web' });
		expect(items[0].json).toMatchObject({ meta: { order_id: '1001', channel: 'web' } });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it.each([
		['not JSON', '{order_id: 1}', /Metadata \(JSON\) \(item 0\): is not valid JSON/],
		['a list', '[1]', /Metadata \(JSON\) \(item 0\): is a list/],
		[
			'the node’s own key',
			'{"n8n_facilitapay_ref": "mine"}',
			/Metadata \(JSON\) \(item 0\): uses n8n_facilitapay_ref/,
		],
		[
			'over 8 kB',
			JSON.stringify({ note: 'x'.repeat(9000) }),
			/Metadata \(JSON\) \(item 0\): is 9011 bytes as JSON/,
		],
	])('refuses metadata that is %s and sends nothing', async (_name, metadata, message) => {
		const { error, requests, items } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'createBoleto',
				...OPERATIONS[1][1],
				metadata,
			},
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('sends no meta of the user’s when Metadata is left as {}', async () => {
		const { requests, error } = await op.run({
			parameters: { resource: 'transaction', operation: 'createPayout', ...OPERATIONS[2][1] },
			replies: { [CREATE]: { data: { id: 'tx-2' } } },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(
			Object.keys(sent(requests[0]).meta ?? {}).filter((key) => key !== 'n8n_facilitapay_ref'),
		).toEqual([]);
	});

	it('Create Local Pay-In refuses meta inside Extra Transaction Fields (use Metadata)', async () => {
		const { error, requests } = await op.run({
			parameters: payIn({
				fromBankAccountId: ACCOUNT,
				toBankAccountId: ACCOUNT,
				additionalFields: { extraFields: '{"meta": {"a": 1}}' },
			}),
			replies: { [CREATE]: { data: {} } },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Extra Transaction Fields \(JSON\) \(item 0\): contains meta/);
	});
});
