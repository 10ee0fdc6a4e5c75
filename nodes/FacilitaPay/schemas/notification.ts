import { z } from 'zod';

import { checkUuid } from '../validation/uuid';
import { checked, oneOf } from './checked';

/** What the Failed option offers, and the `failed` query value each one sends. */
export const FAILED_FILTERS = {
	any: undefined,
	onlyFailed: true,
	onlySuccessful: false,
} as const;

export const NOTIFICATION_LABELS: Record<string, string> = {
	last_id: 'Last ID',
	per_page: 'Per Page',
	order_by: 'Order',
	failed: 'Delivery Status',
};

/** A whole number of at least 1 (the service states no maximum), sent as text. */
const positiveInteger = z.union([z.number(), z.string()]).transform((raw, ctx) => {
	const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (String(raw).trim() === '' || !Number.isInteger(number) || number < 1) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: `is ${String(raw).trim() === '' ? 'empty' : String(raw)}; enter a whole number of at least 1, e.g. 100`,
		});
		return z.NEVER;
	}
	return String(number);
});

/**
 * Query of `GET /notifications`; options the user did not add are not sent. `order_by` accepts
 * `asc` (oldest first) and `desc` (newest first) but only `desc` is sent: the spec defines only
 * that value, oldest first being the default when the parameter is left out.
 */
export const notificationQuerySchema = z
	.object({
		last_id: checked(checkUuid).optional(),
		per_page: positiveInteger.optional(),
		order_by: oneOf(['asc', 'desc'], 'asc: oldest first, desc: newest first').optional(),
		failed: oneOf(
			Object.keys(FAILED_FILTERS) as [
				keyof typeof FAILED_FILTERS,
				...Array<keyof typeof FAILED_FILTERS>,
			],
			'any, only failed or only successful deliveries',
		).optional(),
	})
	.strict()
	.transform(({ failed, order_by: orderBy, ...rest }) => {
		const query: typeof rest & { order_by?: 'desc'; failed?: boolean } = rest;
		if (orderBy === 'desc') query.order_by = orderBy;
		const value = failed === undefined ? undefined : FAILED_FILTERS[failed];
		if (value !== undefined) query.failed = value;
		return query;
	});
