import { at, lookup, outcome, payoutRecord, payoutRequest, subjectList } from './fixtures';

describe('Several records match: the oldest not taken, each claimed once', () => {
	const three = () => [
		payoutRecord({ id: 'tx-a', inserted_at: at(30) }),
		payoutRecord({ id: 'tx-b', inserted_at: at(10) }),
		payoutRecord({ id: 'tx-c', inserted_at: at(20) }),
	];

	it('claims the oldest, then the next, then finds none', async () => {
		const { read } = subjectList(three());
		const taken = new Set<string>();
		const results: string[] = [];
		for (let i = 0; i < 4; i++) results.push(outcome(await lookup(payoutRequest(), read, taken)));
		expect(results).toEqual(['found:tx-b', 'found:tx-c', 'found:tx-a', 'notFound']);
		expect([...taken].sort()).toEqual(['tx-a', 'tx-b', 'tx-c']);
	});

	it('records listed with the same time: the first listed', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-first' }),
			payoutRecord({ id: 'tx-second' }),
		]);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-first');
	});

	it('a record another item took is never claimed, even when it is the only one', async () => {
		const { read } = subjectList([payoutRecord()]);
		expect(await lookup(payoutRequest(), read, new Set(['tx-1']))).toEqual({ notFound: true });
	});

	it('a sure match wins over one that cannot be compared', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-unsure', inserted_at: undefined }),
			payoutRecord({ id: 'tx-sure' }),
		]);
		expect(outcome(await lookup(payoutRequest(), read))).toBe('found:tx-sure');
	});

	it('once the sure one is taken, the unsure one makes it cannotTell, naming it', async () => {
		const { read } = subjectList([
			payoutRecord({ id: 'tx-unsure', inserted_at: undefined }),
			payoutRecord({ id: 'tx-sure' }),
		]);
		const result = await lookup(payoutRequest(), read, new Set(['tx-sure']));
		expect(result).toEqual({
			cannotTell: expect.stringContaining('ID tx-unsure (it shows no creation time)'),
		});
	});

	it('lookups of one run that run at the same time never claim the same record', async () => {
		const { read } = subjectList(three());
		const taken = new Set<string>();
		const results = await Promise.all(
			[0, 1, 2, 3].map(async () => outcome(await lookup(payoutRequest(), read, taken))),
		);
		expect(results.filter((result) => result.startsWith('found:')).sort()).toEqual([
			'found:tx-a',
			'found:tx-b',
			'found:tx-c',
		]);
		expect(results.filter((result) => result === 'notFound')).toHaveLength(1);
	});
});
