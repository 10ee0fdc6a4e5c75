import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** What every `<operation>.operation.ts` exports. */
export interface OperationModule {
	description: INodeProperties[];
	/** Runs the operation for one input item and returns its output items (without pairedItem). */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** What every `<Resource>.resource.ts` exports besides its operation modules. */
export interface ResourceModule {
	description: INodeProperties[];
	[operation: string]: OperationModule | INodeProperties[];
}
