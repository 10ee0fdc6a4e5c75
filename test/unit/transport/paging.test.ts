import { runNode } from '../helpers/executeContext';

describe('transport: paging by last_id', () => {
	const page = (from: number, count: number) =>
		Array.from({ length: count }, (_, k) => ({
			id: `p-${from + k}`,
			social_name: `Person ${from + k}`,
		}));

	it('Return All follows last_id until a short page', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			replies: [{ data: page(0, 100) }, { data: page(100, 100) }, { data: page(200, 7) }],
		});
		expect(output).toHaveLength(207);
		expect(requests.map((r) => r.qs?.last_id)).toEqual([undefined, 'p-99', 'p-199']);
	});

	it('Limit stops requesting once reached', async () => {
		const { output, requests } = await runNode({
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 120,
				simplify: false,
			},
			replies: [{ data: page(0, 100) }, { data: page(100, 100) }, { data: page(200, 100) }],
		});
		expect(output).toHaveLength(120);
		expect(requests).toHaveLength(2);
		expect(output[119].json.id).toBe('p-119');
	});

	it('an empty list gives no items and one request', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true },
			replies: [{ data: [] }],
		});
		expect(output).toEqual([]);
		expect(requests).toHaveLength(1);
	});

	it('stops when the service repeats a page instead of looping forever', async () => {
		const { output, requests } = await runNode({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			replies: [{ data: page(0, 100) }, { data: page(0, 100) }],
		});
		expect(output).toHaveLength(100);
		expect(requests).toHaveLength(2);
	});
});
