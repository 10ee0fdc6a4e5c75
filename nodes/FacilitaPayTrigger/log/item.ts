import type { IDataObject } from 'n8n-workflow';

import { kycStatusEvent } from '../notification';
import type { LogRecord } from './selection';

/*
 * The item a record starts the workflow with: pure. Everything in it comes from FacilitaPay's
 * log (the record) or, when asked, from FacilitaPay's current objects; nothing from a delivery.
 */

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event's payload as the record lists it, without the secret (the KYC payload as kyc_status). */
export function eventOf(notification: IDataObject): IDataObject {
	const fields = { ...notification };
	delete fields.secret;
	if (typeof fields.type !== 'string' && isObject(fields.data)) return kycStatusEvent(fields.data);
	return fields;
}

/** The event's type, '' when the payload has none. */
export function typeOf(notification: IDataObject): string {
	return String(eventOf(notification).type ?? '');
}

/** The record's own fields shown with the event (never its payload twice, never the secret). */
export function recordFacts(record: LogRecord): IDataObject {
	return {
		id: record.id,
		inserted_at: record.inserted_at ?? null,
		sent_at: record.sent_at ?? null,
		failed_at: record.failed_at ?? null,
	};
}

/** The output item of one record: the event's fields, the record, `verified: true`, what was read. */
export function itemOf(record: LogRecord, attached: IDataObject, now: Date): IDataObject {
	return {
		...eventOf(record.notification),
		...attached,
		verified: true,
		verification: {
			summary: "Listed in FacilitaPay's notification log for this workflow's URL.",
			source: 'notificationLog',
		},
		notificationRecord: recordFacts(record),
		receivedAt: now.toISOString(),
	};
}

/** A test delivery's item when the log does not list it (yet): everything it carried is unverified. */
export function unlistedTestItem(notification: IDataObject, now: Date): IDataObject {
	const event = eventOf(notification);
	const { type, ...rest } = event;
	return {
		type: type ?? null,
		unverifiedFields: rest,
		verified: false,
		verification: {
			summary:
				"Not listed in FacilitaPay's notification log for the test URL (yet): only the delivery carried this.",
			source: 'delivery',
		},
		receivedAt: now.toISOString(),
	};
}

/** Whether two payloads are the same event (every field but the secret, in any key order). */
export function samePayload(a: IDataObject, b: IDataObject): boolean {
	return canonical(eventOf(a)) === canonical(eventOf(b));
}

function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isObject(value)) {
		return `{${Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** The identity of a KYC status as FacilitaPay shows it: the subject's id, status and update time. */
export function kycIdentity(subject: IDataObject): string | undefined {
	const { id, status, updated_at: updatedAt } = subject;
	if (typeof id !== 'string' || id === '' || typeof status !== 'string') return undefined;
	return `kyc:${id}:${status}:${String(updatedAt ?? '')}`;
}

/** The item of a KYC status read from FacilitaPay (the payload itself is not in the log). */
export function kycItem(subject: IDataObject, now: Date): IDataObject {
	return {
		type: 'kyc_status',
		subject_id: subject.id ?? null,
		status: subject.status ?? null,
		data: subject,
		verified: true,
		verification: {
			summary:
				"Read from FacilitaPay: the subject's current status (the KYC payload is not in the notification log; its identity is the subject, its status and updated_at).",
			source: 'subjectRead',
			identity: kycIdentity(subject) ?? null,
		},
		receivedAt: now.toISOString(),
	};
}
