import { z } from 'zod';

import { checkDocumentNumber } from '../validation/documents';
import type { Check } from '../validation/result';

/**
 * A zod string whose value is checked (and normalised) by one of the pure validators. The
 * validator's reason becomes the issue message, so the user reads the same sentence whether the
 * rule runs alone or inside a request schema.
 */
export function checked(
	check: (raw: string) => Check,
): z.ZodEffects<z.ZodUnion<[z.ZodString, z.ZodNumber]>, string>;
export function checked(
	check: (raw: string | number) => Check,
	options: { keepNumbers: true },
): z.ZodEffects<z.ZodUnion<[z.ZodString, z.ZodNumber]>, string>;
export function checked(
	check: ((raw: string) => Check) | ((raw: string | number) => Check),
	options: { keepNumbers?: boolean } = {},
) {
	return z.union([z.string(), z.number()]).transform((raw, ctx) => {
		const input = options.keepNumbers && typeof raw === 'number' ? raw : String(raw);
		const result = (check as (raw: string | number) => Check)(input);
		if (!result.ok) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.reason });
			return z.NEVER;
		}
		return result.value;
	});
}

/**
 * Checks a record's `document_number` by its `document_type` and writes it back normalised (the
 * punctuation removed); a refusal is an issue at `document_number`. Returns whether it passed.
 */
export function refineDocumentNumber(
	record: { document_type: string; document_number: string },
	ctx: z.RefinementCtx,
): boolean {
	const document = checkDocumentNumber(record.document_type, record.document_number);
	if (document.ok) record.document_number = document.value;
	else {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['document_number'],
			message: document.reason,
		});
	}
	return document.ok;
}

/** A required, trimmed, non-empty string. */
export const text = (what = 'a value') =>
	z
		.string({ required_error: `is required: enter ${what}` })
		.trim()
		.min(1, { message: `is required: enter ${what}` });

/** An optional string: empty strings are dropped so they are not sent. */
export const optionalText = () =>
	z
		.string()
		.trim()
		.optional()
		.transform((value) => (value === '' ? undefined : value));

export function oneOf<T extends string>(values: readonly [T, ...T[]], what: string) {
	return z.enum(values, {
		errorMap: () => ({ message: `must be one of ${values.join(', ')} (${what})` }),
	});
}

/** Turns `document_number` or `from_card.card_number` into `Document Number` / `Card Number`. */
export function labelOf(path: Array<string | number>, labels: Record<string, string> = {}): string {
	const key = path.join('.');
	if (labels[key]) return labels[key];
	const last = [...path].reverse().find((part) => typeof part === 'string') as string | undefined;
	if (!last) return 'Body';
	const words = last
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.split(/[_\s]+/)
		.filter(Boolean)
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
	const index = path.find((part) => typeof part === 'number');
	return index === undefined ? words.join(' ') : `${words.join(' ')} (entry ${index + 1})`;
}

export interface FieldProblem {
	/** The API field path, e.g. `person.document_number`. */
	field: string;
	/** The name the user sees in the node, e.g. `Document Number`. */
	label: string;
	reason: string;
}

/** Reads the problems of a failed parse in the order of the schema's fields. */
export function problemsOf(error: z.ZodError, labels: Record<string, string> = {}): FieldProblem[] {
	return error.issues.map((issue) => {
		let reason = issue.message;
		if (issue.code === z.ZodIssueCode.invalid_type && issue.received === 'undefined') {
			reason = 'is required';
		} else if (issue.code === z.ZodIssueCode.invalid_type) {
			reason = `must be ${issue.expected}, not ${issue.received}`;
		}
		return { field: issue.path.join('.'), label: labelOf(issue.path, labels), reason };
	});
}
