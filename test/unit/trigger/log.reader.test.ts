import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { clock } from '../../../nodes/FacilitaPay/clock';
import type { ReaderDeps } from '../../../nodes/FacilitaPayTrigger/log';
import {
	LogReader,
	processState,
	readLogState,
	realDeps,
	resetProcessState,
	writeLogState,
} from '../../../nodes/FacilitaPayTrigger/log';
import { FakeLog, FakeTime, triggerContext } from './fakeLog';
import { PRODUCTION_URL, registeredStaticData } from './triggerContext';

// The reader of FacilitaPay's notification log (nodes/FacilitaPayTrigger/log): what starts the
// workflow, how often the log is read, and what is marked successful. Time is FakeTime; requests
// go through the node's transport to FakeLog.

const OTHER_URL = 'https://other.example.com/hook';
const OLD_URL = 'https://n8n.example.com/webhook/old/webhook';
const FIXED = new Date('2031-03-04T05:06:07.000Z');

const identified = (id: string, secret = '3718'): IDataObject => ({
	type: 'identified',
	transaction_id: id,
	secret,
});

/** The static data of a published trigger whose cursor is `cursor`. */
function published(
	cursor: string | null,
	extra: IDataObject = {},
	since = '2029-12-31T00:00:00.000Z',
): IDataObject {
	const staticData = registeredStaticData(extra);
	writeLogState(staticData, { cursor, since, started: [] });
	return staticData;
}

function reader(
	log: FakeLog,
	options: {
		staticData?: IDataObject;
		parameters?: IDataObject;
		typeVersion?: number;
		instanceId?: string;
	} = {},
) {
	const harness = triggerContext(log, options);
	const time = new FakeTime(realDeps.request);
	const options_ = (harness.ctx.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const instance = new LogReader(
		harness.ctx,
		{
			attachObjects: options_.attachObjects === true,
			events: harness.ctx.getNodeParameter('events', []),
		},
		time as ReaderDeps,
	);
	return { ...harness, time, reader: instance };
}

const transactionIds = (emitted: IDataObject[][]) =>
	emitted.map((items) => items[0].transaction_id);

beforeEach(() => {
	resetProcessState();
	jest.spyOn(clock, 'now').mockReturnValue(FIXED);
});
afterEach(() => jest.restoreAllMocks());

describe('one event = one record', () => {
	it('starts one execution per record sent to this workflow after the cursor, from the record, without the secret', async () => {
		const log = new FakeLog();
		const before = log.add(PRODUCTION_URL, identified('tx-before'));
		const first = log.add(PRODUCTION_URL, identified('tx-1'));
		log.add(OTHER_URL, identified('tx-stranger'));
		log.add(PRODUCTION_URL, identified('tx-2', 'an-older-secret'));
		// Registered (cursor and since) after `before` was written.
		const since = new Date(Date.parse(before.inserted_at) + 500).toISOString();
		const {
			reader: r,
			emitted,
			staticData,
		} = reader(log, {
			staticData: published(before.id, {}, since),
		});
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-1', 'tx-2']);
		expect(emitted[0]).toEqual([
			{
				type: 'identified',
				transaction_id: 'tx-1',
				verified: true,
				verification: {
					summary: "Listed in FacilitaPay's notification log for this workflow's URL.",
					source: 'notificationLog',
				},
				notificationRecord: {
					id: first.id,
					inserted_at: first.inserted_at,
					sent_at: first.sent_at,
					failed_at: null,
				},
				receivedAt: FIXED.toISOString(),
			},
		]);
		expect(JSON.stringify(emitted)).not.toContain('3718');
		expect(readLogState(staticData)).toMatchObject({
			cursor: log.records.at(-1)!.id,
			started: [first.id, log.records.at(-1)!.id],
		});
	});

	it("emits a page's records one event-loop turn apart, in the log's order, 8 at a time, each batch kept (cursor past it, started) before it starts", async () => {
		// n8n saves the whole static data at each emit while it is marked changed, and clears the
		// mark once the write lands: emits in one go would each write it again (reader.ts
		// yieldToLoop). The state is kept per batch: a crash of n8n loses at most a batch, not a page.
		const log = new FakeLog();
		const ids = Array.from({ length: 10 }, (_, n) => `tx-${n + 1}`);
		for (const id of ids) log.add(PRODUCTION_URL, identified(id));
		log.add(OTHER_URL, identified('tx-stranger'));
		const {
			reader: r,
			emitted,
			staticData,
			time,
			ctx,
		} = reader(log, {
			staticData: published(null),
		});
		const emittedAtEachTurn: number[] = [];
		const keptAtEachEmit: Array<{ cursor: unknown; started: number }> = [];
		time.yieldToLoop = async () => {
			emittedAtEachTurn.push(emitted.length);
			await Promise.resolve();
		};
		jest.mocked(ctx.emit).mockImplementation((data: INodeExecutionData[][]) => {
			const kept = readLogState(staticData);
			keptAtEachEmit.push({ cursor: kept?.cursor, started: kept?.started.length ?? 0 });
			emitted.push(data[0].map((item) => item.json));
		});
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(ids);
		expect(emittedAtEachTurn).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		const eighth = log.records[7].id;
		const pageEnd = log.records.at(-1)!.id; // the stranger's record, past the last of ours
		expect(keptAtEachEmit).toEqual([
			...Array(8).fill({ cursor: eighth, started: 8 }),
			...Array(2).fill({ cursor: pageEnd, started: 10 }),
		]);
		expect(readLogState(staticData)).toMatchObject({ cursor: pageEnd });
	});

	it('a replay, a redelivery or a restart (a new reader on the same static data) starts nothing again', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		log.add(PRODUCTION_URL, identified('tx-1'));
		const one = reader(log, { staticData });
		await one.reader.cycle();
		await one.reader.cycle();
		const restarted = reader(log, { staticData });
		await restarted.reader.cycle();
		log.add(PRODUCTION_URL, identified('tx-1'));
		await restarted.reader.cycle();
		expect(transactionIds(one.emitted)).toEqual(['tx-1']);
		// The same payload written again by FacilitaPay is a new record: a new event (a re-approval).
		expect(transactionIds(restarted.emitted)).toEqual(['tx-1']);
		expect(readLogState(staticData)?.started).toHaveLength(2);
	});

	it('records sent to an earlier URL of this workflow count; a test URL never does', async () => {
		const log = new FakeLog();
		log.add(OLD_URL, identified('tx-old-url'));
		log.add('https://n8n.example.com/webhook-test/3f1c/webhook', identified('tx-test'));
		const { reader: r, emitted } = reader(log, {
			staticData: published(null, {
				ownUrls: [PRODUCTION_URL, OLD_URL, 'https://n8n.example.com/webhook-test/3f1c/webhook'],
			}),
		});
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-old-url']);
	});

	it("records sent to another n8n instance's URLs start nothing here (a workflow imported with that instance's static data)", async () => {
		const log = new FakeLog();
		log.add(PRODUCTION_URL, identified('tx-of-instance-a'));
		const imported = published(null, { ownUrls: [PRODUCTION_URL], ownUrlsInstance: 'instance-a' });
		const elsewhere = reader(log, { staticData: imported, instanceId: 'instance-b' });
		await elsewhere.reader.cycle();
		expect(elsewhere.emitted).toEqual([]);
		const home = reader(log, { staticData: imported, instanceId: 'instance-a' });
		await home.reader.cycle();
		expect(transactionIds(home.emitted)).toEqual(['tx-of-instance-a']);
	});

	it('events not chosen start nothing but are settled (the cursor passes them, failed ones are marked)', async () => {
		const log = new FakeLog();
		log.add(PRODUCTION_URL, { type: 'payment_failed', transaction_id: 'tx-f' }, { failed: true });
		log.add(PRODUCTION_URL, identified('tx-1'));
		const { reader: r, emitted } = reader(log, {
			staticData: published(null),
			parameters: { events: ['identified'] },
		});
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-1']);
		expect(log.failedIds()).toEqual([]);
	});
});

describe('where the spec is silent', () => {
	it('pages shorter than asked are not the end: the next pass reads on with last_id until a page comes back empty', async () => {
		const log = new FakeLog();
		log.pageCap = 3;
		for (let n = 1; n <= 7; n++) log.add(PRODUCTION_URL, identified(`tx-${n}`));
		const { reader: r, emitted } = reader(log, { staticData: published(null) });
		for (let pass = 0; pass < 4; pass++) await r.cycle();
		expect(transactionIds(emitted)).toEqual([
			'tx-1',
			'tx-2',
			'tx-3',
			'tx-4',
			'tx-5',
			'tx-6',
			'tx-7',
		]);
		const reads = log
			.lines()
			.filter((line) => /^GET \/notifications\?(last_id=[^&]+&)?per_page=100$/.test(line));
		expect(reads).toEqual([
			'GET /notifications?per_page=100',
			'GET /notifications?last_id=rec-0003&per_page=100',
			'GET /notifications?last_id=rec-0006&per_page=100',
			'GET /notifications?last_id=rec-0007&per_page=100',
		]);
	});

	it('a cap the service keeps (20 a page) is learnt: then the pages are read on within one pass', async () => {
		const log = new FakeLog();
		log.pageCap = 20;
		for (let n = 1; n <= 70; n++) log.add(PRODUCTION_URL, identified(`tx-${n}`));
		const { reader: r, emitted } = reader(log, { staticData: published(null) });
		await r.cycle();
		expect(emitted).toHaveLength(20);
		await r.cycle();
		expect(emitted).toHaveLength(70);
		expect(new Set(transactionIds(emitted)).size).toBe(70);
	});

	it('one read per pass when a delivery brings one record (no empty read after every short page)', async () => {
		const log = new FakeLog();
		const { reader: r, emitted } = reader(log, { staticData: published(null) });
		await r.cycle();
		const before = log.requests.length;
		log.add(PRODUCTION_URL, identified('tx-1'));
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-1']);
		expect(log.lines().slice(before)).toEqual(['GET /notifications?per_page=100']);
	});

	it('a record written after its first delivery starts when the log lists it (the next read after the cursor)', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		log.add(PRODUCTION_URL, identified('tx-1'));
		const { reader: r, emitted } = reader(log, { staticData });
		await r.cycle();
		// The delivery of tx-2 arrived (a prompt) before FacilitaPay wrote its record: nothing yet.
		await r.cycle();
		log.add(PRODUCTION_URL, identified('tx-2'));
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-1', 'tx-2']);
	});

	it('a record listed behind the cursor (the log wrote it out of order) is found by the look back, once', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		const a = log.add(PRODUCTION_URL, identified('tx-a'));
		const { reader: r, emitted, time } = reader(log, { staticData });
		await r.cycle();
		// FacilitaPay lists a record before the cursor, after the trigger read past that place.
		const late = log.add(PRODUCTION_URL, identified('tx-late'));
		log.records = [late, a];
		time.at += 30_000;
		await r.cycle();
		time.at += 30_000;
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-a', 'tx-late']);
	});

	it('records without the secret start the same way (the record is the proof, not the secret)', async () => {
		const log = new FakeLog();
		log.add(PRODUCTION_URL, { type: 'identified', transaction_id: 'tx-no-secret' });
		const { reader: r, emitted } = reader(log, { staticData: published(null) });
		await r.cycle();
		expect(emitted[0][0]).toMatchObject({ transaction_id: 'tx-no-secret', verified: true });
	});

	it('a KYC status payload the log lists starts from the record as kyc_status', async () => {
		const log = new FakeLog();
		const subject = { id: 'subj-1', status: 'approved', updated_at: '2030-01-01T00:00:00' };
		log.add(PRODUCTION_URL, { data: subject });
		const { reader: r, emitted } = reader(log, { staticData: published(null) });
		await r.cycle();
		expect(emitted[0][0]).toMatchObject({
			type: 'kyc_status',
			subject_id: 'subj-1',
			status: 'approved',
			data: subject,
			verified: true,
		});
	});
});

describe('catch-up and the failed list', () => {
	it('records FacilitaPay gave up on while n8n was down start once and are marked successful', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		for (let n = 1; n <= 20; n++) log.add(PRODUCTION_URL, identified(`tx-${n}`), { failed: true });
		log.add(OTHER_URL, identified('tx-theirs'), { failed: true });
		const { reader: r, emitted } = reader(log, { staticData });
		await r.cycle();
		expect(emitted).toHaveLength(20);
		// Only this workflow's records are marked: another system's failure stays its own.
		expect(log.failedIds()).toEqual([log.records.at(-1)!.id]);
		expect(log.lines().filter((line) => line.startsWith('PUT'))).toHaveLength(20);
	});

	it('a record that started and failed afterwards (FacilitaPay still redelivering) is marked by the sweep', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		const record = log.add(PRODUCTION_URL, identified('tx-1'));
		const { reader: r, emitted, time } = reader(log, { staticData });
		await r.cycle();
		record.failed_at = '2030-01-01T00:10:00';
		time.at += 60_000;
		await r.cycle();
		expect(emitted).toHaveLength(1);
		expect(log.failedIds()).toEqual([]);
		expect(log.lines()).toContain(`PUT /notifications/${record.id}`);
	});

	it('a trigger with no cursor yet (saved by version 1.1) starts at the newest record, not at the start of the log', async () => {
		const log = new FakeLog();
		log.add(PRODUCTION_URL, identified('tx-history'));
		const staticData = registeredStaticData();
		const { reader: r, emitted } = reader(log, { staticData });
		await r.cycle();
		log.add(PRODUCTION_URL, identified('tx-new'));
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-new']);
		expect(log.lines()[0]).toBe('GET /notifications?order_by=desc&per_page=1');
	});

	it('a log that cannot be read starts nothing and is read again; nothing is lost', async () => {
		const log = new FakeLog();
		const staticData = published(null);
		log.add(PRODUCTION_URL, identified('tx-1'));
		log.down = new Error('socket hang up');
		const { reader: r, emitted, logger, time } = reader(log, { staticData });
		r.start();
		await time.advance(1_000);
		expect(emitted).toHaveLength(0);
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/could not be read/));
		log.down = undefined;
		await time.advance(6_000);
		r.stop();
		await time.advance(3_000);
		await r.done;
		expect(transactionIds(emitted)).toEqual(['tx-1']);
	});
});

describe('pace: deliveries prompt, the log is read at most twice a second', () => {
	it('idle: one read of the log every 2 s', async () => {
		const log = new FakeLog();
		const { reader: r, time } = reader(log, { staticData: published(null) });
		r.start();
		await time.advance(10_000);
		r.stop();
		await time.advance(2_000);
		await r.done;
		const reads = log
			.lines()
			.filter((line) => line.includes('last_id') || line === 'GET /notifications?per_page=100');
		expect(reads.length).toBeGreaterThanOrEqual(5);
		expect(reads.length).toBeLessThanOrEqual(6);
	});

	it('a flood of 100 prompts a second for 10 s costs at most 2 reads of the log a second (10 % of 20 reads/s)', async () => {
		const log = new FakeLog();
		const { reader: r, time } = reader(log, { staticData: published(null) });
		r.start();
		for (let tick = 0; tick < 1_000; tick++) {
			r.prompt();
			await time.advance(10, 10);
		}
		r.stop();
		await time.advance(2_000);
		await r.done;
		const afterCursor = log
			.lines()
			.filter(
				(line) =>
					line.endsWith('per_page=100') && !line.includes('desc') && !line.includes('failed'),
			);
		expect(afterCursor.length).toBeLessThanOrEqual(21);
		expect(afterCursor.length).toBeGreaterThanOrEqual(15);
		// Every read of the log in those 10 s, look-backs and the failed sweep included.
		expect(log.requests.length / 10).toBeLessThanOrEqual(2.3);
	});

	it('a prompt wakes an idle reader early: a delivery is read within 0.5 s, not 2 s', async () => {
		const log = new FakeLog();
		const { reader: r, time, emitted } = reader(log, { staticData: published(null) });
		r.start();
		await time.advance(600);
		log.add(PRODUCTION_URL, identified('tx-1'));
		r.prompt();
		await time.advance(100);
		expect(transactionIds(emitted)).toEqual(['tx-1']);
		r.stop();
		await time.advance(2_000);
		await r.done;
	});
});

describe('a KYC status payload the log does not list (the spec is silent)', () => {
	/** A log whose API also answers GET /subject/people/:id from `subjects`. */
	function withSubjects(log: FakeLog, subjects: Record<string, IDataObject>) {
		const original = log.answer.bind(log);
		log.answer = (request) => {
			const match = /\/subject\/people\/([^/]+)$/.exec(String(request.url));
			if (!match) return original(request);
			log.requests.push(request);
			const subject = subjects[decodeURIComponent(match[1])];
			return subject
				? { statusCode: 200, body: { data: subject }, headers: {} }
				: { statusCode: 404, body: { errors: { id: ['not found'] } }, headers: {} };
		};
	}

	it("starts once per state FacilitaPay shows (id, status, updated_at), from FacilitaPay's subject, never from the payload", async () => {
		const log = new FakeLog();
		const subjects: Record<string, IDataObject> = {
			'subj-1': {
				id: 'subj-1',
				status: 'approved',
				updated_at: '2030-01-01T00:00:00',
				social_name: 'Ana',
			},
		};
		withSubjects(log, subjects);
		const { reader: r, emitted, time } = reader(log, { staticData: published(null) });
		r.promptKyc('subj-1');
		await r.cycle();
		expect(emitted).toHaveLength(0); // the record may still come: a grace period first
		time.at += 5_000;
		await r.cycle();
		// The same state again (ten payloads differing in what they claim): nothing more.
		for (let n = 0; n < 10; n++) r.promptKyc('subj-1');
		time.at += 10_000;
		await r.cycle();
		subjects['subj-1'] = {
			...subjects['subj-1'],
			status: 'reproved',
			updated_at: '2030-01-02T00:00:00',
		};
		r.promptKyc('subj-1');
		time.at += 10_000;
		await r.cycle();
		expect(emitted.map((items) => items[0])).toEqual([
			expect.objectContaining({
				type: 'kyc_status',
				subject_id: 'subj-1',
				status: 'approved',
				data: expect.objectContaining({ social_name: 'Ana' }),
				verified: true,
				verification: expect.objectContaining({ source: 'subjectRead' }),
			}),
			expect.objectContaining({ status: 'reproved', verified: true }),
		]);
	});

	it('a forged payload naming no subject of the account starts nothing; a flood of them costs at most 1 read per 5 s', async () => {
		const log = new FakeLog();
		withSubjects(log, {});
		const { reader: r, emitted, time } = reader(log, { staticData: published(null) });
		for (let n = 0; n < 100; n++) r.promptKyc(`nobody-${n}`);
		for (let second = 0; second < 30; second++) {
			time.at += 1_000;
			await r.cycle();
		}
		expect(emitted).toEqual([]);
		const subjectReads = log.lines().filter((line) => line.includes('/subject/people/'));
		expect(subjectReads.length).toBeLessThanOrEqual(6);
	});

	it('with 100 subjects waiting (a flood of forged payloads), another payload is not taken (its delivery is answered to be sent again); one already waiting is', async () => {
		const log = new FakeLog();
		withSubjects(log, {});
		const { reader: r } = reader(log, { staticData: published(null) });
		for (let n = 0; n < 100; n++) expect(r.promptKyc(`nobody-${n}`)).toBe(true);
		expect(r.promptKyc('subj-true')).toBe(false);
		expect(r.promptKyc('nobody-7')).toBe(true);
	});

	it('once the log lists a KYC payload, the log settles them: no subject is read', async () => {
		const log = new FakeLog();
		withSubjects(log, { 'subj-2': { id: 'subj-2', status: 'approved', updated_at: 'x' } });
		const { reader: r, emitted, time } = reader(log, { staticData: published(null) });
		r.promptKyc('subj-2');
		log.add(PRODUCTION_URL, { data: { id: 'subj-2', status: 'approved' } });
		await r.cycle();
		time.at += 10_000;
		r.promptKyc('subj-2');
		await r.cycle();
		expect(emitted).toHaveLength(1);
		expect(emitted[0][0]).toMatchObject({
			type: 'kyc_status',
			notificationRecord: expect.any(Object),
		});
		expect(log.lines().filter((line) => line.includes('/subject/people/'))).toEqual([]);
	});
});

describe('Attach Current Objects', () => {
	it('reads the transaction the record names and adds it; without the option nothing is read', async () => {
		const log = new FakeLog();
		log.add(PRODUCTION_URL, identified('tx-1'));
		const transaction = { id: 'tx-1', status: 'identified', value: '10.00' };
		const original = log.answer.bind(log);
		log.answer = (request) => {
			if (String(request.url).endsWith('/transactions/tx-1')) {
				log.requests.push(request);
				return { statusCode: 200, body: { data: transaction }, headers: {} };
			}
			return original(request);
		};
		const on = reader(log, {
			staticData: published(null),
			parameters: { options: { attachObjects: true } },
		});
		await on.reader.cycle();
		expect(on.emitted[0][0]).toMatchObject({ transaction_id: 'tx-1', transaction, verified: true });
		const off = reader(log, { staticData: published(null) });
		const before = log.requests.length;
		await off.reader.cycle();
		expect(off.emitted[0][0]).not.toHaveProperty('transaction');
		expect(
			log
				.lines()
				.slice(before)
				.filter((line) => line.includes('/transactions/')),
		).toEqual([]);
	});
});

describe('order', () => {
	it("with Attach Current Objects, executions start in the log's order even when a later record's reads come back first", async () => {
		const log = new FakeLog();
		for (const id of ['tx-slow', 'tx-2', 'tx-3']) log.add(PRODUCTION_URL, identified(id));
		const original = log.answer.bind(log);
		log.answer = (request) => {
			const match = /\/transactions\/([^/]+)$/.exec(String(request.url));
			if (!match) return original(request);
			const answer = { statusCode: 200, body: { data: { id: match[1] } }, headers: {} };
			if (match[1] !== 'tx-slow') return answer;
			return (async () => {
				for (let i = 0; i < 50; i++) await Promise.resolve();
				return answer;
			})();
		};
		const { reader: r, emitted } = reader(log, {
			staticData: published(null),
			parameters: { options: { attachObjects: true } },
		});
		await r.cycle();
		expect(transactionIds(emitted)).toEqual(['tx-slow', 'tx-2', 'tx-3']);
		expect(emitted.map((items) => (items[0].transaction as IDataObject).id)).toEqual([
			'tx-slow',
			'tx-2',
			'tx-3',
		]);
	});
});

describe('process memory', () => {
	it('is one object with one reset: readers stop and test deliveries are forgotten', () => {
		const stop = jest.fn();
		processState.readers.set('w:n', { prompt: jest.fn(), stop });
		processState.tests.set('w:n', { url: 'u', notification: {}, at: 0 });
		resetProcessState();
		expect(stop).toHaveBeenCalled();
		expect(processState.readers.size).toBe(0);
		expect(processState.tests.size).toBe(0);
	});
});
