import { notificationQuerySchema } from '../../../nodes/FacilitaPay/schemas/notification';

describe('notificationQuerySchema: order', () => {
	it('sends order_by=desc for newest first', () => {
		expect(notificationQuerySchema.parse({ order_by: 'desc' })).toEqual({ order_by: 'desc' });
	});

	it.each([
		['"asc" (Oldest First, the service’s default)', { order_by: 'asc' }],
		['no order', {}],
	])('omits order_by for %s: the spec defines only "desc"', (_name, query) => {
		expect(notificationQuerySchema.parse(query)).not.toHaveProperty('order_by');
	});

	it('still refuses another value', () => {
		expect(notificationQuerySchema.safeParse({ order_by: 'newest' }).success).toBe(false);
	});
});
