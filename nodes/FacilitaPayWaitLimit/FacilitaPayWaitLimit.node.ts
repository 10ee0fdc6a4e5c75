import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/**
 * Internal to Transaction > Wait for Payment, never placed in a workflow (hidden from the panel).
 * A waiting execution's stack entry names this type for n8n's own time resume (the WaitTracker at
 * the limit, when no code of ours runs): n8n forwards only the first input of the disabled node and,
 * for a node whose onError is continueErrorOutput, moves the error-shaped items to the node type's
 * last output. With these two main outputs that is index 2: Wait for Payment's Timed Out.
 * nodes/FacilitaPay/actions/transaction/waitForPayment.operation.ts (timeResumeItems) and
 * docs/waiting.md say why.
 */
export class FacilitaPayWaitLimit implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FacilitaPay Wait Limit',
		name: 'facilitaPayWaitLimit',
		icon: {
			light: 'file:../../icons/facilitaPay.svg',
			dark: 'file:../../icons/facilitaPay.dark.svg',
		},
		group: ['transform'],
		version: 1,
		hidden: true,
		subtitle: 'Internal',
		usableAsTool: undefined,
		description: 'Internal to FacilitaPay’s Wait for Payment; not for use in a workflow',
		defaults: { name: 'FacilitaPay Wait Limit' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(
			this.getNode(),
			'This node is internal to FacilitaPay’s Wait for Payment and does nothing in a workflow',
		);
	}
}
