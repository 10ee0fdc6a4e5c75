import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { invalidItemsError } from './common/failures';
import { readPreviewOnly, readRunSettings } from './common/requestOptions';
import type { OperationModule } from './node.type';
import { resources } from './resources';
import { checkItems, newBatch, sendsWhileChecking } from './engine/check';
import { CheckedSoFar } from './engine/checked';
import { outputOf } from './engine/output';
import { preview } from './engine/preview';
import { runIndexOf, sendItems } from './engine/send';

/**
 * The operation the node runs. Resource and Operation cannot be expressions (`noDataExpression`),
 * so they are the same for every item and are read once.
 */
function operationFor(ctx: IExecuteFunctions): OperationModule {
	const resource = ctx.getNodeParameter('resource', 0) as string;
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.[operation] as OperationModule | undefined;
	if (!module || typeof module.prepare !== 'function') {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}
	return module;
}

/**
 * Runs the chosen operation over the input items (the item engine, engine/): checks every item
 * (check.ts; nothing is sent while any item is invalid, unless Continue On Fail turns invalid
 * items into error items, and then items are sent as soon as they are checked), answers Preview
 * Only, sends through the pool and the money rule (send.ts), and assembles the output (output.ts).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][] | null> {
	const operation = operationFor(this);
	if (operation.run) return await operation.run.call(this);
	const settings = readRunSettings(this);
	const continueOnFail = this.continueOnFail();
	const batch = newBatch(this);
	const checked = new CheckedSoFar();
	const streaming = sendsWhileChecking(this, operation, continueOnFail);
	if (!streaming) {
		await checkItems(this, operation, batch, checked);
		if (batch.invalid.length > 0 && !continueOnFail)
			throw invalidItemsError(this, batch.invalid, batch.slots.length);
		if (batch.moneyItems.length > 0 && readPreviewOnly(this))
			return await preview(this, operation, batch.slots, batch.results, runIndexOf(this));
	}
	const sent = await sendItems(this, operation, batch, {
		settings,
		continueOnFail,
		checked,
		streaming,
	});
	return [outputOf(this, batch, sent, continueOnFail)];
}
