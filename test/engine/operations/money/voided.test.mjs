// Issue 39, "A key the user cannot use again", on n8n's engine: two payments under one key (two
// workers at once, as documented), the user cancels one as the error tells them: the next run
// reports the other one and sends nothing. A payment FacilitaPay shows canceled or failed no
// longer holds its key.
import { useOperations } from '../../lib/operations.mjs';
import { CREATE, facilitaPay, payout } from './lib.mjs';

const op = useOperations();

const parameters = [payout('120.00', { idempotencyKey: 'WEBHOOK-77' })];

/** Two workers (two credential IDs: two process memories) got past n8n's store at once. */
async function paidTwice() {
	const service = facilitaPay({ holdBefore: () => service.payouts.length >= 2 });
	const arrived = service.nextPayout();
	const first = op.run({ credentialId: 'worker-1', parameters, replies: service.replies });
	await arrived;
	const second = op.run({ credentialId: 'worker-2', parameters });
	const results = await Promise.all([first, second]);
	expect(service.sent()).toEqual(['120.00', '120.00']);
	return { service, results };
}

describe('A key the user cannot use again (issue 39)', () => {
	it('two payments under one key: the error says what to cancel and what the next run does; once one is canceled, every later run reports the other and sends nothing', async () => {
		const { service, results } = await paidTwice();
		for (const { error } of results) {
			expect(error.message).toMatch(/2 payments carry n8n_facilitapay_ref "key:WEBHOOK-77"/);
			expect(error.description).toMatch(
				/Once FacilitaPay shows one of them canceled \(or failed\), the next run with this identity sends nothing and outputs the one left as its payment/,
			);
		}
		service.cancel('tx-2');
		for (const credentialId of ['worker-1', 'worker-2', 'worker-1']) {
			const later = await op.run({ credentialId, parameters, replies: service.replies });
			expect(later.error).toBeUndefined();
			expect(later.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-1' });
			expect(later.items[0].json.alreadyDoneNote).toMatch(
				/Payment tx-2 .* is canceled or failed at FacilitaPay and no longer counts/,
			);
			expect(later.requests.filter((request) => request.route === CREATE)).toHaveLength(0);
		}
		expect(service.records).toHaveLength(2);
	});

	it('the only payment under a key canceled: the key is free, the next run sends it (once)', async () => {
		const service = facilitaPay();
		const engine = await op.engine();
		const first = await op.run({ engine, parameters, replies: service.replies });
		expect(first.items[0].json.id).toBe('tx-1');
		service.cancel('tx-1');
		const again = await op.run({ engine, parameters, replies: service.replies });
		expect(again.error).toBeUndefined();
		expect(again.items[0].json).toMatchObject({ id: 'tx-2' });
		expect(again.items[0].json.alreadyDone).toBeUndefined();
		const third = await op.run({ engine, parameters, replies: service.replies });
		expect(third.items[0].json).toMatchObject({ alreadyDone: true, id: 'tx-2' });
		expect(service.sent()).toEqual(['120.00', '120.00']);
	});
});
