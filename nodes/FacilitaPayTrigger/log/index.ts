import type { ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { runManual } from './manual';
import type { ReaderDeps } from './reader';
import { LogReader, realDeps } from './reader';
import { processState, triggerKey } from './state';
import { attachObjectsOption } from './options';

/*
 * The log and reads: FacilitaPay's notification log decides which events start the workflow.
 * Public surface of the folder; callers never reach into its inner files.
 */
export type { TriggerOptions } from './options';
export { attachObjectsOption } from './options';
export type { TestDelivery } from './state';
export { processState, resetProcessState, triggerKey } from './state';
export { readLogState, writeLogState } from './selection';
export type { LogState } from './selection';
export type { ReaderDeps } from './reader';
export { LogReader, realDeps } from './reader';
export { sameWebhook } from './manual';
export { normalUrl, urlMatcher } from './urls';
export type { UrlMatcher } from './urls';
export * from './pace';

function keyOf(ctx: ITriggerFunctions): string {
	return triggerKey(ctx.getWorkflow().id, ctx.getNode().id);
}

/**
 * The node's trigger(). Production: starts the reader of the log until n8n closes the trigger
 * (deactivation, shutdown, another instance taking over). Manual: emits the test delivery's event.
 */
export async function runTrigger(
	ctx: ITriggerFunctions,
	deps: ReaderDeps = realDeps,
): Promise<ITriggerResponse> {
	const key = keyOf(ctx);
	if (ctx.getMode() === 'manual') {
		const close = runManual(ctx, key, deps);
		return { closeFunction: async () => close() };
	}
	const options = ctx.getNodeParameter('options', {}) as Record<string, unknown>;
	const reader = new LogReader(
		ctx,
		{
			attachObjects: attachObjectsOption(options, ctx.getNode().typeVersion),
			events: ctx.getNodeParameter('events', []),
		},
		deps,
	);
	processState.readers.get(key)?.stop();
	processState.readers.set(key, reader);
	reader.start();
	return {
		closeFunction: async () => {
			reader.stop();
			if (processState.readers.get(key) === reader) processState.readers.delete(key);
		},
	};
}
