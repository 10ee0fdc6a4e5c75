import { Ledger } from '../../../nodes/FacilitaPay/money';
import { ProcessedStore } from '../../helpers/fakeExecuteContext';

describe('Ledger', () => {
	it('batches records made while a write is running into one call', async () => {
		const store = new ProcessedStore();
		const helpers = store.helpersFor('w', { id: 'n', name: 'n' } as never) as never;
		const ledger = new Ledger(helpers, 'w|n');
		await Promise.all(Array.from({ length: 100 }, async (_, i) => await ledger.record([`k${i}`])));
		expect(store.keys()).toHaveLength(100);
		expect(store.calls).toBeLessThanOrEqual(2);
	});

	it('peek tells what was recorded and records nothing', async () => {
		const store = new ProcessedStore();
		const helpers = store.helpersFor('w', { id: 'n', name: 'n' } as never) as never;
		const ledger = new Ledger(helpers, 'w|n2');
		await ledger.record(['a']);
		expect([...(await ledger.peek(['a', 'b']))]).toEqual(['a']);
		expect(store.keys()).toEqual(['a']);
	});
});
