import { answerAsJson } from '../../../../nodes/FacilitaPay/actions/common/output';

describe('answerAsJson: the service answer as an output item', () => {
	it('passes an object answer on as it is', () => {
		const answer = { id: 'tx-1', status: 'canceled' };
		expect(answerAsJson(answer, { transaction_id: 'tx-1' })).toBe(answer);
	});

	it.each([
		['ok', { transaction_id: 'tx-1' }, undefined, { transaction_id: 'tx-1', result: 'ok' }],
		[150, {}, 'value', { value: 150 }],
		[null, { id: 'n-1' }, undefined, { id: 'n-1', result: null }],
	])(
		'keeps the non-object answer %p next to what the request was for',
		(data, context, key, expected) => {
			expect(answerAsJson(data, context, key)).toEqual(expected);
		},
	);
});
