import {
	AFTER_FAILURE_MS,
	IDLE_POLL_MS,
	learntFullPage,
	nextReadAt,
	PROMPT_GAP_MS,
	readOnNow,
} from '../../../nodes/FacilitaPayTrigger/log';

// When the reader reads the log (nodes/FacilitaPayTrigger/log/pace.ts): pure rules, by table.

describe('the next read', () => {
	it.each<[string, boolean, boolean, number]>([
		['idle', false, false, IDLE_POLL_MS],
		['prompted by a delivery', true, false, PROMPT_GAP_MS],
		['after a failed read, prompted or not', true, true, AFTER_FAILURE_MS],
	])('%s: %i ms after the last read started', (_name, prompted, failed, gap) => {
		expect(nextReadAt(10_000, prompted, failed)).toBe(10_000 + gap);
	});

	it('prompts never bring reads closer than 0.5 s: at most 2 reads of the log a second', () => {
		expect(1000 / PROMPT_GAP_MS).toBeLessThanOrEqual(2);
	});
});

describe('short pages', () => {
	it.each<[number, number, boolean]>([
		[100, 100, true],
		[99, 100, false],
		[0, 100, false],
		[20, 20, true],
		[7, 20, false],
	])('a page of %i records with full pages of %i: read on now: %s', (length, full, now) => {
		expect(readOnNow(length, full)).toBe(now);
	});

	it.each<[number, number | undefined, number, number]>([
		[100, undefined, 100, 100],
		[100, 20, 20, 20],
		[100, 20, 7, 100],
		[100, 3, 3, 100],
		[20, 20, 20, 20],
	])(
		'full %i, last short page %s, first page now %i: full pages of %i',
		(full, short, first, next) => {
			expect(learntFullPage(full, short, first)).toBe(next);
		},
	);
});
