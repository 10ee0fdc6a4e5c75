import type { IDataObject } from 'n8n-workflow';

import { SUBJECT_SUMMARY } from '../../schemas/subjectRepresentation';
import { serviceTimeInUtc } from '../../validation/dates';

const pick = (source: IDataObject, keys: readonly string[]): IDataObject => {
	const result: IDataObject = {};
	for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
	return result;
};

/** The times a simplified record shows, written in UTC with their zone (serviceTimeInUtc). */
const TIME_KEYS = ['inserted_at', 'updated_at', 'canceled_at', 'dynamic_pix_due_date'];

const inUtc = (record: IDataObject): IDataObject => {
	for (const key of TIME_KEYS)
		if (record[key] !== undefined && record[key] !== null)
			record[key] = serviceTimeInUtc(record[key]) as IDataObject[string];
	return record;
};

const TRANSACTION_KEYS = [
	'id',
	'status',
	'value',
	'currency',
	'exchange_currency',
	'exchanged_value',
	'subject_id',
	'cleared',
	'dynamic_pix_code',
	'url_pdf',
	'bar_code',
	'digital_line',
	'canceled_reason',
	'canceled_at',
	'inserted_at',
	// IDs users act on: the checkout of a card payment, the exchange and the wire its events name
	'checkout_id',
	'exchange_id',
	'wire_id',
	// a Mexican pay-in's dynamic CLABE (public documentation)
	'payment_info',
];

/**
 * The fields of a transaction people act on, the IDs its events name included (`checkout_id`,
 * `exchange_id`, `wire_id`); nested accounts and the subject are left out. Times in UTC with `Z`.
 */
export function simplifyTransaction(transaction: IDataObject): IDataObject {
	const result = pick(transaction, TRANSACTION_KEYS);
	const meta = transaction.meta as IDataObject | undefined;
	if (meta?.dynamic_pix_due_date) result.dynamic_pix_due_date = meta.dynamic_pix_due_date;
	const subject = transaction.subject as IDataObject | undefined;
	if (subject?.social_name) result.subject_name = subject.social_name;
	return inUtc(result);
}

/**
 * The fields of a subject people act on; documents, references and the address are left out.
 * Times in UTC with `Z`.
 */
export function simplifySubject(subject: IDataObject): IDataObject {
	return inUtc(pick(subject, SUBJECT_SUMMARY));
}
