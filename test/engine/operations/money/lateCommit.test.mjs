// Issue 39, "Paid twice, silently", on n8n's engine: FacilitaPay's gateway answers 504 at once and
// FacilitaPay writes the payout seconds later. "Not found" proves "not sent" only once FacilitaPay's
// own clock (the Date of its answers) shows the settle window passed since that try; a record
// written after the try (another item's) proves nothing. The scripted FacilitaPay dates its answers
// by real time, moved by `op.service.advanceClock`.
import { resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { CREATE, doneAndIds, facilitaPay, payout, retry } from './lib.mjs';

const op = useOperations();

/** Two payouts sent side by side (Max Parallel Requests 2). */
const pair = (extra = {}) =>
	['1.00', '2.00'].map((value) => payout(value, { requestOptions: { concurrency: 2 }, ...extra }));

/**
 * A subject with an earlier payout from this process (so both payouts of the pair leave at once),
 * then the pair: 1.00 is answered 504 after 2.00 was answered, and written 3 s after it arrived.
 */
async function lateCommitOfFirst(extra = {}) {
	const service = facilitaPay({
		decide: (transaction, attempt) => (attempt > 1 && transaction.value === '1.00' ? 'late' : 'ok'),
		lateAnswerMs: 200,
		lateCommitMs: 3000,
	});
	const engine = await op.engine();
	const earlier = await op.run({ engine, parameters: [payout('9.00')], replies: service.replies });
	expect(earlier.error).toBeUndefined();
	const run = await op.run({ engine, parameters: pair(), replies: service.replies, ...extra });
	return { service, engine, run };
}

const ones = (service) => service.records.filter((record) => record.value === '1.00');

describe('Paid twice, silently (issue 39): a payout FacilitaPay writes after its gateway answered 504', () => {
	it("Retry On Fail (n8n's default 1 s wait): the 504 item is Outcome unknown, never sent again; FacilitaPay writes it once", async () => {
		const { service, run } = await lateCommitOfFirst({
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1000,
		});
		await service.lateWritten();
		// One payout of 1.00 was asked for, one exists, one request sent.
		expect(service.sent().filter((value) => value === '1.00')).toHaveLength(1);
		expect(ones(service)).toHaveLength(1);
		expect(run.error.message).toMatch(
			/^Outcome unknown \(item 0\): Its earlier try \(at .* UTC\) has no known outcome/,
		);
		expect(run.error.message).toMatch(/FacilitaPay may still be writing it/);
		expect(run.error.message).toMatch(
			/Retry after .* UTC \(10 minutes after that try, by FacilitaPay's clock\)/,
		);
	}, 30_000);

	it("the Retry button 2 s later, n8n restarted: Outcome unknown, nothing sent; 11 minutes later (FacilitaPay's clock) the retry finds the payout", async () => {
		const { service, engine, run } = await lateCommitOfFirst();
		expect(run.error.message).toMatch(/^Outcome unknown \(item 0\)/);
		resetNodeMemory();
		const soon = await retry(op, run, pair(), service, { engine });
		expect(soon.error.message).toMatch(
			/^Outcome unknown \(item 0\): Its earlier try .* only \d+ s later by FacilitaPay's clock/,
		);
		expect(soon.requests.filter((request) => request.route === CREATE)).toHaveLength(0);
		await service.lateWritten();
		op.service.advanceClock(11 * 60_000);
		const later = await retry(op, soon, pair(), service, { engine });
		expect(later.error).toBeUndefined();
		expect(doneAndIds(later.items).map(([done]) => done)).toEqual([true, true]);
		expect(later.items[0].json.value).toBe('1.00');
		expect(ones(service)).toHaveLength(1);
		expect(service.sent().filter((value) => value === '1.00')).toHaveLength(1);
	}, 30_000);

	it('a payout FacilitaPay never wrote (connection reset before it): sent once, by the retry after the settle window', async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) => (attempt === 2 ? 'lost' : 'ok'),
		});
		const engine = await op.engine();
		await op.run({ engine, parameters: [payout('9.00')], replies: service.replies });
		const failed = await op.run({ engine, parameters: pair(), replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown/);
		resetNodeMemory();
		op.service.advanceClock(11 * 60_000);
		const retried = await retry(op, failed, pair(), service, { engine });
		expect(retried.error).toBeUndefined();
		expect(service.records.map((record) => record.value).sort()).toEqual(['1.00', '2.00', '9.00']);
	});

	it('items the failed run never sent are sent by a retry at once (only the item of unknown outcome waits)', async () => {
		const service = facilitaPay({
			decide: (transaction, attempt) => (attempt === 3 ? 'late' : 'ok'),
			lateCommitMs: 200,
		});
		const values = ['1.00', '2.00', '3.00', '4.00'];
		const parameters = values.map((value) => payout(value));
		const failed = await op.run({ parameters, replies: service.replies });
		expect(failed.error.message).toMatch(/^Outcome unknown \(item 2\)/);
		await service.lateWritten();
		const retried = await retry(op, failed, parameters, service);
		// Item 2 was written late: found. Item 3 was never sent: sent now.
		expect(service.sent()).toEqual(['1.00', '2.00', '3.00', '4.00']);
		expect(retried.items.map((item) => item.json.alreadyDone ?? false)).toEqual([
			true,
			true,
			true,
			false,
		]);
	});
});
