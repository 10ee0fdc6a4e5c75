import { SentMemory } from '../../../nodes/FacilitaPay/transport/sentMemory';

describe('SentMemory (the memory behind Retry On Fail): bounded by time and bytes', () => {
	it('keeps every entry for its hour, however many there are, and forgets it after', () => {
		let now = 0;
		const memory = new SentMemory(1024, 1000, () => now);
		for (let i = 0; i < 50_000; i++)
			memory.set(`k${i}`, { state: 'done', answer: { id: `p${i}` } });
		expect(memory.size).toBe(50_000);
		expect(memory.get('k0')?.state).toBe('done');
		now = 1001;
		expect(memory.get('k0')).toBeUndefined();
		memory.set('fresh', { state: 'sending' });
		expect(memory.size).toBe(1);
	});

	it('past its byte budget, keeps only the record ID of an answer instead of forgetting the payout', () => {
		const memory = new SentMemory(100, 60_000, () => 0);
		memory.set('small', { state: 'done', answer: { id: 'a' } });
		memory.set('big', { state: 'done', answer: { id: 'b', text: 'x'.repeat(500) } });
		expect(memory.get('small')).toEqual({ state: 'done', answer: { id: 'a' } });
		expect(memory.get('big')).toEqual({ state: 'done', recordId: 'b' });
		expect(memory.bytes).toBeLessThan(100 + 2 * 200 + 1);
	});

	it('50,000 remembered payouts take about 10 MB', () => {
		const memory = new SentMemory(0, 60_000, () => 0);
		for (let i = 0; i < 50_000; i++)
			memory.set(`exec\u0000node\u00000\u0000${i}\u0000POST /transactions`, {
				state: 'done',
				answer: { data: { id: `0b5e7c2a-1f3d-4a8e-9c61-${String(i).padStart(12, '0')}` } },
			});
		expect(memory.size).toBe(50_000);
		expect(memory.bytes).toBeLessThanOrEqual(10_000_000);
	});
});
