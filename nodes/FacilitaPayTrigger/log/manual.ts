import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import { clock } from '../../FacilitaPay/clock';
import { LOG } from '../texts';
import { itemOf, samePayload, unlistedTestItem } from './item';
import type { ReaderDeps } from './reader';
import { PER_PAGE } from './reader';
import { asRecord } from './selection';
import { normalUrl } from './urls';
import type { TestDelivery } from './state';
import { processState } from './state';
import { beginRun } from '../../FacilitaPay/transport';

/*
 * "Listen for test event": n8n runs a node that has trigger() through trigger() in a manual
 * execution (n8n-core, WorkflowExecute.executeTriggerNode), whatever the webhook returned. So the
 * delivery that started the test is handed over in process memory, and trigger() emits FacilitaPay's
 * record of it from the log (verified), or the delivery itself marked unverified when the log does
 * not list it within TEST_LOOKUPS reads.
 */

/**
 * Whether two URLs are this node's webhook: the same `<webhook id>/<path>` at their end (n8n may
 * give a webhook() of a test listening its production form; the test form has `webhook-test`).
 */
export function sameWebhook(a: string, b: string): boolean {
	const tail = (url: string) => {
		try {
			return new URL(normalUrl(url)).pathname.split('/').filter(Boolean).slice(-2).join('/');
		} catch {
			return url;
		}
	};
	return normalUrl(a) === normalUrl(b) || (tail(a) !== '' && tail(a) === tail(b));
}

/** Reads of the log for the test delivery's record, one per TEST_LOOKUP_GAP_MS. */
export const TEST_LOOKUPS = 5;
export const TEST_LOOKUP_GAP_MS = 1_000;

async function waitForDelivery(
	key: string,
	deps: ReaderDeps,
	isClosed: () => boolean,
): Promise<TestDelivery | undefined> {
	while (!isClosed()) {
		const delivery = processState.tests.get(key);
		if (delivery) {
			processState.tests.delete(key);
			return delivery;
		}
		await deps.wait(250);
	}
	return undefined;
}

/** The item of a test delivery: its record in the log when listed, else the delivery unverified. */
async function testItem(
	ctx: ITriggerFunctions,
	delivery: TestDelivery,
	deps: ReaderDeps,
	isClosed: () => boolean,
): Promise<IDataObject> {
	const run = beginRun({ concurrency: 1, timeoutMs: 10_000 });
	for (let attempt = 0; attempt < TEST_LOOKUPS && !isClosed(); attempt++) {
		if (attempt > 0) await deps.wait(TEST_LOOKUP_GAP_MS);
		try {
			const page = await deps.request(
				ctx,
				{
					method: 'GET',
					path: '/notifications',
					qs: { order_by: 'desc', per_page: String(PER_PAGE) },
					retry: 'safe',
				},
				run,
			);
			const found = (Array.isArray(page) ? page : [])
				.map(asRecord)
				.find(
					(record) =>
						record !== undefined &&
						sameWebhook(record.url, delivery.url) &&
						samePayload(record.notification, delivery.notification),
				);
			if (found) return itemOf(found, {}, clock.now());
		} catch (error) {
			ctx.logger.warn(
				`${LOG}: the notification log could not be read for a test event (${(error as Error).message})`,
			);
		}
	}
	return unlistedTestItem(delivery.notification, clock.now());
}

/** trigger() in a manual execution: emits the test delivery's event once, then nothing. */
export function runManual(ctx: ITriggerFunctions, key: string, deps: ReaderDeps): () => void {
	let closed = false;
	const isClosed = () => closed;
	void (async () => {
		const delivery = await waitForDelivery(key, deps, isClosed);
		if (!delivery || closed) return;
		const item = await testItem(ctx, delivery, deps, isClosed);
		// n8n replaces emit on this context after trigger() returns: look it up at call time.
		if (!closed) ctx.emit([[{ json: item, pairedItem: { item: 0 } }]]);
	})();
	return () => {
		closed = true;
	};
}
