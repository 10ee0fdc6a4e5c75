import { mock } from 'jest-mock-extended';
import type {
	IDataObject,
	IHttpRequestOptions,
	INodeExecutionData,
	ITriggerFunctions,
	Logger,
} from 'n8n-workflow';

import type { ReaderDeps } from '../../../nodes/FacilitaPayTrigger/log';
import { workflowNode } from '../helpers/workflowNode';
import { BASE_URL, credentials } from './triggerContext';

/*
 * FacilitaPay's notification log as the spec describes it (ascending by default, `last_id`,
 * `per_page`, `order_by=desc`, `failed`, `PUT /notifications/:id`), held in memory for the reader's
 * tests, with the variants the spec leaves open: a page cap shorter than asked, and records
 * written (listed) later than their delivery. Every request that left is recorded.
 */

export interface FakeRecord {
	id: string;
	url: string;
	notification: IDataObject;
	inserted_at: string;
	sent_at: string | null;
	failed_at: string | null;
}

export class FakeLog {
	records: FakeRecord[] = [];
	requests: IHttpRequestOptions[] = [];
	/** The most records a page holds, whatever per_page asks (null: as asked). */
	pageCap: number | null = null;
	/** When set, reads fail with this error. */
	down: Error | undefined;
	private counter = 0;

	/** Writes a record (listed from now on), as FacilitaPay does when it sends a notification. */
	add(url: string, notification: IDataObject, { failed = false } = {}): FakeRecord {
		this.counter += 1;
		const at = new Date(Date.UTC(2030, 0, 1, 0, 0, this.counter)).toISOString();
		const record: FakeRecord = {
			id: `rec-${String(this.counter).padStart(4, '0')}`,
			url,
			notification,
			inserted_at: at,
			sent_at: at,
			failed_at: failed ? at : null,
		};
		this.records.push(record);
		return record;
	}

	failedIds(): string[] {
		return this.records.filter((r) => r.failed_at !== null).map((r) => r.id);
	}

	/** Requests that left, as `METHOD path?query` (the query keys sorted). */
	lines(): string[] {
		return this.requests.map((request) => {
			const qs = (request.qs ?? {}) as IDataObject;
			const query = Object.keys(qs)
				.sort()
				.map((key) => `${key}=${String(qs[key])}`)
				.join('&');
			const path = String(request.url).replace(BASE_URL, '');
			return `${request.method} ${path}${query ? `?${query}` : ''}`;
		});
	}

	answer(request: IHttpRequestOptions): unknown {
		this.requests.push(JSON.parse(JSON.stringify(request)) as IHttpRequestOptions);
		if (this.down) throw this.down;
		const path = String(request.url).replace(BASE_URL, '');
		const put = /^\/notifications\/([^/]+)$/.exec(path);
		if (request.method === 'PUT' && put) {
			const record = this.records.find((r) => r.id === decodeURIComponent(put[1]));
			if (!record) return { statusCode: 404, body: { errors: { id: ['not found'] } }, headers: {} };
			record.failed_at = null;
			return { statusCode: 200, body: { data: record }, headers: {} };
		}
		if (request.method === 'GET' && path === '/notifications') {
			const qs = (request.qs ?? {}) as IDataObject;
			let list = [...this.records];
			if (qs.order_by === 'desc') list.reverse();
			if (qs.failed !== undefined) {
				const failed = String(qs.failed) === 'true';
				list = list.filter((r) => (r.failed_at !== null) === failed);
			}
			if (qs.last_id) {
				const index = list.findIndex((r) => r.id === qs.last_id);
				list = index === -1 ? [] : list.slice(index + 1);
			}
			const asked = qs.per_page === undefined ? 100 : Number(qs.per_page);
			const size = this.pageCap === null ? asked : Math.min(asked, this.pageCap);
			const page = list.slice(0, size).map((r) => ({ ...r, notification: { ...r.notification } }));
			return { statusCode: 200, body: { data: page }, headers: {} };
		}
		throw new Error(`Unexpected request: ${request.method} ${path}`);
	}
}

export interface TriggerHarness {
	ctx: ITriggerFunctions;
	/** The items of each execution started (one array per emit). */
	emitted: IDataObject[][];
	staticData: IDataObject;
	logger: Logger;
}

/** An ITriggerFunctions as n8n gives trigger(): its static data, parameters, emit and requests. */
export function triggerContext(
	log: FakeLog,
	{
		staticData = {},
		parameters = {},
		mode = 'trigger',
		typeVersion = 2,
		workflowId = 'workflow-1',
		instanceId = 'instance-1',
	}: {
		staticData?: IDataObject;
		parameters?: IDataObject;
		mode?: 'trigger' | 'manual';
		typeVersion?: number;
		workflowId?: string;
		instanceId?: string;
	} = {},
): TriggerHarness {
	const emitted: IDataObject[][] = [];
	const logger = mock<Logger>();
	const node = {
		...workflowNode('trigger-1', 'FacilitaPay Trigger', 'n8n-nodes-facilitapay.facilitaPayTrigger'),
		typeVersion,
	};
	const all: IDataObject = { events: ['*'], options: {}, ...parameters };
	const ctx = mock<ITriggerFunctions>({
		logger,
		getNode: () => node,
		getMode: () => mode,
		getWorkflow: () => ({ id: workflowId, name: 'test', active: true }),
		getInstanceId: () => instanceId,
		getWorkflowStaticData: () => staticData,
		getNodeParameter: ((name: string, fallback?: unknown) =>
			all[name] === undefined ? fallback : all[name]) as ITriggerFunctions['getNodeParameter'],
		getCredentials: async <T extends object>() => credentials as unknown as T,
		helpers: {
			httpRequestWithAuthentication: jest.fn(async (_type: string, request: IHttpRequestOptions) =>
				log.answer(request),
			),
		} as unknown as ITriggerFunctions['helpers'],
	});
	ctx.emit.mockImplementation((data: INodeExecutionData[][]) => {
		emitted.push(data[0].map((item) => item.json));
	});
	return { ctx, emitted, staticData, logger };
}

/**
 * Time for the reader, moved by the test: `wait` resolves when the test advances past its end.
 * Requests go through the node's real transport (the fake log answers them).
 */
export class FakeTime implements ReaderDeps {
	at = 0;
	private sleepers: Array<{ until: number; wake: () => void }> = [];

	constructor(private readonly request_: ReaderDeps['request']) {}

	now = () => this.at;

	wait = async (ms: number) =>
		await new Promise<void>((resolve) =>
			this.sleepers.push({ until: this.at + ms, wake: resolve }),
		);

	/** Between two emits: a promise turn (the fake context saves nothing). */
	yieldToLoop = async () => await Promise.resolve();

	request: ReaderDeps['request'] = async (ctx, request, run) =>
		await this.request_(ctx, request, run);

	/** Moves time on by `ms`, waking each sleeper whose time came, and lets the reader run. */
	async advance(ms: number, step = 50): Promise<void> {
		const end = this.at + ms;
		while (this.at < end) {
			this.at = Math.min(end, this.at + step);
			const due = this.sleepers.filter((s) => s.until <= this.at);
			this.sleepers = this.sleepers.filter((s) => s.until > this.at);
			for (const sleeper of due) sleeper.wake();
			await settle();
		}
	}
}

/** Lets every pending promise chain run (the fake log answers at once). */
export async function settle(): Promise<void> {
	// Promise callbacks only (the fake log answers synchronously): no timer of any kind.
	for (let i = 0; i < 200; i++) await Promise.resolve();
}
