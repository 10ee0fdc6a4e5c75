import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { processState, triggerKey } from '../log';
import { classifyPayload, parseBody } from '../notification';
import { ANSWERS } from '../texts';

/*
 * The request: one delivery to the webhook URL. It proves nothing (the secret has four digits and
 * travels in the body): FacilitaPay's notification log does. So every well-formed notification, under
 * any secret or none, gets the same answer at once, 200 {"message":"Received"}, read no secret,
 * starts no execution, and only prompts the reader of the log (which paces its reads: log/pace.ts).
 * A test listening hands the delivery to its execution (log/manual.ts).
 */

export type Delivery =
	| { kind: 'bad'; status: number; message: string }
	| { kind: 'event'; notification: IDataObject };

/** What a request body is: a notification (or the KYC status payload), or why it is none. Pure. */
export function deliveryOf(body: unknown, rawBody?: unknown): Delivery {
	const parsed = parseBody(body, rawBody);
	if (!parsed.ok) return { kind: 'bad', status: parsed.status, message: parsed.reason };
	const classified = classifyPayload(parsed.payload);
	switch (classified.kind) {
		case 'malformed':
			return { kind: 'bad', status: 400, message: classified.reason };
		case 'unknown':
			return { kind: 'bad', ...ANSWERS.notFacilitaPay };
		case 'kycStatus':
			return { kind: 'event', notification: { data: classified.subject } };
		case 'notification':
			if (typeof classified.notification.type !== 'string' || classified.notification.type === '')
				return { kind: 'bad', ...ANSWERS.noType };
			return { kind: 'event', notification: classified.notification };
	}
}

/** The node's webhook(). */
export async function handleDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const rawBody = (ctx.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
	const delivery = deliveryOf(ctx.getBodyData(), rawBody);
	const response = ctx.getResponseObject();
	if (delivery.kind === 'bad') {
		response.status(delivery.status).json({ message: delivery.message });
		return { noWebhookResponse: true };
	}
	const key = triggerKey(ctx.getWorkflow().id, ctx.getNode().id);
	if (ctx.getMode() === 'manual') {
		response.status(ANSWERS.received.status).json({ message: ANSWERS.received.message });
		// n8n starts the test execution only when workflowData is returned; the node's trigger()
		// then emits the event (n8n-core runs a node with trigger() through it in manual mode).
		processState.tests.set(key, {
			url: ctx.getNodeWebhookUrl('default') ?? '',
			notification: delivery.notification,
			at: Date.now(),
		});
		return {
			noWebhookResponse: true,
			workflowData: [[{ json: { type: delivery.notification.type ?? null } }]],
		};
	}
	const reader = processState.readers.get(key);
	const subject = delivery.notification.data as { id?: unknown } | undefined;
	let answer: { status: number; message: string } = ANSWERS.received;
	if (typeof delivery.notification.type !== 'string' && typeof subject?.id === 'string') {
		// Unsigned, and perhaps in no log: a 200 nobody takes would drop a true one.
		if (reader?.promptKyc?.(subject.id) !== true) answer = ANSWERS.kycNotTaken;
	} else reader?.prompt();
	response.status(answer.status).json({ message: answer.message });
	return { noWebhookResponse: true };
}
