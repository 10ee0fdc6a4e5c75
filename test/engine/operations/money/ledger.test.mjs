// The node's Ledger over n8n's own deduplication helpers (n8n-core's
// getDeduplicationHelperFunctions → DataDeduplicationService), its rows in the engine's store.
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { createEngine, ROOT, stopEngine, TRIGGER_NAME, workflowOf } from '../../lib/engine.mjs';
import { InMemoryProcessedStore } from '../../lib/operations.mjs';

const { Ledger } = nodeRequire(path.join(ROOT, 'dist/nodes/FacilitaPay/money/index.js'));

/** n8n's helpers for one node of workflow "w", over a store of its own. */
async function helpersOver(store, node) {
	const engine = await createEngine({ store });
	// A run makes this store the one n8n's DataDeduplicationService calls.
	await engine.run(workflowOf([], { id: 'w', pinData: { [TRIGGER_NAME]: [{ json: {} }] } }));
	const corePath = path.dirname(nodeRequire.resolve('n8n-core'));
	const { getDeduplicationHelperFunctions } = nodeRequire(
		path.join(
			corePath,
			'execution-engine/node-execution-context/utils/deduplication-helper-functions.js',
		),
	);
	return getDeduplicationHelperFunctions({ id: 'w' }, node);
}

afterAll(async () => await stopEngine());

describe('Ledger', () => {
	it('batches records made while a write is running into one call', async () => {
		const store = new InMemoryProcessedStore();
		const helpers = await helpersOver(store, { id: 'n', name: 'n' });
		const ledger = new Ledger(helpers, 'w|n');
		await Promise.all(Array.from({ length: 100 }, async (_, i) => await ledger.record([`k${i}`])));
		expect(store.size()).toBe(100);
		expect(store.has('k0') && store.has('k99')).toBe(true);
		expect(store.calls).toBeLessThanOrEqual(2);
	});

	it('peek tells what was recorded and records nothing', async () => {
		const store = new InMemoryProcessedStore();
		const helpers = await helpersOver(store, { id: 'n2', name: 'n2' });
		const ledger = new Ledger(helpers, 'w|n2');
		await ledger.record(['a']);
		expect([...(await ledger.peek(['a', 'b']))]).toEqual(['a']);
		expect(store.size()).toBe(1);
		expect(store.has('a')).toBe(true);
		expect(store.has('b')).toBe(false);
	});
});
