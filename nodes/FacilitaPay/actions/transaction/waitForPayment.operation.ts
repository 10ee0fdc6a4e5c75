import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clock } from '../../clock';
import { accountOf, CREDENTIAL_TYPE } from '../../transport';
import type {
	LimitSettings,
	LimitType,
	LimitUnit,
	ResumePayload,
	WaitedItem,
	WaitState,
} from '../../waiting';
import {
	asLogRecord,
	atTimeOf,
	keyOf,
	limitOf,
	limitProblem,
	mayCall,
	newWaitSecret,
	ownEntry,
	readWait,
	RESUME_PATH,
	resumeGate,
	resumingEntry,
	startingPoint,
	STATE_VERSION,
	verify,
} from '../../waiting';
import { transactionIdField } from '../common/fields';
import { idParameter, invalidInput } from '../common/input';
import type { ItemWork } from '../node.type';
import { transactionOperation } from './transaction.requests';
import { route } from './waitForPayment.items';
import { arrangeWait, checkEngine, fallback, resumed, settle } from './waitForPayment.wait';

export { howToCheck, OUTPUT_NAMES } from './waitForPayment.items';

/*
 * Transaction > Wait for Payment. execute() reads the charges; if all are decided they go out at
 * once on Paid / Not Paid; otherwise the execution goes into n8n's waiting state for all items
 * together, and its own code runs again at every wake: a signed call of the waiter when
 * FacilitaPay's records decide the charges or the lease is to be renewed, or n8n's own time (the
 * lease, at most 4.5 minutes: after a restart too). It decides only by re-reading FacilitaPay.
 * docs/waiting.md says what n8n 2.41.1 and 1.122 allow and why it is done so.
 */

/**
 * The resume call's webhook (n8n's /webhook-waiting/<execution>/facilitapay-payment):
 * `restartWebhook: true` webhooks reach only a waiting execution, and n8n never registers them for
 * active workflows, so there is nothing to create or delete at FacilitaPay (no webhookMethods).
 * - Its own path: a call reaches only a Wait for Payment that waits. Once the execution has
 *   resumed and waits again at another node (n8n's Wait node, a send-and-wait), a late or repeated
 *   call of ours is answered 404 by n8n instead of resuming that node.
 * - Answered when the resumed run ends (`lastNode`, no data): the waiter's few calls in flight are
 *   then the runs n8n works on, so a burst of payments resumes in turn instead of all at once.
 */
export const resumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'lastNode',
		responseData: 'noData',
		path: RESUME_PATH,
		restartWebhook: true,
		isFullPath: true,
	},
];

/** How far back a new wait looks for records of its charges (a card approved within its create call). */
const RECORDS_SINCE_MS = 15 * 60_000;

const properties: INodeProperties[] = [
	{
		...transactionIdField,
		description:
			'The charge to wait for: the ID a Create Dynamic PIX, Create Boleto, Create Card Payment, Create Local Pay-In, PSE or SPEI operation returned (e.g. {{ $json.id }}), or a card checkout’s ID',
	},
	{
		displayName: 'Limit',
		name: 'limitType',
		type: 'options',
		options: [
			{
				name: 'After an Interval',
				value: 'afterInterval',
				description: 'Stop waiting a given time after the wait began',
			},
			{
				name: 'At a Time',
				value: 'atTime',
				description: 'Stop waiting at a given date and time',
			},
			{
				name: 'Charge’s Expiry',
				value: 'chargeExpiry',
				description:
					'The charge’s expiry plus a margin: PIX and CLABE +10 min, PSE 21 min +10 min, boleto 3 business days in Brazil after its due date (+10 min), 24 h without an expiry (card)',
			},
		],
		default: 'chargeExpiry',
		description: 'When to stop waiting: the charges still open then go out on the Timed Out output',
	},
	{
		displayName: 'Amount',
		name: 'limitAmount',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		displayOptions: { show: { limitType: ['afterInterval'] } },
		description: 'How long to wait, in the unit below',
	},
	{
		displayName: 'Unit',
		name: 'limitUnit',
		type: 'options',
		options: [
			{ name: 'Days', value: 'days' },
			{ name: 'Hours', value: 'hours' },
			{ name: 'Minutes', value: 'minutes' },
		],
		default: 'hours',
		displayOptions: { show: { limitType: ['afterInterval'] } },
	},
	{
		displayName: 'Max Date and Time',
		name: 'limitTime',
		type: 'dateTime',
		default: '',
		displayOptions: { show: { limitType: ['atTime'] } },
		description:
			'When to stop waiting. A time without a zone is read in the workflow’s time zone (its settings, else n8n’s GENERIC_TIMEZONE), not the server’s.',
	},
];

export const description = transactionOperation('waitForPayment', properties);

/** Not used: the operation runs as a whole (run), not item by item through the item engine. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	throw new NodeOperationError(this.getNode(), 'Wait for Payment runs as a whole', {
		itemIndex: i,
	});
}

function readLimit(ctx: IExecuteFunctions, i: number, now: number): LimitSettings {
	const type = ctx.getNodeParameter('limitType', i, 'chargeExpiry') as LimitType;
	const settings: LimitSettings = { type };
	if (type === 'afterInterval') {
		settings.amount = Number(ctx.getNodeParameter('limitAmount', i, 1));
		settings.unit = ctx.getNodeParameter('limitUnit', i, 'hours') as LimitUnit;
	}
	if (type === 'atTime')
		settings.at = atTimeOf(ctx.getNodeParameter('limitTime', i, '') as unknown, ctx.getTimezone());
	const problem = limitProblem(settings, now);
	if (problem !== undefined) {
		const label = type === 'atTime' ? 'Max Date and Time' : 'Amount';
		throw invalidInput(
			ctx,
			i,
			label,
			problem,
			type === 'atTime'
				? `Set a time ahead, e.g. {{ $now.plus({ hours: 2 }) }}, at most 31 days (a time without a zone is read in ${ctx.getTimezone()}).`
				: 'Set a whole number above 0, at most 31 days in all.',
		);
	}
	return settings;
}

/** The first run: every item read and decided; what is still open waits. */
async function firstRun(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (ctx.getNode().alwaysOutputData === true)
		throw new NodeOperationError(
			ctx.getNode(),
			'Wait for Payment cannot run with “Always Output Data”: n8n would put an empty item on Paid',
			{ description: 'Turn off “Always Output Data” in the node’s Settings.', itemIndex: 0 },
		);
	checkEngine(ctx);
	const now = clock.now().getTime();
	const asked = ctx.getInputData().map((_, i) => ({
		i,
		id: idParameter(ctx, i, 'transactionId', 'Transaction'),
		limit: readLimit(ctx, i, now),
	}));
	const account = accountOf(await ctx.getCredentials(CREDENTIAL_TYPE));
	// Where the log is read from is set before the charges are read: nothing listed between is missed.
	const start = await startingPoint(
		ctx,
		account,
		asked.map((a) => a.id),
		now - RECORDS_SINCE_MS,
	);
	const open: WaitedItem[] = asked.map((a) => ({
		i: a.i,
		id: a.id,
		kind: 'unknown',
		limitAt: now,
	}));
	const items = (await settle(ctx, open, start.records)).map((item, n) => ({
		...item,
		limitAt: limitOf(asked[n].limit, item.transaction ?? undefined, now),
	}));
	// The decided items' `limit` field as they go out.
	for (const item of items)
		if (item.decided) item.decided.limit = new Date(item.limitAt).toISOString();
	if (items.every((item) => item.decided)) return route(items);
	const entry = ownEntry(ctx);
	const state: WaitState = {
		v: STATE_VERSION,
		key: newWaitSecret().slice(0, 32),
		generation: 0,
		secret: '',
		executionId: ctx.getExecutionId(),
		resumeUrl: String(ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? ''),
		account,
		items,
		limitAt: Math.max(...items.map((item) => item.limitAt)),
		waitTill: now,
		cursor: start.cursor,
		records: start.records,
		node: ctx.getNode(),
		source: entry?.source ?? null,
	};
	return await arrangeWait(ctx, state);
}

/**
 * Runs Wait for Payment over all input items (router: operations with `run`): the first run, or
 * one of its wait's entries (waiting/state.ts: the fallback, the RESUMED entry).
 */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][] | null> {
	const kept = readWait(ownEntry(this));
	if (kept?.role === 'fallback') return fallback(this, kept.state);
	if (kept?.role === 'resumed')
		return await resumed(this, kept.state, kept.wake ?? { kind: 'time', records: [] });
	// A gate never runs (its input is empty); should n8n run one, it does nothing.
	if (kept?.role === 'gate') return null;
	return await firstRun(this);
}

function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * The resume call. Refused (401) without the wait's signature, before anything else; refused (409)
 * for an earlier wait of the execution or while n8n's own time of the wait is near (lease.ts: n8n
 * may have armed its timer; it resumes the wait itself then). Otherwise the gate becomes the
 * RESUMED entry and the execution runs: the node decides by reading FacilitaPay. Reads nothing
 * itself; never throws (a throw would resume the execution with an error).
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const entry = resumingEntry(this);
		const kept = readWait(entry);
		if (!entry || kept?.role !== 'gate')
			return answer(this, 404, { error: 'This node is not waiting for a payment' });
		const { state } = kept;
		const body = (this.getBodyData() ?? {}) as IDataObject;
		if (!verify(keyOf(state.secret), state.executionId, body.payload, body.signature))
			return answer(this, 401, { error: 'Invalid signature' });
		const payload = JSON.parse(String(body.payload)) as ResumePayload;
		if (payload.generation !== state.generation)
			return answer(this, 409, { waiting: true, error: 'This call is for an earlier wait' });
		if (!mayCall(state.waitTill, clock.now().getTime()))
			return answer(this, 409, { waiting: true, error: 'n8n resumes this wait at its time' });
		const records = (Array.isArray(payload.records) ? payload.records : [])
			.map(asLogRecord)
			.filter((r) => r !== undefined);
		const kind = payload.kind === 'renew' ? 'renew' : 'records';
		const cursor = typeof payload.cursor === 'string' ? payload.cursor : state.cursor;
		const items = resumeGate(entry, state, { kind, records, cursor });
		return { workflowData: [items] };
	} catch (error) {
		return answer(this, 500, { waiting: true, error: (error as Error).message });
	}
}
