import { LOG_START, LogChain } from '../../../nodes/FacilitaPay/waiting';

// What a process knows of an account's notification log, in FacilitaPay's order: a wait resumed in
// a process that read past its cursor gets the records after it without a read; one that did not
// must read (walk answers undefined).
const record = (id: string, type = 'exchange_created', transaction = 'tx-1') => ({
	id,
	inserted_at: '2026-12-06T10:00:00Z',
	notification: { type, transaction_id: transaction },
});

describe('the log chain', () => {
	test('pages read forward are linked; a walk from any record gives the deciding records after it and where they end', () => {
		const chain = new LogChain();
		chain.place('r0');
		chain.link('r0', [record('r1'), record('r2', 'identified'), record('r3')], false, 1);
		chain.link('r3', [record('r4', 'payment_expired', 'tx-2')], true, 2);
		expect(chain.tail).toBe('r4');
		expect(chain.tailReadAt).toBe(2);
		expect(chain.walk('r0')).toEqual({
			records: [record('r2', 'identified'), record('r4', 'payment_expired', 'tx-2')],
			end: 'r4',
		});
		expect(chain.walk('r2')?.records.map((r) => r.id)).toEqual(['r4']);
		expect(chain.walk('r4')).toEqual({ records: [], end: 'r4' });
	});

	test('a position this process never read is unknown: the log must be read from it', () => {
		const chain = new LogChain();
		chain.place('r9');
		expect(chain.walk('r5')).toBeUndefined();
		expect(chain.knows('r9')).toBe(true);
	});

	test('an empty log: the start is the position; the first records are linked after it', () => {
		const chain = new LogChain();
		chain.link(LOG_START, [], true, 1);
		expect(chain.tail).toBe(LOG_START);
		chain.link(LOG_START, [record('a', 'identified')], true, 2);
		expect(chain.walk(LOG_START)?.records.map((r) => r.id)).toEqual(['a']);
	});

	test('a catch-up from an older cursor that reaches the end moves the newest known there; older reads join the chain', () => {
		const chain = new LogChain();
		chain.place('n');
		chain.link('old', [record('x', 'identified'), record('n')], false, 1);
		chain.link('n', [record('m')], true, 2);
		expect(chain.walk('old')?.records.map((r) => r.id)).toEqual(['x']);
		expect(chain.walk('old')?.end).toBe('m');
		expect(chain.tail).toBe('m');
	});
});
