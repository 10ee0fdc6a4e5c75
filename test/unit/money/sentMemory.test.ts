import { SentMemory } from '../../../nodes/FacilitaPay/money';

describe("This process's memory of money requests: a fast path bounded by bytes", () => {
	it('keeps an answer to replay until the answers budget is spent, then only the record ID', () => {
		const memory = new SentMemory(1_000);
		memory.set('a', { state: 'done', answer: { data: { id: 'tx-1', note: 'x'.repeat(400) } } });
		memory.set('b', { state: 'done', answer: { data: { id: 'tx-2', note: 'y'.repeat(800) } } });
		expect(memory.get('a')).toMatchObject({ answer: { data: { id: 'tx-1' } } });
		expect(memory.get('b')).toEqual({ state: 'done', recordId: 'tx-2' });
	});

	it('an unknown outcome is a flag: the error page is not kept', () => {
		const memory = new SentMemory();
		memory.set('a', { state: 'unknown' });
		expect(memory.get('a')).toEqual({ state: 'unknown' });
		expect(memory.bytes).toBeLessThan(300);
	});

	it('past its entries budget it forgets the oldest answered entries, never one being sent', () => {
		const memory = new SentMemory(64 * 1024 * 1024, 2_000);
		memory.set('sending', { state: 'sending' });
		for (let i = 0; i < 20; i++) memory.set(`done-${i}`, { state: 'done', recordId: `tx-${i}` });
		expect(memory.get('sending')).toEqual({ state: 'sending' });
		expect(memory.get('done-0')).toBeUndefined();
		expect(memory.get('done-19')).toEqual({ state: 'done', recordId: 'tx-19' });
		expect(memory.bytes).toBeLessThanOrEqual(2_000);
	});
});
