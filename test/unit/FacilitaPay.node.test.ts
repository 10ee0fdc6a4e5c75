import type { INode, INodePropertyOptions, INodeType } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { FacilitaPay } from '../../nodes/FacilitaPay/FacilitaPay.node';
import { requestOptionsField } from '../../nodes/FacilitaPay/actions/common/requestOptions';
import { DEFAULT_RUN_SETTINGS } from '../../nodes/FacilitaPay/transport';
import { workflowNode } from './helpers/workflowNode';

// The description only: the node run as a tool (execute) is tested on n8n's engine in
// test/engine/operations/FacilitaPay.node.test.mjs.
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
	it('has 41 operations, each with its own action text', () => {
		const all = operations();
		expect(all).toHaveLength(41);
		const actions = all.map(({ option }) => option.action);
		expect(new Set(actions).size).toBe(41);
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
});

describe('Request Options', () => {
	it('a request waits 30 s for an answer unless the Timeout option says otherwise', () => {
		// The option is in a collection: left out, n8n gives the node nothing and its own default applies.
		const timeout = requestOptionsField.options?.find((option) => option.name === 'timeout') as {
			default: unknown;
		};
		expect(timeout.default).toBe(30000);
		expect(DEFAULT_RUN_SETTINGS.timeoutMs).toBe(30000);
	});
});
