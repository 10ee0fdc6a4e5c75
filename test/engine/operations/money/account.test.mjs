// Issue 39, "Reported done, never paid", on n8n's engine: a credential edited from Sandbox to
// Production (the same credential ID, no restart). The identity, the process memory, the list
// memory and n8n's store speak for one account (the base URL and who signs in): a record found
// must be found at the account paid. One scripted server plays both accounts, told apart by the
// host the Base URL names.
import { InMemoryProcessedStore, resetNodeMemory, useOperations } from '../../lib/operations.mjs';
import { byHost, CREATE, facilitaPay, payout } from './lib.mjs';

const op = useOperations();

const keyed = () => [payout('250.00', { idempotencyKey: 'ORDER-5150' })];

async function editedToProduction({ restart }) {
	const sandbox = facilitaPay();
	const production = facilitaPay();
	const replies = byHost({ '127.0.0.1': sandbox.replies, localhost: production.replies });
	// One n8n: one deduplication store, one credential ID; its Base URL edited in between.
	const store = new InMemoryProcessedStore();
	const atSandbox = await op.engine({ store });
	const paid = await op.run({ engine: atSandbox, parameters: keyed(), replies });
	expect(paid.error).toBeUndefined();
	expect(sandbox.records).toHaveLength(1);
	if (restart) resetNodeMemory();
	const productionUrl = op.service.url.replace('127.0.0.1', 'localhost');
	const atProduction = await op.engine({ store, credentials: { baseUrl: `${productionUrl}/` } });
	const run = await op.run({ engine: atProduction, parameters: keyed(), replies });
	return { sandbox, production, run };
}

describe('Reported done, never paid (issue 39): a credential edited from Sandbox to Production', () => {
	it.each([
		['no restart', false],
		['n8n restarted in between', true],
	])('the same Idempotency Key is paid at production (%s)', async (_case, restart) => {
		const { sandbox, production, run } = await editedToProduction({ restart });
		expect(run.error).toBeUndefined();
		expect(production.payouts).toHaveLength(1);
		expect(production.records).toHaveLength(1);
		expect(run.items[0].json.alreadyDone).toBeUndefined();
		expect(run.items[0].json.id).toBe(production.records[0].id);
		expect(run.requests.some((request) => request.route === CREATE)).toBe(true);
		expect(sandbox.payouts).toHaveLength(1);
	});

	it('a record this process knows from the sandbox list, read at production by its ID (404), is not found', async () => {
		const sandbox = facilitaPay();
		const production = facilitaPay();
		const replies = byHost({ '127.0.0.1': sandbox.replies, localhost: production.replies });
		const store = new InMemoryProcessedStore();
		const atSandbox = await op.engine({ store });
		await op.run({ engine: atSandbox, parameters: keyed(), replies });
		// The key again at the sandbox: found (its list now read whole and kept).
		const again = await op.run({ engine: atSandbox, parameters: keyed(), replies });
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
		const productionUrl = op.service.url.replace('127.0.0.1', 'localhost');
		const atProduction = await op.engine({ store, credentials: { baseUrl: `${productionUrl}/` } });
		const run = await op.run({ engine: atProduction, parameters: keyed(), replies });
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.alreadyDone).toBeUndefined();
		expect(production.records).toHaveLength(1);
	});
});
