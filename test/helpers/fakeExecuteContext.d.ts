import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

export interface ExecuteContextOptions {
	node: INode;
	parameters: IDataObject | IDataObject[];
	items?: INodeExecutionData[];
	credentials: IDataObject;
	continueOnFail?: boolean;
	executionId?: string;
	timezone?: string;
	runIndex?: number;
	/** n8n's execution mode ('manual' unless given; 'retry' after the Retry button). */
	mode?: string;
	workflowId?: string;
	instanceId?: string;
	/** n8n's deduplication store, shared between contexts to play several executions. */
	processedStore?: ProcessedStore;
	/** The execution's custom data; one object shared by contexts plays a Retry's carry-over. */
	customData?: Record<string, string>;
	httpRequestWithAuthentication: (...args: never[]) => Promise<unknown>;
}

/** The one fake n8n execution context of the tests (see fakeExecuteContext.js). */
export function createExecuteContext(options: ExecuteContextOptions): IExecuteFunctions;

/** n8n's deduplication store in memory (checkProcessedAndRecord, removeProcessed). */
export class ProcessedStore {
	calls: number;
	rows: Map<string, string[]>;
	helpersFor(workflowId: string, node: INode): Record<string, unknown>;
	keys(): string[];
}
