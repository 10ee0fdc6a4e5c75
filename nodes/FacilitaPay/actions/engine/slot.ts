import type { IExecuteFunctions } from 'n8n-workflow';

import type { MoneyItem } from '../../money';
import type { ItemWork } from '../node.type';

/** Adds a hint above the output pane. */
export function hint(
	ctx: IExecuteFunctions,
	message: string,
	type: 'info' | 'warning' = 'info',
): void {
	ctx.addExecutionHints({ message, type, location: 'outputPane' });
}

/** One item's state between checking and sending. */
export interface Slot {
	/** Undefined when the work was too big to keep: it is prepared again right before sending. */
	work?: ItemWork;
	money?: MoneyItem;
}
