import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayError } from '../../transport';
import { MoneyRun } from '../../money';
import { maskCardData } from '../../security/cardData';
import { errorItem } from '../common/failures';
import { countText, totalsText } from '../common/moneySummary';
import type { ItemWork, OperationModule } from '../node.type';

import type { Slot } from './slot';
import { hint } from './slot';

/** A request as the preview shows it: card data masked, long texts (a file's Base64) summarised. */
function previewOf(work: ItemWork, idempotencyKey?: string): IDataObject {
	const shorten = (value: unknown): unknown => {
		if (typeof value === 'string')
			return value.length > 500 ? `[${value.length} characters, not shown]` : value;
		if (Array.isArray(value)) return value.map(shorten);
		if (value && typeof value === 'object')
			return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shorten(inner)]));
		return value;
	};
	const preview: IDataObject = {
		preview: true,
		method: work.request.method,
		path: work.request.path,
	};
	if (work.request.body !== undefined)
		preview.body = shorten(maskCardData(work.request.body, work.cardSecrets ?? {})) as IDataObject;
	if (idempotencyKey !== undefined) preview.idempotencyKey = idempotencyKey;
	return preview;
}

/**
 * Preview Only: every item checked, the request each would send (card data masked, the identity it
 * would carry), nothing sent; the output pane says how many and the total per currency.
 */
export async function preview(
	ctx: IExecuteFunctions,
	operation: OperationModule,
	slots: Slot[],
	results: Array<INodeExecutionData[] | FacilitaPayError | undefined>,
	runIndex: number | undefined,
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const previews: INodeExecutionData[] = [];
	const requests: ApiRequest[] = [];
	const moneyItems = slots.filter((slot) => slot?.money).map((slot) => slot.money!);
	// The identity each payment would carry in its meta, as it would be sent in this execution.
	const identities = MoneyRun.preview(ctx, moneyItems, runIndex);
	for (let i = 0; i < items.length; i++) {
		const slot = slots[i];
		if (!slot) {
			previews.push(errorItem(results[i] as FacilitaPayError, i, ctx.getNode().onError));
			continue;
		}
		const prepared = slot.work ?? (await operation.prepare.call(ctx, i));
		const work = slot.money
			? {
					...prepared,
					request: identities.withIdentity({ ...slot.money, request: prepared.request }),
				}
			: prepared;
		requests.push(work.request);
		previews.push({ json: previewOf(work, slot.money?.idempotencyKey), pairedItem: { item: i } });
	}
	const total = totalsText(requests);
	hint(
		ctx,
		`Preview: ${countText(requests.length)} checked${total ? `, ${total} in all` : ''}. Nothing was sent to FacilitaPay: turn Preview Only off to send them.`,
	);
	return [previews];
}
