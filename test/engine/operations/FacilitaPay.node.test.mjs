// The node as an AI agent's tool (n8n-nodes-facilitapay.facilitaPayTool, the variant n8n's server
// offers for a node with usableAsTool) on n8n's engine, against a FacilitaPay scripted by route.
// What an agent reads (tool descriptions, names) stays a plain unit test of the description:
// test/unit/FacilitaPay.node.test.ts.
import { useOperations } from '../lib/operations.mjs';

const SUBJECT_ID = '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c';

const op = useOperations();

describe('the node as an AI agent tool', () => {
	it('Create Dynamic PIX takes the amount as $fromAI gives it (a number) and sends it as money text', async () => {
		// `$fromAI('customerId', '', 'string')` and `$fromAI('amount', '', 'number')` resolve, in an
		// agent's call, to what an expression reading the item gives here: a text and a number.
		const { requests, items, error } = await op.run({
			nodeType: 'facilitaPayTool',
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				subjectId: { __rl: true, mode: 'id', value: '={{ $json.customerId }}' },
				value: '={{ $json.amount }}',
				dynamicPixExpiresAt: '',
				fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
				toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
				exchangeCurrency: 'USD',
			},
			items: [{ json: { customerId: ` ${SUBJECT_ID} `, amount: 87.4 } }],
			replies: {
				'POST /transactions': { data: { id: 'tx-1', status: 'pending', value: '87.40' } },
			},
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toMatchObject({
			transaction: {
				subject_id: SUBJECT_ID,
				value: '87.40',
				currency: 'BRL',
			},
		});
		expect(items[0].json).toMatchObject({ id: 'tx-1', value: '87.40' });
	});

	it('Subject > Get Many stops at the Limit a model gives as a number', async () => {
		const people = Array.from({ length: 8 }, (_, i) => ({
			id: `p-${i}`,
			social_name: `P ${i}`,
			references: [{ name: 'x' }],
		}));
		const { items, requests } = await op.run({
			nodeType: 'facilitaPayTool',
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: '={{ $json.limit }}',
			},
			items: [{ json: { limit: 3 } }],
			replies: { 'GET /subject/people': { data: people } },
		});
		expect(requests).toHaveLength(1);
		expect(items.map((item) => item.json.id)).toEqual(['p-0', 'p-1', 'p-2']);
		// Simplify is on when the parameter is left at its default: nested references are left out.
		expect(items[0].json).not.toHaveProperty('references');
	});
});
