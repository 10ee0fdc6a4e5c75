import type { IDataObject } from 'n8n-workflow';

import { clock } from '../../../nodes/FacilitaPay/clock';
import { onLogPage, resetLogFeed } from '../../../nodes/FacilitaPay/logFeed';
import { accountOf } from '../../../nodes/FacilitaPay/transport';
import type { ReaderDeps } from '../../../nodes/FacilitaPayTrigger/log';
import {
	LogReader,
	realDeps,
	resetProcessState,
	writeLogState,
} from '../../../nodes/FacilitaPayTrigger/log';
import { FakeLog, FakeTime, triggerContext } from './fakeLog';
import { credentials, PRODUCTION_URL, registeredStaticData } from './triggerContext';

// "Deaf is never silent" (log/deaf.ts through the reader): a workflow that hears nothing says so
// in n8n's log and with a failed execution (saveFailedExecution: the error workflow runs, the
// workflow stays active), once; forged deliveries raise at most one notice, saying they may be
// forged, and never delay a true event. Time is FakeTime.

const MINUTE = 60_000;
const identified = (id: string): IDataObject => ({ type: 'identified', transaction_id: id });

function setup(extra: IDataObject = {}) {
	const log = new FakeLog();
	const staticData = registeredStaticData({ registeredAccount: accountOf(credentials), ...extra });
	writeLogState(staticData, { cursor: null, since: '2029-12-31T00:00:00.000Z', started: [] });
	const harness = triggerContext(log, { staticData });
	const time = new FakeTime(realDeps.request);
	const reader = new LogReader(
		harness.ctx,
		{ attachObjects: false, events: ['*'] },
		time as ReaderDeps,
	);
	const notices = () =>
		(harness.ctx.saveFailedExecution as jest.Mock).mock.calls.map(
			([error]) => error as { message: string; description: string },
		);
	const stop = async () => {
		reader.stop();
		await time.advance(3_000, 500);
		await reader.done;
	};
	return { log, reader, time, notices, stop, ...harness };
}

beforeEach(() => {
	resetProcessState();
	jest.spyOn(clock, 'now').mockReturnValue(new Date('2031-03-04T05:06:07.000Z'));
});
afterEach(() => {
	jest.restoreAllMocks();
	resetLogFeed();
});

describe('deliveries the log lists nothing for', () => {
	it('20 over 2 minutes: told within 5 minutes, once, that they may be forged; n8n log too', async () => {
		const { reader, time, notices, logger, stop } = setup();
		reader.start();
		for (let i = 0; i < 20; i++) {
			reader.prompt();
			await time.advance(6_000, 500);
		}
		await time.advance(3 * MINUTE, 500);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/20 notifications arrived .* lists none/);
		expect(notices()[0].description).toMatch(/may be forged/);
		expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/may be forged/), {
			notice: 'unlisted',
		});
		await time.advance(30 * MINUTE, 5_000);
		expect(notices()).toHaveLength(1);
		await stop();
	});

	it('1,000 forged beside true events: no true event waits longer than before (0.5 s), at most one notice', async () => {
		const { log, reader, time, notices, emitted, stop } = setup();
		reader.start();
		await time.advance(1_000);
		for (let burst = 0; burst < 10; burst++) {
			for (let i = 0; i < 100; i++) reader.prompt();
			await time.advance(2 * MINUTE, 1_000);
		}
		expect(notices().length).toBeLessThanOrEqual(1);
		expect(notices()[0]?.description).toMatch(/may be forged/);
		log.add(PRODUCTION_URL, identified('tx-true'));
		for (let i = 0; i < 100; i++) reader.prompt();
		await time.advance(600, 50);
		expect(emitted.map((items) => items[0].transaction_id)).toEqual(['tx-true']);
		// Once a day at most, even when a true event re-arms the watch.
		for (let burst = 0; burst < 5; burst++) {
			for (let i = 0; i < 100; i++) reader.prompt();
			await time.advance(2 * MINUTE, 1_000);
		}
		expect(notices().length).toBeLessThanOrEqual(1);
		await stop();
	});

	it('a true event now and then: the log hears, nothing is told', async () => {
		const { log, reader, time, notices, stop } = setup();
		reader.start();
		for (let i = 0; i < 20; i++) {
			log.add(PRODUCTION_URL, identified(`tx-${i}`));
			reader.prompt();
			reader.prompt();
			await time.advance(30_000, 1_000);
		}
		expect(notices()).toEqual([]);
		await stop();
	});
});

describe("FacilitaPay's log lists the events for another URL", () => {
	it('while deliveries arrive here: told once, from the log (never "forged"), with what to do', async () => {
		const { log, reader, time, notices, emitted, stop } = setup();
		reader.start();
		for (let i = 0; i < 5; i++) {
			log.add('https://n8n.example.com/proxy/webhook/3f1c/webhook', identified(`tx-${i}`));
			reader.prompt();
			await time.advance(5_000, 500);
		}
		expect(emitted).toEqual([]);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(
			/lists 3 notifications sent to https:\/\/n8n\.example\.com under another path .* while 3 notifications arrived here/,
		);
		expect(notices()[0].description).toMatch(/WEBHOOK_URL/);
		expect(notices()[0].description).not.toMatch(/forged/);
		await time.advance(10 * MINUTE, 5_000);
		expect(notices()).toHaveLength(1);
		await stop();
	});

	it('the URL taken by another system, nothing arriving: told that the registered URL is no longer ours', async () => {
		const { log, reader, time, notices, stop } = setup();
		reader.start();
		log.add('https://elsewhere.example.com/hook?token=abc', identified('tx-1'));
		await time.advance(MINUTE, 1_000);
		expect(notices()).toEqual([]);
		await time.advance(1.5 * MINUTE, 1_000);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/sent to https:\/\/elsewhere\.example\.com\/…, not to/);
		expect(notices()[0].message).not.toMatch(/token/);
		expect(notices()[0].description).toMatch(/unpublish and publish/);
		await stop();
	});

	it('records another URL received before this registration are not told (the URL was elsewhere then)', async () => {
		const { log, reader, time, notices, staticData, stop } = setup();
		for (let i = 0; i < 3; i++)
			log.add('https://elsewhere.example.com/hook', identified(`old-${i}`));
		staticData.registeredAfterAt = log.records.at(-1)!.inserted_at;
		reader.start();
		await time.advance(5 * MINUTE, 5_000);
		expect(notices()).toEqual([]);
		log.add('https://elsewhere.example.com/hook', identified('after'));
		await time.advance(3 * MINUTE, 5_000);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/lists 1 notification sent to/);
		await stop();
	});

	it('the URL in a form that means the same: every event starts, nothing told', async () => {
		const { log, reader, time, notices, emitted, stop } = setup();
		reader.start();
		const forms = [
			'HTTPS://N8N.EXAMPLE.COM/webhook/3f1c/webhook',
			'https://n8n.example.com:443/webhook/3f1c/webhook',
			'https://n8n.example.com/webhook/3f1c/webhook/',
			'https://n8n.example.com/%77ebhook/%33f1c/webhook',
		];
		forms.forEach((url, i) => log.add(url, identified(`tx-${i}`)));
		await time.advance(5 * MINUTE, 1_000);
		expect(emitted.map((items) => items[0].transaction_id)).toEqual([
			'tx-0',
			'tx-1',
			'tx-2',
			'tx-3',
		]);
		expect(notices()).toEqual([]);
		await stop();
	});
});

describe('the log cannot be read', () => {
	it('for 10 minutes while 20 payments happen: told within 5 minutes, once; all 20 start once after', async () => {
		const { log, reader, time, notices, emitted, stop } = setup();
		reader.start();
		await time.advance(1_000);
		log.down = new Error('socket hang up');
		for (let i = 0; i < 20; i++) {
			log.add(PRODUCTION_URL, identified(`tx-${i}`));
			reader.prompt();
			await time.advance(30_000, 1_000);
		}
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/could not be read for [345] minutes/);
		expect(notices()[0].description).toMatch(/Nothing is lost/);
		log.down = undefined;
		await time.advance(30_000, 500);
		expect(emitted.map((items) => items[0].transaction_id)).toEqual(
			Array.from({ length: 20 }, (_, i) => `tx-${i}`),
		);
		// The deliveries of those 20 were explained by their records: nothing more is told.
		await time.advance(10 * MINUTE, 5_000);
		expect(notices()).toHaveLength(1);
		await stop();
	});

	it('a short outage (under 3 minutes) is not told', async () => {
		const { log, reader, time, notices, stop } = setup();
		reader.start();
		log.down = new Error('socket hang up');
		await time.advance(2 * MINUTE, 1_000);
		log.down = undefined;
		await time.advance(5 * MINUTE, 5_000);
		expect(notices()).toEqual([]);
		await stop();
	});
});

describe('the credentials reach another account', () => {
	it('told once, from the credentials (no delivery needed)', async () => {
		const { reader, time, notices, stop } = setup({
			registeredAccount: accountOf({ ...credentials, accessToken: 'the-token-of-registration' }),
		});
		reader.start();
		await time.advance(MINUTE, 1_000);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/another user or with another token/);
		expect(notices()[0].description).toMatch(/Unpublish and publish/);
		await stop();
	});

	it('another service (sandbox to production): named by its origin', async () => {
		const { reader, time, notices, stop } = setup({
			registeredAccount: accountOf({
				...credentials,
				baseUrl: 'https://api.facilitapay.com/api/v1',
			}),
		});
		reader.start();
		await time.advance(10_000, 1_000);
		expect(notices()[0].message).toMatch(
			/another FacilitaPay service \(https:\/\/sandbox\.test\) than .* \(https:\/\/api\.facilitapay\.com\)/,
		);
		await stop();
	});
});

/** Makes the harness's n8n answer each read of the credentials with what `current()` is then. */
function credentialsRead(ctx: { getCredentials: unknown }, current: () => IDataObject): jest.Mock {
	const read = jest.fn(async () => current());
	ctx.getCredentials = read;
	return read;
}

describe('credentials edited while the workflow is published', () => {
	it('told within a minute, once; the reader reads on with the credentials it started with', async () => {
		const { log, reader, time, notices, emitted, ctx, stop } = setup();
		const pages: string[] = [];
		onLogPage((account) => pages.push(account));
		let now: IDataObject = credentials;
		credentialsRead(ctx, () => now);
		reader.start();
		await time.advance(10_000, 500);
		expect(notices()).toEqual([]);
		now = { ...credentials, accessToken: 'a-token-of-another-user' };
		await time.advance(MINUTE + 3_000, 500);
		expect(notices()).toHaveLength(1);
		expect(notices()[0].message).toMatch(/another user or with another token/);
		// Its requests still reach the registered account, whose log lists the events.
		log.add(PRODUCTION_URL, identified('tx-after-the-edit'));
		reader.prompt();
		await time.advance(1_000, 100);
		expect(emitted.map((items) => items[0].transaction_id)).toEqual(['tx-after-the-edit']);
		await time.advance(5 * MINUTE, 5_000);
		expect(notices()).toHaveLength(1);
		// The pages it offers in the process are keyed by the account they were read from.
		expect(new Set(pages)).toEqual(new Set([accountOf(credentials)]));
		await stop();
	});
});

describe("n8n's credentials, read outside an execution (n8n 2.x builds an expression isolate per read)", () => {
	it('are read once a minute, not at every pass: a 60 s burst of deliveries (120 passes) reads them at most 3 times', async () => {
		const { log, reader, time, ctx, stop } = setup();
		const read = credentialsRead(ctx, () => credentials);
		reader.start();
		for (let tick = 0; tick < 600; tick++) {
			log.add(PRODUCTION_URL, identified(`tx-${tick}`));
			reader.prompt();
			await time.advance(100, 100);
		}
		const passes = log
			.lines()
			.filter((line) => line.includes('last_id') && !line.includes('desc')).length;
		expect(passes).toBeGreaterThanOrEqual(100);
		// The reader's run (its requests) once, then the account check at 0 s and at 60 s.
		expect(read.mock.calls.length).toBeLessThanOrEqual(3);
		await time.advance(5 * MINUTE, 1_000);
		expect(read.mock.calls.length).toBeLessThanOrEqual(3 + 5);
		await stop();
	});
});
