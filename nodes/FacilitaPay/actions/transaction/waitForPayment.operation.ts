import type {
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	IPairedItemData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { clock } from '../../clock';
import type { FacilitaPayContext, RunState } from '../../transport';
import { accountOf, apiRequest, beginRun, CREDENTIAL_TYPE, factsOf } from '../../transport';
import type {
	Decision,
	LimitSettings,
	LimitType,
	LimitUnit,
	LogRecord,
	ResumePayload,
} from '../../waiting';
import {
	asLogRecord,
	decide,
	limitOf,
	limitProblem,
	prepareAccount,
	register,
	RESUME_PATH,
	signingKey,
	verify,
} from '../../waiting';
import { transactionIdField } from '../common/fields';
import { idParameter, invalidInput } from '../common/input';
import type { ItemWork } from '../node.type';
import { transactionOperation } from './transaction.requests';

/*
 * Transaction > Wait for Payment. execute() reads the charges; if all are decided they go out at
 * once on Paid / Not Paid; otherwise the execution goes into n8n's waiting state
 * (putExecutionToWait) for all items together, and is resumed ONCE: by the waiter's signed call
 * to its resume URL when FacilitaPay's records decide every charge (webhook() re-reads them), or
 * by the limit. docs/waiting.md says what n8n 2.41.1 and 1.123.81 allow and why it is done so.
 */

/**
 * The resume call's webhook (n8n's /webhook-waiting/<execution>/facilitapay-payment):
 * `restartWebhook: true` webhooks reach only a waiting execution, and n8n never registers them for
 * active workflows, so there is nothing to create or delete at FacilitaPay (no webhookMethods).
 * - Its own path: a call reaches only a Wait for Payment that waits. Once the execution has
 *   resumed and waits again at another node (n8n's Wait node, a send-and-wait), a late or repeated
 *   call of ours is answered 404 by n8n instead of resuming that node.
 * - Answered when the resumed run ends (`lastNode`, no data): the waiter's few calls in flight are
 *   then the runs n8n works on, so a burst of payments resumes in turn instead of all at once
 *   (with `onReceived` n8n answers as soon as the run starts: 300 paid at once made 300 runs at once).
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

export const OUTPUT_NAMES = ['Paid', 'Not Paid', 'Timed Out'] as const;
const OUTCOME_INDEX = { paid: 0, notPaid: 1, timedOut: 2 } as const;

/**
 * n8n's time resume (the WaitTracker at the limit) does not run the node: it forwards the items
 * the node left on its stack entry. The limit set in n8n is ours plus this grace, so that the
 * waiter's own call at the limit (one last read of FacilitaPay) comes first while n8n runs.
 */
export const N8N_LIMIT_GRACE_MS = 60_000;

/**
 * The node type of the copy of the node that n8n's own time resume forwards (this package's hidden
 * FacilitaPay Wait Limit: two main outputs, so n8n's error output is index 2 = Timed Out). See
 * timeResumeItems().
 */
export const AT_LIMIT_TYPE = 'facilitaPayWaitLimit';

function atLimitType(type: string): string {
	return type.replace(/facilitaPay(Tool)?$/, AT_LIMIT_TYPE);
}

/** How to settle an item that reached Timed Out: what the user reads on it. */
export function howToCheck(id: string, checkout: boolean): string {
	return checkout
		? `Connect Timed Out to Transaction > Get Checkout (or Find) with ID ${id} and branch on what FacilitaPay shows; a card checkout's page may still be paid after the limit.`
		: `Connect Timed Out to Transaction > Get with ID ${id} and branch on its status (identified, exchanged or wired = paid; canceled = not paid; pending = still open).`;
}

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
					'The charge’s own expiry plus a margin: PIX and dynamic CLABE +10 min, PSE 21 min +10 min, boleto due date +5 days (confirmation takes up to 3 business days); 24 h for a charge without an expiry (card)',
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
		description: 'When to stop waiting; a time without a zone is read in the workflow’s time zone',
	},
];

export const description = transactionOperation('waitForPayment', properties);

/** Not used: the operation runs as a whole (run), not item by item through the item engine. */
export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	throw new NodeOperationError(this.getNode(), 'Wait for Payment runs as a whole', {
		itemIndex: i,
	});
}

/** What the stack entry keeps of one waited item (also the item the Timed Out output gets). */
export interface WaitedItem {
	json: IDataObject & { transactionId: string; outcome: string; checkout: boolean };
	pairedItem: IPairedItemData;
}

/** The marker webhook() leaves on the stack entry of the execution it resumes. */
const RESUMED = 'facilitaPayWaitResumed';

type Entry = IExecuteData & { metadata?: IDataObject };

function readLimit(ctx: IExecuteFunctions, i: number, now: number): LimitSettings {
	const type = ctx.getNodeParameter('limitType', i, 'chargeExpiry') as LimitType;
	const settings: LimitSettings = { type };
	if (type === 'afterInterval') {
		settings.amount = Number(ctx.getNodeParameter('limitAmount', i, 1));
		settings.unit = ctx.getNodeParameter('limitUnit', i, 'hours') as LimitUnit;
	}
	if (type === 'atTime') {
		const raw = ctx.getNodeParameter('limitTime', i, '') as unknown;
		settings.at =
			raw instanceof Date
				? raw.getTime()
				: typeof raw === 'string' && raw !== ''
					? Date.parse(raw)
					: NaN;
	}
	const problem = limitProblem(settings, now);
	if (problem !== undefined) {
		const label = type === 'atTime' ? 'Max Date and Time' : 'Amount';
		throw invalidInput(
			ctx,
			i,
			label,
			problem,
			type === 'atTime'
				? 'Set a time ahead, e.g. {{ $now.plus({ hours: 2 }) }}, at most 31 days.'
				: 'Set a whole number above 0, at most 31 days in all.',
		);
	}
	return settings;
}

interface ChargeRead {
	transaction?: IDataObject;
	/** The ID is not a transaction FacilitaPay knows: a card checkout's ID. */
	checkout: boolean;
	/** The read failed (after the transport's retries). */
	error?: NodeApiError | NodeOperationError;
}

function nodeError(
	ctx: FacilitaPayContext,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

function statusOf(error: unknown): number | undefined {
	const facts = factsOf(error) as { status?: number; httpCode?: string } | undefined;
	const fromFacts = facts?.status;
	if (typeof fromFacts === 'number') return fromFacts;
	const code = Number((error as { httpCode?: string })?.httpCode);
	return Number.isFinite(code) ? code : undefined;
}

/** One read of a waited ID: the transaction, or (404) a checkout ID. */
async function readCharge(
	ctx: FacilitaPayContext,
	id: string,
	run: RunState,
	itemIndex?: number,
): Promise<ChargeRead> {
	try {
		const transaction = await apiRequest.call(
			ctx,
			{
				method: 'GET',
				path: `/transactions/${encodeURIComponent(id)}`,
				retry: 'safe',
				itemIndex,
			},
			undefined,
			run,
		);
		return { transaction: (transaction ?? {}) as IDataObject, checkout: false };
	} catch (error) {
		if (statusOf(error) === 404) return { checkout: true };
		return { checkout: false, error: nodeError(ctx, error, itemIndex) };
	}
}

function outcomeJson(
	id: string,
	checkout: boolean,
	transaction: IDataObject | undefined,
	decision: Decision | undefined,
	limitAt: number | undefined,
): IDataObject & { transactionId: string; outcome: string; checkout: boolean } {
	return {
		outcome: decision?.outcome ?? 'timedOut',
		...(decision?.reason !== undefined && { reason: decision.reason }),
		...(decision?.detail !== undefined && { reasonDetail: decision.detail }),
		decidedBy: decision ? decision.decidedBy : 'limit',
		transactionId: id,
		checkout,
		transaction: transaction ?? null,
		record: (decision?.record as IDataObject | undefined) ?? null,
		...(limitAt !== undefined && { limit: new Date(limitAt).toISOString() }),
	};
}

/** A Timed Out item the waiter's last read at the limit confirmed: FacilitaPay still showed it open. */
export function checkedAtLimit(json: WaitedItem['json']): WaitedItem['json'] {
	if (json.outcome !== 'timedOut') return json;
	return {
		...json,
		checkedAtLimit: true,
		howToCheck: howToCheck(json.transactionId, json.checkout),
	};
}

/**
 * What n8n's own time resume sends on (the WaitTracker at the limit; no code of ours runs then: the
 * waiter was not there, e.g. n8n restarted without a published FacilitaPay Trigger). n8n 1.123 and
 * 2.41 forward only `data.main[0]` of a disabled node (handleDisabledNode), and then, for a node
 * whose onError is continueErrorOutput, move the items shaped as errors (`{error, message}`) to
 * its LAST output (handleNodeErrorOutput). So the entry gets a copy of the node whose outputs are
 * two mains + the error output (index 2 = Timed Out: AT_LIMIT_TYPE), and main[0] holds every item in input order
 * (position = item index, so pairedItem stays right): the items paid when the wait began as they
 * are (Paid), every other one as an error item (Timed Out) that says FacilitaPay was not read at
 * the limit and how to check. Never Paid without FacilitaPay's record. webhook() restores the node.
 */
export function timeResumeItems(items: WaitedItem[]): INodeExecutionData[] {
	return [...items]
		.sort((a, b) => a.pairedItem.item - b.pairedItem.item)
		.map((item) => {
			if (item.json.outcome === 'paid') return { json: item.json, pairedItem: item.pairedItem };
			const id = item.json.transactionId;
			const atStart = item.json.outcome;
			const fields: IDataObject = {
				...item.json,
				outcome: 'timedOut',
				decidedBy: 'limit',
				checkedAtLimit: false,
				howToCheck: howToCheck(id, item.json.checkout),
				...(atStart !== 'timedOut' && { outcomeWhenWaitBegan: atStart }),
			};
			const message =
				atStart === 'notPaid'
					? `Charge ${id} was Not Paid (${String(item.json.reason ?? 'not paid')}) when the wait began; n8n resumed this execution at its limit without a last read of FacilitaPay. ${howToCheck(id, item.json.checkout)}`
					: `FacilitaPay was not read at the limit: the outcome of charge ${id} is unknown (n8n resumed this execution at its limit while no FacilitaPay waiter was running, e.g. after a restart). ${howToCheck(id, item.json.checkout)}`;
			return { json: { error: fields, message }, pairedItem: item.pairedItem };
		});
}

function route(
	items: Array<{ json: IDataObject; pairedItem: IPairedItemData }>,
): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = [[], [], []];
	for (const item of items) {
		const index = OUTCOME_INDEX[item.json.outcome as keyof typeof OUTCOME_INDEX] ?? 2;
		outputs[index].push({ json: item.json, pairedItem: item.pairedItem });
	}
	return outputs;
}

/** Runs Wait for Payment over all input items (router: operations with `run`). */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const entry = this.getExecuteData() as Entry;
	if (entry.metadata?.[RESUMED] === true) {
		// Resumed by webhook(): the items it decided, on their outputs.
		const items = this.getInputData() as unknown as WaitedItem[];
		return route(items);
	}
	const items = this.getInputData();
	if (this.getNode().alwaysOutputData === true)
		throw new NodeOperationError(
			this.getNode(),
			'Wait for Payment cannot run with “Always Output Data”: n8n would put an empty item on Paid',
			{ description: 'Turn off “Always Output Data” in the node’s Settings.', itemIndex: 0 },
		);
	const now = clock.now().getTime();
	const waited = items.map((_, i) => ({
		i,
		id: idParameter(this, i, 'transactionId', 'Transaction'),
		limit: readLimit(this, i, now),
	}));
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const account = accountOf(credentials);
	// The log's cursor is set before the charges are read: nothing listed between is missed.
	await prepareAccount(this, account);
	const reading = beginRun();
	const continueOnFail = this.continueOnFail();
	const reads = await Promise.all(
		waited.map(async (w) => await readCharge(this, w.id, reading, w.i)),
	);
	const failed = reads.find((read) => read.error !== undefined);
	if (failed?.error && !continueOnFail) throw failed.error;
	const all: WaitedItem[] = [];
	let limitAt = 0;
	const errors: INodeExecutionData[] = [];
	waited.forEach((w, n) => {
		const read = reads[n];
		if (read.error) {
			errors.push({
				json: {
					outcome: 'notPaid',
					reason: 'error',
					transactionId: w.id,
					error: read.error.message,
				},
				pairedItem: { item: w.i },
			});
			return;
		}
		const decision = decide(read.transaction, [], w.id, read.checkout);
		const itemLimit = limitOf(w.limit, read.transaction, now);
		limitAt = Math.max(limitAt, itemLimit);
		all.push({
			json: outcomeJson(w.id, read.checkout, read.transaction, decision, itemLimit),
			pairedItem: { item: w.i },
		});
	});
	const open = all.filter((item) => item.json.outcome === 'timedOut');
	if (open.length === 0) {
		const outputs = route(all);
		outputs[1].push(...errors);
		return outputs;
	}
	// Wait for every item: one resume when all are decided, or at the limit.
	const executionId = this.getExecutionId();
	const resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	const waitedItems: WaitedItem[] = [
		...all,
		...(errors as unknown as WaitedItem[]).map((item) => ({
			json: { ...item.json, checkout: false },
			pairedItem: item.pairedItem,
		})),
	];
	// What n8n's time resume sends on (the node does not run then): timeResumeItems().
	const node = this.getNode();
	const state: IDataObject = {
		executionId,
		limitAt,
		items: waitedItems as unknown as IDataObject[],
		node: node as unknown as IDataObject,
		source: (entry.source ?? null) as unknown as IDataObject,
	};
	entry.data = { main: [timeResumeItems(waitedItems)] };
	entry.node = {
		...node,
		type: atLimitType(node.type),
		onError: 'continueErrorOutput',
		alwaysOutputData: false,
		retryOnFail: false,
	};
	// No source: n8n then moves the error items as they are (no look-up of the input item that
	// could throw, and a throw there would send main[0] to Paid). webhook() restores it.
	entry.source = null;
	entry.metadata = { ...(entry.metadata ?? {}), facilitaPayWait: state };
	register(this, {
		account,
		executionId,
		resumeUrl,
		key: signingKey(credentials, this.getInstanceId()),
		ids: new Map(open.map((item) => [item.json.transactionId, item.json.checkout])),
		limitAt,
	});
	await this.putExecutionToWait(new Date(limitAt + N8N_LIMIT_GRACE_MS));
	return [[], [], []];
}

/** The stack entry of the execution being resumed (n8n keeps it as the context's executeData). */
function resumingEntry(ctx: IWebhookFunctions): Entry | undefined {
	const entry = (ctx as unknown as { executeData?: Entry }).executeData;
	return entry && typeof entry === 'object' ? entry : undefined;
}

interface WaitState {
	executionId: string;
	limitAt: number;
	items: WaitedItem[];
	node: INode;
	source: IExecuteData['source'];
}

function waitStateOf(entry: Entry | undefined): WaitState | undefined {
	const wait = entry?.metadata?.facilitaPayWait as IDataObject | undefined;
	if (!wait || typeof wait.executionId !== 'string' || !Array.isArray(wait.items)) return undefined;
	if (!wait.node || typeof wait.node !== 'object') return undefined;
	const items = (wait.items as unknown as WaitedItem[]).filter(
		(item) => typeof item?.json?.transactionId === 'string',
	);
	return {
		executionId: wait.executionId,
		limitAt: Number(wait.limitAt),
		items,
		node: wait.node as unknown as INode,
		source: (wait.source ?? null) as unknown as IExecuteData['source'],
	};
}

function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * The resume call. Refused (401) without our signature, before anything is read; then the open
 * charges are read again and decided by FacilitaPay's records. All decided (or the limit reached):
 * the execution resumes once with every item on its output; otherwise it stays waiting (no
 * workflowData: n8n only answers). Never throws: a throw would resume the execution with an error.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		const entry = resumingEntry(this);
		const state = waitStateOf(entry);
		if (!entry || !state)
			return answer(this, 404, { error: 'This node is not waiting for a payment' });
		const body = (this.getBodyData() ?? {}) as IDataObject;
		const credentials = await this.getCredentials(CREDENTIAL_TYPE);
		const key = signingKey(credentials, this.getInstanceId());
		if (!verify(key, state.executionId, body.payload, body.signature))
			return answer(this, 401, { error: 'Invalid signature' });
		const payload = JSON.parse(String(body.payload)) as ResumePayload;
		const records = (Array.isArray(payload.records) ? payload.records : [])
			.map(asLogRecord)
			.filter((r): r is LogRecord => r !== undefined);
		const now = clock.now().getTime();
		const final = payload.final === true && now >= state.limitAt - 5_000;
		const run = beginRun({ concurrency: 5, timeoutMs: 30_000 });
		const decided = await Promise.all(
			state.items.map(async (item) => {
				if (item.json.outcome !== 'timedOut') return item;
				return {
					json: await decideAgain(this, item, records, run, state.limitAt),
					pairedItem: item.pairedItem,
				};
			}),
		);
		const open = decided.filter((item) => item.json.outcome === 'timedOut').length;
		if (open > 0 && !final)
			return answer(this, 200, {
				waiting: true,
				open: decided
					.filter((item) => item.json.outcome === 'timedOut')
					.map((item) => item.json.transactionId),
			});
		// The node and source as they were (timeResumeItems() set a copy for n8n's time resume), the
		// items in input order: n8n numbers a resumed node's input items by position (pairedItem).
		entry.node = { ...state.node, disabled: false };
		entry.source = state.source;
		(entry.metadata as IDataObject)[RESUMED] = true;
		const out = decided
			.map((item) => (final ? { ...item, json: checkedAtLimit(item.json) } : item))
			.sort((a, b) => a.pairedItem.item - b.pairedItem.item);
		return {
			workflowData: [out.map((item) => ({ json: item.json, pairedItem: item.pairedItem }))],
			webhookResponse: { resumed: true },
		};
	} catch (error) {
		return answer(this, 200, { waiting: true, error: (error as Error).message });
	}
}

/** One open charge decided again: its transaction read now, with the records that name it. */
async function decideAgain(
	ctx: IWebhookFunctions,
	item: WaitedItem,
	records: readonly LogRecord[],
	run: RunState,
	limitAt: number,
): Promise<WaitedItem['json']> {
	const id = item.json.transactionId;
	const isCheckout = item.json.checkout;
	let transaction: IDataObject | undefined;
	if (isCheckout) {
		// A checkout has no transaction until paid: the approving record names the one to read.
		const approving = records.find(
			(r) => r.notification.checkout_id === id && r.notification.type === 'payment_approved',
		);
		const paidId = approving?.notification.transaction_id;
		if (typeof paidId === 'string' && paidId !== '') {
			const read = await readCharge(ctx, paidId, run);
			if (read.error) throw read.error;
			transaction = read.transaction;
		}
	} else {
		const read = await readCharge(ctx, id, run);
		if (read.error) throw read.error;
		transaction = read.transaction;
	}
	const decision = decide(transaction, records, id, isCheckout);
	if (transaction === undefined && decision && isCheckout && decision.outcome === 'paid') {
		// Never paid on a record alone: the transaction the record names must be readable.
		return outcomeJson(id, isCheckout, undefined, undefined, limitAt);
	}
	return outcomeJson(
		id,
		isCheckout,
		transaction ?? (item.json.transaction as IDataObject),
		decision,
		limitAt,
	);
}
