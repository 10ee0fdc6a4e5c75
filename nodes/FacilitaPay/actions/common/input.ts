import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import { problemsOf } from '../../schemas/checked';
import type { Check } from '../../validation/result';
import { checkMetadata, NODE_META_FIELDS } from '../../validation/metadata';
import { checkPathId } from '../../validation/pathId';
import type { FacilitaPayError } from '../../transport';
import { errorFromFacts } from '../../transport';
import { locatorValue } from './locator';

/**
 * The error a user reads when an item's input breaks a rule: which field, which item, why, and
 * that nothing left n8n. Thrown before any request is made.
 */
export function invalidInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	reason: string,
	fix?: string,
): FacilitaPayError {
	return errorFromFacts(ctx.getNode(), {
		itemIndex,
		outcome: 'notSent',
		invalidInput: true,
		head: `Invalid ${label}`,
		detail: reason,
		fix: fix ?? `Correct "${label}" and run the node again.`,
	});
}

/** Returns the normalised value of a passed check, or throws the readable error. */
export function requireValid(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	check: Check,
): string {
	if (!check.ok) throw invalidInput(ctx, itemIndex, label, check.reason);
	return check.value;
}

/**
 * Parses a request body with its zod schema. Every broken rule is listed (field by field) in one
 * error so the user can fix them all at once.
 */
export function validateBody<S extends z.ZodTypeAny>(
	ctx: IExecuteFunctions,
	itemIndex: number,
	schema: S,
	raw: unknown,
	labels: Record<string, string> = {},
): z.output<S> {
	const result = schema.safeParse(raw);
	if (result.success) return result.data as z.output<S>;
	const problems = problemsOf(result.error, labels);
	const first = problems[0];
	if (problems.length === 1) throw invalidInput(ctx, itemIndex, first.label, first.reason);
	const list = problems.map((p) => `${p.label}: ${p.reason}`).join('; ');
	throw errorFromFacts(ctx.getNode(), {
		itemIndex,
		outcome: 'notSent',
		invalidInput: true,
		head: 'Invalid input',
		detail: `${problems.length} fields need fixing: ${list}`,
		fix: 'Correct the fields listed and run the node again.',
	});
}

/** Drops undefined and empty-string values so optional fields left blank are not sent. */
export function compact<T extends IDataObject>(object: T): T {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(object)) {
		if (value === undefined || value === null || value === '') continue;
		result[key] = value;
	}
	return result as T;
}

/** Parses a JSON parameter that may arrive as a string or an object. */
export function jsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	value: unknown,
): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw invalidInput(ctx, itemIndex, label, `is not valid JSON (${(error as Error).message})`);
	}
}

/**
 * Reads an ID parameter that goes into a URL path (a Resource Locator, or a plain string in older
 * workflows): trimmed, non-empty, and only letters, digits, `_` and `-`, so that nothing like `.`,
 * `..` or `%2e` can turn the path into another endpoint.
 */
export function idParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	options: { uuid?: boolean } = {},
): string {
	const value = locatorValue(ctx, name, itemIndex);
	if (value === '')
		throw invalidInput(ctx, itemIndex, label, 'is empty: enter the ID or pick one from the list');
	return requireValid(ctx, itemIndex, label, checkPathId(value, options));
}

/**
 * The record with the item's Metadata (JSON) as its `meta`, checked first (a JSON object of at most
 * 8 kB, without the node's own key); the record as it is when no metadata is given.
 */
export function withMetadata(ctx: IExecuteFunctions, i: number, record: IDataObject): IDataObject {
	const result = checkMetadata(ctx.getNodeParameter('metadata', i, '{}'), NODE_META_FIELDS);
	if (!result.ok) throw invalidInput(ctx, i, 'Metadata (JSON)', result.reason);
	return Object.keys(result.value).length > 0 ? { ...record, meta: result.value } : record;
}
