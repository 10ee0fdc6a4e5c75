import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiRequest, FacilitaPayContext, RunState } from '../../FacilitaPay/transport';
import {
	accountOf,
	accountOfRun,
	apiRequest,
	beginRun,
	CREDENTIAL_TYPE,
} from '../../FacilitaPay/transport';
import { publishLogPage } from '../../FacilitaPay/logFeed';
import { isEventSelected } from '../events';
import { clock } from '../../FacilitaPay/clock';
import { readServiceTime } from '../../FacilitaPay/validation/dates';
import { LOG } from '../texts';
import { itemOf, kycIdentity, kycItem, typeOf } from './item';
import type { Notice } from './deaf';
import { DeafWatch } from './deaf';
import { attachObjects } from './objects';
import {
	ACCOUNT_CHECK_EVERY_MS,
	FAILED_SWEEP_EVERY_MS,
	isDue,
	KYC_GRACE_MS,
	KYC_PENDING_MAX,
	KYC_READ_GAP_MS,
	learntFullPage,
	LOOK_BACK_EVERY_MS,
	nextReadAt,
	readOnNow,
} from './pace';
import type { LogRecord, LogState } from './selection';
import {
	missedBehind,
	readLogState,
	settlePage,
	startedButFailed,
	withStarted,
	writeLogState,
} from './selection';
import type { UrlMatcher } from './urls';
import { productionUrls, urlMatcher } from './urls';

/*
 * The reader: reads FacilitaPay's notification log after its cursor until a page comes back
 * empty, starts one execution per record sent to this workflow's URL, marks the failed ones
 * successful, then waits for the next poll or a delivery's prompt. It runs in n8n's trigger()
 * of the node, on the instance that runs triggers (the leader in queue mode), from activation
 * and from every start of n8n, so what FacilitaPay listed while n8n was down is caught up.
 */

/** Records asked per read (the live maximum is not published: a shorter page is not the end). */
export const PER_PAGE = 100;
/** At most this many pages of failed records are read per sweep. */
export const FAILED_SWEEP_PAGES = 20;
/** At most this many records are read and emitted at once when objects are attached. */
export const EMIT_CONCURRENCY = 8;

/** Time and requests, given from outside so that tests control them. */
export interface ReaderDeps {
	now(): number;
	wait(ms: number): Promise<void>;
	/**
	 * Lets n8n's event loop run between two emits (a macrotask): n8n saves the workflow's static
	 * data at each emit while it is marked changed, and the mark is cleared only once that save is
	 * written, so emits in one go each write it again (a page of 100: 100 writes of the whole static
	 * data, queued in n8n's database). Between emits a save can land, and fewer are written (301 →
	 * 162-167 in a burst of 300, docs/trigger.md). Tests give one that needs no clock.
	 */
	yieldToLoop(): Promise<void>;
	request(ctx: ITriggerFunctions, request: ApiRequest, run: RunState): Promise<unknown>;
}

export const realDeps: ReaderDeps = {
	now: () => Date.now(),
	wait: async (ms) => await sleep(ms),
	yieldToLoop: async () => await sleep(0),
	request: async (ctx, request, run) =>
		await apiRequest.call(ctx as unknown as FacilitaPayContext, request, undefined, run),
};

export interface ReaderOptions {
	/** Read the objects each event names and attach them (Attach Current Objects). */
	attachObjects: boolean;
	/** The Events choice. */
	events: unknown;
}

/**
 * The records written after the registration (FacilitaPay's time of its newest record then): the
 * ones before went wherever the URL pointed then. All of them when that time is unknown.
 */
function writtenSince(records: LogRecord[], registeredAfter: number | undefined): LogRecord[] {
	if (registeredAfter === undefined) return records;
	return records.filter((record) => {
		const at = readServiceTime(record.inserted_at);
		return at === undefined || at > registeredAfter;
	});
}

function list(answer: unknown): unknown[] {
	return Array.isArray(answer) ? answer : [];
}

export class LogReader {
	private stopped = false;
	private prompted = false;
	private wake: (() => void) | undefined;
	private lastReadAt = Number.NEGATIVE_INFINITY;
	private lookedBackAt: number | undefined;
	/** The page size taken as full (PER_PAGE, or the service's cap once learnt). */
	private fullPage = PER_PAGE;
	/** The length of the short page the last pass ended on (undefined: it ended on an empty one). */
	private lastShort: number | undefined;
	/** Subjects KYC payloads named, by when the first payload came. */
	private readonly kycPending = new Map<string, number>();
	private kycReadAt = Number.NEGATIVE_INFINITY;
	/** Whether the log lists KYC payloads (then it settles them, and no subject is read). */
	private kycListed = false;
	private sweptAt: number | undefined;
	/** The account this reader reads the log of (its run's credentials): the log feed's key. */
	private account: string | undefined;
	/** The account the credentials reach now, read again once per ACCOUNT_CHECK_EVERY_MS. */
	private credentialsAccount: string | undefined;
	private accountCheckedAt: number | undefined;
	private readonly run: RunState = beginRun({ concurrency: EMIT_CONCURRENCY, timeoutMs: 30_000 });
	/** What tells the user when this workflow hears nothing (log/deaf.ts). */
	private readonly watch = new DeafWatch(() => this.currentUrl());
	/** Resolves when the loop has ended (after stop()). */
	done: Promise<void> = Promise.resolve();

	constructor(
		private readonly ctx: ITriggerFunctions,
		private readonly options: ReaderOptions,
		private readonly deps: ReaderDeps = realDeps,
	) {}

	/** A delivery arrived: read the log soon (no sooner than the pace allows). */
	prompt(): void {
		this.watch.delivery(this.deps.now());
		this.readSoon();
	}

	private readSoon(): void {
		if (this.prompted) return;
		this.prompted = true;
		this.wake?.();
	}

	/**
	 * A KYC status payload named this subject. Whether it was taken: the log lists KYC payloads (it
	 * settles them), the subject waits already, or there is room; false when KYC_PENDING_MAX
	 * subjects wait (a stranger's flood), so the delivery is answered to be sent again.
	 */
	promptKyc(subjectId: string): boolean {
		// Not counted as a delivery the log must list: whether it lists KYC payloads is not published.
		this.readSoon();
		if (this.kycListed || this.kycPending.has(subjectId)) return true;
		if (this.kycPending.size >= KYC_PENDING_MAX) return false;
		this.kycPending.set(subjectId, this.deps.now());
		return true;
	}

	stop(): void {
		this.stopped = true;
		this.wake?.();
	}

	/** Starts the loop; returns at once. */
	start(): void {
		this.done = this.loop();
	}

	private async loop(): Promise<void> {
		while (!this.stopped) {
			let failed = false;
			try {
				await this.cycle();
			} catch (error) {
				failed = true;
				this.watch.readFailed(this.deps.now(), (error as Error).message);
				this.ctx.logger.warn(
					`${LOG}: FacilitaPay's notification log could not be read (${(error as Error).message}); reading it again in a few seconds. Nothing is lost: every event it lists for this workflow starts once it can be read.`,
				);
			}
			for (const notice of this.watch.due(this.deps.now())) this.tell(notice);
			await this.pause(failed);
		}
	}

	/** This workflow's registered URL, as the notices show it. */
	private currentUrl(): string {
		const staticData = this.ctx.getWorkflowStaticData('node');
		return productionUrls(staticData, this.ctx.getInstanceId())[0] ?? '';
	}

	/**
	 * Tells the user, where n8n users look, without stopping anything: n8n's log, and on n8n 2.x a
	 * failed execution of the workflow (its executions list) that also runs its error workflow
	 * (`saveFailedExecution`: the workflow stays active). `emitError` is not used: n8n deactivates
	 * the trigger for it (docs/trigger.md, What n8n allows a webhook trigger).
	 */
	private tell(notice: Notice): void {
		this.ctx.logger.error(`${LOG}: ${notice.message}. ${notice.description}`, {
			notice: notice.kind,
		});
		const save = (this.ctx as Partial<ITriggerFunctions>).saveFailedExecution;
		if (typeof save !== 'function') return;
		try {
			save.call(
				this.ctx,
				new NodeOperationError(this.ctx.getNode(), notice.message, {
					description: notice.description,
				}),
			);
		} catch {
			// Told in n8n's log already; a context without failed executions (tests) has no more.
		}
	}

	private async pause(failed: boolean): Promise<void> {
		for (;;) {
			if (this.stopped) return;
			const due = nextReadAt(this.lastReadAt, this.prompted, failed);
			const now = this.deps.now();
			if (now >= due) return;
			await new Promise<void>((resolve) => {
				this.wake = resolve;
				void this.deps.wait(due - now).then(resolve);
			});
			this.wake = undefined;
		}
	}

	private async read(qs: IDataObject): Promise<unknown[]> {
		const answer = await this.deps.request(
			this.ctx,
			{ method: 'GET', path: '/notifications', qs, retry: 'safe' },
			this.run,
		);
		const page = list(answer);
		// One read serves every listener of this account in the process (waiting payments).
		if (this.account !== undefined)
			publishLogPage(this.account, page, {
				context: this.ctx,
				after: typeof qs.last_id === 'string' ? qs.last_id : null,
				...(typeof qs.order_by === 'string' && { order: qs.order_by }),
				...(qs.failed !== undefined && { order: 'failed' }),
			});
		return page;
	}

	/** The log state, set to the newest record now when the trigger never set it. */
	private async state(staticData: IDataObject): Promise<LogState> {
		const kept = readLogState(staticData);
		if (kept) return kept;
		const newest = await this.read({ order_by: 'desc', per_page: '1' });
		const id = (newest[0] as IDataObject | undefined)?.id;
		const state: LogState = {
			cursor: typeof id === 'string' && id !== '' ? id : null,
			since: clock.now().toISOString(),
			started: [],
		};
		writeLogState(staticData, state);
		return state;
	}

	/** The account the credentials reach, or undefined when they cannot be read now. */
	private async currentAccount(): Promise<string | undefined> {
		try {
			return accountOf(await this.ctx.getCredentials(CREDENTIAL_TYPE));
		} catch {
			return undefined;
		}
	}

	/**
	 * The account the reader's requests reach (its run's credentials, read once and shared with
	 * every request: free after the first pass), and, once per ACCOUNT_CHECK_EVERY_MS, the account
	 * the credentials reach now (a read of n8n's credentials; see ACCOUNT_CHECK_EVERY_MS).
	 */
	private async readAccounts(): Promise<void> {
		try {
			this.account = await accountOfRun(this.ctx as unknown as FacilitaPayContext, this.run);
		} catch {
			this.account = undefined;
		}
		const now = this.deps.now();
		if (!isDue(this.accountCheckedAt, ACCOUNT_CHECK_EVERY_MS, now)) return;
		this.accountCheckedAt = now;
		this.credentialsAccount = await this.currentAccount();
	}

	/** One pass: every page after the cursor, then the look back and the failed sweep when due. */
	async cycle(): Promise<void> {
		const staticData = this.ctx.getWorkflowStaticData('node');
		const ours = productionUrls(staticData, this.ctx.getInstanceId());
		await this.readAccounts();
		this.lastReadAt = this.deps.now();
		this.prompted = false;
		if (ours.length === 0) return;
		const registered = staticData.registeredAccount;
		this.watch.account(
			this.credentialsAccount,
			typeof registered === 'string' ? registered : undefined,
		);
		const isOurs = urlMatcher(ours);
		const registeredAfter = readServiceTime(staticData.registeredAfterAt);
		let state = await this.state(staticData);
		const wanted = (type: string) => isEventSelected(type, this.options.events);
		for (let first = true; ; first = false) {
			const qs: IDataObject = { per_page: String(PER_PAGE) };
			if (state.cursor) qs.last_id = state.cursor;
			const page = await this.read(qs);
			if (first) this.fullPage = learntFullPage(this.fullPage, this.lastShort, page.length);
			this.lastShort = undefined;
			if (page.length === 0) break;
			const verdict = settlePage(page, state, isOurs, wanted);
			this.watch.page(
				this.deps.now(),
				verdict.ours,
				writtenSince(verdict.foreign, registeredAfter),
			);
			if (verdict.start.some((record) => typeOf(record.notification) === 'kyc_status')) {
				this.kycListed = true;
				this.kycPending.clear();
			}
			state = await this.startAll(verdict.start, state, (kept, batch, last) => ({
				// The page's cursor with its last batch; before, the batch's last record.
				cursor: last ? verdict.cursor : batch[batch.length - 1].id,
				started: withStarted(
					kept.started,
					batch.map((record) => record.id),
				),
			}));
			await this.markSuccessful(verdict.markSuccessful);
			if (this.stopped) return;
			if (!readOnNow(page.length, this.fullPage)) {
				// More may follow this short page: the next pass reads on from here, soon.
				this.lastShort = page.length;
				this.prompted = true;
				break;
			}
		}
		const now = this.deps.now();
		state = await this.settleKyc(staticData, state, wanted, now);
		if (isDue(this.lookedBackAt, LOOK_BACK_EVERY_MS, now)) {
			this.lookedBackAt = now;
			const recent = await this.read({ order_by: 'desc', per_page: String(PER_PAGE) });
			const missed = missedBehind(recent, state, isOurs, wanted);
			if (missed.length > 0) {
				state = await this.startAll(missed, state, (kept, batch) => ({
					started: withStarted(
						kept.started,
						batch.map((r) => r.id),
					),
				}));
				await this.markSuccessful(missed.filter((record) => record.failed_at));
			}
		}
		if (isDue(this.sweptAt, FAILED_SWEEP_EVERY_MS, now)) {
			this.sweptAt = now;
			await this.sweepFailed(state, isOurs);
		}
		this.watch.readOk(this.deps.now());
	}

	/**
	 * A KYC payload the log does not list (the spec is silent on whether it does): its subject is
	 * read from FacilitaPay, one at most per KYC_READ_GAP_MS, KYC_GRACE_MS after the payload, and its
	 * state (id, status, updated_at) starts the workflow once. Nothing the payload said is used.
	 */
	private async settleKyc(
		staticData: IDataObject,
		state: LogState,
		wanted: (type: string) => boolean,
		now: number,
	): Promise<LogState> {
		if (this.kycListed || now - this.kycReadAt < KYC_READ_GAP_MS) return state;
		const due = [...this.kycPending].find(([, at]) => now - at >= KYC_GRACE_MS);
		if (!due) return state;
		const [subjectId] = due;
		this.kycPending.delete(subjectId);
		this.kycReadAt = now;
		let subject: unknown;
		try {
			subject = await this.deps.request(
				this.ctx,
				{
					method: 'GET',
					path: `/subject/people/${encodeURIComponent(subjectId)}`,
					retry: 'safe',
				},
				this.run,
			);
		} catch {
			// Not a subject of this account (a forgery), or unreadable now: nothing starts.
			return state;
		}
		if (typeof subject !== 'object' || subject === null || !wanted('kyc_status')) return state;
		const identity = kycIdentity(subject as IDataObject);
		if (identity === undefined || state.started.includes(identity)) return state;
		const next = { ...state, started: withStarted(state.started, [identity]) };
		writeLogState(staticData, next);
		this.ctx.emit([
			[{ json: kycItem(subject as IDataObject, clock.now()), pairedItem: { item: 0 } }],
		]);
		return next;
	}

	/**
	 * Starts one execution per record, in the log's order, EMIT_CONCURRENCY at a time (their objects
	 * read first when asked). Before each batch starts, the state that covers it (`keep`: its
	 * records started, the cursor past them) is kept in the static data, which n8n saves at the
	 * batch's first emit: nothing starts twice, and what a crash of n8n right then can lose is at
	 * most the batch not yet started (docs/trigger.md, Limits), not the page. Between two emits
	 * the event loop runs (deps.yieldToLoop). Stops between batches once the reader is stopped: the
	 * rest stays after the kept cursor and starts at the next activation. Returns the state kept.
	 */
	private async startAll(
		records: LogRecord[],
		state: LogState,
		keep: (kept: LogState, batch: LogRecord[], last: boolean) => Partial<LogState>,
	): Promise<LogState> {
		const staticData = this.ctx.getWorkflowStaticData('node');
		let kept = state;
		// At least one pass: a page with nothing to start still keeps its cursor (past others' records).
		for (let at = 0; at === 0 || at < records.length; at += EMIT_CONCURRENCY) {
			if (at > 0 && this.stopped) break;
			const batch = records.slice(at, at + EMIT_CONCURRENCY);
			const attached = this.options.attachObjects
				? await Promise.all(
						batch.map(
							async (record) =>
								await attachObjects(
									this.ctx as unknown as FacilitaPayContext,
									{ ...record.notification, type: typeOf(record.notification) },
									this.run,
								),
						),
					)
				: batch.map(() => ({}));
			if (at > 0) await this.deps.yieldToLoop();
			kept = { ...kept, ...keep(kept, batch, at + EMIT_CONCURRENCY >= records.length) };
			writeLogState(staticData, kept);
			for (const [index, record] of batch.entries()) {
				if (index > 0) await this.deps.yieldToLoop();
				this.emit(record, attached[index]);
			}
		}
		return kept;
	}

	private emit(record: LogRecord, attached: IDataObject): void {
		const item = itemOf(record, attached, clock.now());
		this.ctx.emit([[{ json: item, pairedItem: { item: 0 } }]]);
	}

	private async markSuccessful(records: LogRecord[]): Promise<void> {
		for (const record of records) {
			try {
				await this.deps.request(
					this.ctx,
					{
						method: 'PUT',
						path: `/notifications/${encodeURIComponent(record.id)}`,
						retry: 'safe',
					},
					this.run,
				);
			} catch (error) {
				this.ctx.logger.warn(
					`${LOG}: the notification record ${record.id} started the workflow but could not be marked successful (${(error as Error).message}); FacilitaPay may keep listing it as failed.`,
				);
			}
		}
	}

	/** Marks successful the records that started and that FacilitaPay still lists as failed. */
	private async sweepFailed(state: LogState, ours: UrlMatcher): Promise<void> {
		let lastId: string | undefined;
		for (let page = 0; page < FAILED_SWEEP_PAGES; page++) {
			const qs: IDataObject = { failed: 'true', per_page: String(PER_PAGE) };
			if (lastId) qs.last_id = lastId;
			const records = await this.read(qs);
			if (records.length === 0) return;
			await this.markSuccessful(startedButFailed(records, state, ours));
			const id = (records[records.length - 1] as IDataObject | undefined)?.id;
			if (typeof id !== 'string' || id === '') return;
			lastId = id;
		}
	}
}
