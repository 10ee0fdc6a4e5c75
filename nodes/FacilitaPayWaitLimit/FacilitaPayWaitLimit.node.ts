import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/**
 * Internal to Transaction > Wait for Payment, never placed in a workflow (hidden from the panel).
 * Kept only for executions that began waiting under an earlier version of this package: their
 * stored stack entry names this type for n8n's own time resume (two main outputs, so that n8n's
 * error output, index 2, was Wait for Payment's Timed Out). The current Wait for Payment does not
 * use it (docs/waiting.md: the gate and the fallback).
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
