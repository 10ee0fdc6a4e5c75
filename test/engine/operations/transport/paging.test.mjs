// Paging by last_id on n8n's engine: FacilitaPay answers each page by the last_id asked for.
import { useOperations } from '../../lib/operations.mjs';

const op = useOperations();

const PEOPLE = 'GET /subject/people';
const people = Array.from({ length: 300 }, (_, k) => ({
	id: `p-${k}`,
	social_name: `Person ${k}`,
}));

/** A list of `count` people, 100 a page, the page after `last_id`. */
const list =
	(count) =>
	({ query }) => {
		const own = people.slice(0, count);
		const start = query.last_id ? own.findIndex((person) => person.id === query.last_id) + 1 : 0;
		return { data: own.slice(start, start + 100) };
	};

describe('transport: paging by last_id', () => {
	it('Return All follows last_id until a short page', async () => {
		const { items, requests } = await op.run({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			replies: { [PEOPLE]: list(207) },
		});
		expect(items).toHaveLength(207);
		expect(items[206].json.id).toBe('p-206');
		expect(requests.map((request) => request.query.last_id)).toEqual([undefined, 'p-99', 'p-199']);
	});

	it('Limit stops requesting once reached', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'subject',
				operation: 'getMany',
				returnAll: false,
				limit: 120,
				simplify: false,
			},
			replies: { [PEOPLE]: list(300) },
		});
		expect(items).toHaveLength(120);
		expect(requests).toHaveLength(2);
		expect(items[119].json.id).toBe('p-119');
	});

	it('an empty list gives no items and one request', async () => {
		const { items, requests, error } = await op.run({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true },
			replies: { [PEOPLE]: { data: [] } },
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		expect(requests).toHaveLength(1);
	});

	it('stops when the service repeats a page instead of looping forever', async () => {
		const { items, requests } = await op.run({
			parameters: { resource: 'subject', operation: 'getMany', returnAll: true, simplify: false },
			// A service that ignores last_id.
			replies: { [PEOPLE]: { data: people.slice(0, 100) } },
		});
		expect(items).toHaveLength(100);
		expect(requests).toHaveLength(2);
	});
});
