import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { OperationModule } from './node.type';
import { resources } from './resources';

function operationFor(ctx: IExecuteFunctions, resource: string, operation: string): OperationModule {
	const module = resources[resource]?.[operation] as OperationModule | undefined;
	if (!module || typeof module.execute !== 'function') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}
	return module;
}

/**
 * Runs the chosen operation once per input item. Every output item is paired with the input item
 * it came from; with Continue On Fail a failed item becomes an error item and the run goes on.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const resource = this.getNodeParameter('resource', i) as string;
			const operation = this.getNodeParameter('operation', i) as string;
			const results = await operationFor(this, resource, operation).execute.call(this, i);
			for (const result of results) output.push({ ...result, pairedItem: { item: i } });
		} catch (error) {
			if (this.continueOnFail()) {
				const json: IDataObject = { error: (error as Error).message };
				const description = (error as NodeOperationError).description;
				if (description) json.description = description;
				const httpCode = (error as NodeApiError).httpCode;
				if (httpCode) json.httpCode = httpCode;
				output.push({ json, pairedItem: { item: i } });
				continue;
			}
			if (error instanceof NodeApiError) {
				if (error.context.itemIndex === undefined) error.context.itemIndex = i;
				// Hands back the same error: NodeApiError does not wrap itself twice.
				throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			}
			// Hands back the same error when it already is a NodeOperationError.
			const failure = new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
			if (failure.context.itemIndex === undefined) failure.context.itemIndex = i;
			throw failure;
		}
	}
	return [output];
}
