// Sending while checking (Continue On Fail, no money): what a user sees of it on n8n's engine. Each
// item is checked before its request; an invalid item is never sent and becomes its error item;
// the output keeps the input order and pairing. Money-moving items still wait for every item.
import { createRequire } from 'node:module';
import { useOperations } from '../lib/operations.mjs';

const require = createRequire(import.meta.url);
const { personParameters } = require('../../fixtures/subjects.js');
const { payoutParameters, SUBJECT_ID } = {
	...require('../../fixtures/transactions.js'),
	...require('../../fixtures/subjects.js'),
};

const op = useOperations();

const person = (k, documentNumber) =>
	personParameters({}, { socialName: `P${k}`, ...(documentNumber ? { documentNumber } : {}) });
const payout = (value) =>
	payoutParameters(value, { subjectId: { __rl: true, mode: 'id', value: SUBJECT_ID } });

describe('Continue On Fail over many items', () => {
	test('40 customers, every tenth with a wrong CPF: the 36 good ones are sent, the 4 bad ones never, order and pairing kept', async () => {
		const parameters = Array.from({ length: 40 }, (_, k) =>
			person(k, k % 10 === 3 ? '23100299900' : undefined),
		);
		const { items, requests } = await op.run({
			parameters,
			continueOnFail: true,
			replies: {
				'POST /subject/people': (request) => ({
					data: { id: `s-${request.body.person.social_name}` },
				}),
			},
		});
		const sent = requests.map((request) => request.body.person.social_name);
		expect(sent.sort()).toEqual(
			parameters
				.map((_, k) => `P${k}`)
				.filter((_, k) => k % 10 !== 3)
				.sort(),
		);
		expect(items.map((item) => item.pairedItem)).toEqual(parameters.map((_, item) => ({ item })));
		items.forEach((item, k) => {
			if (k % 10 === 3) expect(item.json.error).toMatch(new RegExp(`\\(item ${k}\\)`));
			else expect(item.json.id).toBe(`s-P${k}`);
		});
	});

	test('payouts with Continue On Fail: the one with three decimals is never sent, the others are', async () => {
		const { items, requests } = await op.run({
			parameters: [payout('10.00'), payout('10.005'), payout('20.00')],
			continueOnFail: true,
			replies: {
				'POST /transactions': (request) => ({
					data: { id: `p-${request.body.transaction.value}`, ...request.body.transaction },
				}),
			},
		});
		expect(requests.map((request) => request.body.transaction.value).sort()).toEqual([
			'10.00',
			'20.00',
		]);
		expect(items.map((item) => item.json.id ?? 'error')).toEqual(['p-10.00', 'error', 'p-20.00']);
		expect(items[1].json.error).toMatch(/\(item 1\)/);
	});
});
