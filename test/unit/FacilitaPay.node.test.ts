import type { INode, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { FacilitaPay } from '../../nodes/FacilitaPay/FacilitaPay.node';
import { runNode } from './helpers/executeContext';
import { workflowNode } from './helpers/workflowNode';

const nodeType = new FacilitaPay() as unknown as INodeType;
const { properties } = nodeType.description;

/** Every resource/operation pair with its option, as the node picker and an agent see them. */
function operations(): Array<{ resource: string; option: INodePropertyOptions }> {
	const resources = properties.find((p) => p.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const operation = properties.find(
			(p) =>
				p.name === 'operation' &&
				p.displayOptions?.show?.resource?.includes(resource.value as string),
		)!;
		return (operation.options as INodePropertyOptions[]).map((option) => ({
			resource: resource.value as string,
			option,
		}));
	});
}

const toolNode = (resource: string, operation: string): INode =>
	workflowNode('tool', 'FacilitaPay', 'n8n-nodes-facilitapay.facilitaPayTool', {
		resource,
		operation,
	});

describe('the node as an AI agent tool', () => {
	it('has 39 operations, each with its own action text', () => {
		const all = operations();
		expect(all).toHaveLength(39);
		const actions = all.map(({ option }) => option.action);
		expect(new Set(actions).size).toBe(39);
	});

	it.each(
		operations().map(({ resource, option }) => [`${resource} > ${option.name}`, resource, option]),
	)(
		'%s: the agent reads the action as the tool description, short enough for a tool name',
		(_label, resource, option) => {
			const { action, value } = option as INodePropertyOptions;
			const description = NodeHelpers.getToolDescriptionForNode(
				toolNode(resource as string, value as string),
				nodeType,
			);
			expect(description).toBe(`${action} in FacilitaPay`);
			// The default node name is the action; n8n cuts tool names at 64 characters.
			expect(NodeHelpers.makeNodeName({ resource, operation: value }, nodeType.description)).toBe(
				action,
			);
			expect(nodeNameToToolName(action as string).length).toBeLessThanOrEqual(64);
			expect(action).toMatch(/^[A-Z][a-z]+ /);
		},
	);

	it('Create Dynamic PIX takes the amount as $fromAI gives it (a number) and sends it as money text', async () => {
		const { requests } = await runNode({
			parameters: {
				resource: 'transaction',
				operation: 'createDynamicPix',
				// What `={{ $fromAI('customerId', '', 'string') }}` and `$fromAI('amount', '', 'number')` resolve to.
				subjectId: { __rl: true, mode: 'id', value: ' 4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c ' },
				value: 87.4,
				dynamicPixExpiresAt: '',
				fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
				toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
				exchangeCurrency: 'USD',
			},
			replies: [{ data: { id: 'tx-1', status: 'pending', value: '87.40' } }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toMatchObject({
			transaction: {
				subject_id: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
				value: '87.40',
				currency: 'BRL',
			},
		});
	});

	it('Subject > Get Many stops at the Limit a model gives as a number', async () => {
		const people = Array.from({ length: 8 }, (_, i) => ({
			id: `p-${i}`,
			social_name: `P ${i}`,
			references: [{ name: 'x' }],
		}));
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: false, limit: 3 },
			replies: [{ data: people }],
		});
		expect(requests).toHaveLength(1);
		expect(output.map((item) => item.json.id)).toEqual(['p-0', 'p-1', 'p-2']);
		// Simplify is on when the parameter is left at its default: nested references are left out.
		expect(output[0].json).not.toHaveProperty('references');
	});
});
