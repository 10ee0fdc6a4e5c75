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
	httpRequestWithAuthentication: (...args: never[]) => Promise<unknown>;
}

/** The one fake n8n execution context of the tests (see fakeExecuteContext.js). */
export function createExecuteContext(options: ExecuteContextOptions): IExecuteFunctions;
