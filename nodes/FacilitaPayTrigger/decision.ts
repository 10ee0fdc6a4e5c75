import type { IDataObject } from 'n8n-workflow';

import type { DuplicateState } from './duplicates';
import { duplicateKey } from './duplicates';
import { isEventSelected } from './events';
import { eventData, kycStatusEvent, KYC_STATUS_TYPE } from './notification';
import type { Listing } from './records';
import type { Answer, LogLine } from './texts';
import { ANSWERS, LOGS, SUMMARIES } from './texts';
import type { Finding, Read, ReadResult } from './verification';
import { assess, findingSummary, planVerification, ruleFor, verdict } from './verification';

/*
 * The decision: what to answer to one request and what to start, from what the request carries,
 * what the trigger stored and what the API said. Pure: no n8n, no I/O, no clock (the time is a
 * fact). Every rule lives here once: the secret and the records, the Events choice, duplicates,
 * the verification's verdict (rules.ts), the item. The node's webhook() gathers the facts, asks,
 * reads when told to, asks again, and does what the answer says.
 */

/** What the request body turned out to be. */
export type Received =
	/** Not JSON, too big, too deep, `notification` not an object. */
	| { kind: 'bad'; status: number; message: string }
	/** Neither a notification nor the KYC status payload. */
	| { kind: 'unknown' }
	/** `{"notification": {type, secret, …}}`. */
	| { kind: 'notification'; notification: IDataObject }
	/** `{"data": {…subject…}}`: the KYC status payload, without a secret. */
	| { kind: 'kycStatus'; subject: IDataObject };

export interface Facts {
	now: number;
	received: Received;
	options: {
		verifyWithApi: boolean;
		acceptUnsignedKycStatus: boolean;
		dropDuplicates: boolean;
	};
	/** The Events choice. */
	events: unknown;
	/**
	 * The secret of a notification compared with the stored one (`unknown`: not the one this trigger
	 * holds, or none is held; `none`: an unsigned payload; `unavailable`: the credentials, which key
	 * the stored secret, could not be read).
	 */
	secret: 'right' | 'unknown' | 'none' | 'unavailable';
	/** For a secret this trigger does not hold: whether FacilitaPay's notification records list it. */
	listing?: Listing;
	/**
	 * Whether an identical notification is being checked by another request right now, started
	 * the workflow lately, or is new (this request then holds the claim).
	 */
	duplicate: DuplicateState;
	/** Whether an event with this duplicate key started the workflow lately (keys after the reads). */
	emitted?: (key: string) => boolean;
	/** The duplicate key of the payload itself. */
	payloadKey?: string;
	/** Request headers to add to the item (Include Headers), already without credentials. */
	headers?: IDataObject;
	/** What the reads brought back, in the order of the plan's reads (second call only). */
	reads?: ReadResult[];
	/**
	 * The sender has closed the connection (it gave up waiting, after 10 s for FacilitaPay): no
	 * answer reaches it, so it sends the notification again, and starting the workflow now would
	 * start it twice.
	 */
	senderGone?: boolean;
}

export interface Effects {
	/** Remember this duplicate key as emitted (Drop Duplicates, unsigned payloads). */
	remember?: string;
	log?: LogLine;
}

export type Decision =
	/** Look the notification up in FacilitaPay's records, then decide again with `listing`. */
	| { kind: 'records'; effects: Effects }
	/** Read these objects, then decide again with what came back. */
	| { kind: 'read'; reads: Read[]; stopAtAbsent: boolean; stranger: boolean; effects: Effects }
	| { kind: 'answer'; answer: Answer; item?: IDataObject; effects: Effects };

function answer(reply: Answer, effects: Effects = {}): Decision {
	return { kind: 'answer', answer: reply, effects };
}

function start(
	facts: Facts,
	fields: IDataObject,
	unverified: IDataObject | undefined,
	verification: { verified: boolean; summary: string; api?: IDataObject; objects?: IDataObject[] },
	log?: LogLine,
	remember?: string,
): Decision {
	const item: IDataObject = { ...fields, ...verification.api };
	if (unverified) item.unverifiedFields = unverified;
	item.verified = verification.verified;
	item.verification = {
		summary: verification.summary,
		...(verification.objects ? { objects: verification.objects } : {}),
		...(facts.listing === 'listed' ? { listedInNotificationRecords: true } : {}),
	};
	if (facts.headers) item.headers = facts.headers;
	item.receivedAt = new Date(facts.now).toISOString();
	return {
		kind: 'answer',
		answer: ANSWERS.started,
		item,
		effects: {
			// '' remembers nothing; undefined: the payload's key, with Drop Duplicates.
			remember: remember ?? (facts.options.dropDuplicates ? facts.payloadKey : undefined),
			log,
		},
	};
}

/** The API's objects of the reads, under their own keys (`transactions` as a list, null where unread). */
function apiObjects(reads: Read[], findings: Finding[]): IDataObject {
	const objects: IDataObject = {};
	for (const [index, read] of reads.entries()) {
		const finding = findings[index];
		const object = 'object' in finding ? finding.object : null;
		if (read.index === undefined) {
			if (object) objects[read.outputKey] = object;
			continue;
		}
		const list = (objects[read.outputKey] as Array<IDataObject | null> | undefined) ?? [];
		list[read.index] = object;
		objects[read.outputKey] = list;
	}
	return objects;
}

/**
 * The duplicate key after the reads, for events about a subject: the payload and what FacilitaPay
 * says changed (the subject's status and updated_at), so that a re-approval is a new event while a
 * redelivery is not. Undefined when FacilitaPay gives no updated_at: nothing tells them apart then,
 * and the event is delivered (never dropped on a guess).
 */
function stateKey(facts: Facts, reads: Read[], findings: Finding[]): string | undefined {
	const states: unknown[] = [];
	for (const [index, read] of reads.entries()) {
		if (read.target !== 'subject') continue;
		const finding = findings[index];
		const object = 'object' in finding ? finding.object : undefined;
		if (!object || object.updated_at === undefined || object.updated_at === null) return undefined;
		states.push([read.id, object.status ?? null, object.updated_at]);
	}
	if (states.length === 0) return facts.payloadKey;
	return duplicateKey({ payload: facts.payloadKey ?? '', states } as IDataObject);
}

/** What to answer and start for one request. Called again with `listing` or `reads` when it asked. */
export function decide(facts: Facts): Decision {
	const { received, options } = facts;
	if (received.kind === 'bad')
		return answer({ status: received.status, message: received.message });
	if (received.kind === 'unknown') return answer(ANSWERS.notFacilitaPay);

	// Too late to answer: the redelivery will be handled instead (nothing read, nothing started).
	if (facts.senderGone) {
		return answer(ANSWERS.sendLater, facts.reads ? { log: LOGS.senderGone() } : {});
	}
	if (facts.secret === 'unavailable') {
		return answer(ANSWERS.sendLater, { log: LOGS.noCredentials() });
	}
	const signed = received.kind === 'notification';
	if (!signed && !options.verifyWithApi && !options.acceptUnsignedKycStatus) {
		return answer(ANSWERS.unsigned);
	}

	const event = signed ? received.notification : kycStatusEvent(received.subject);
	const { fields, unverified } = eventData(event);
	const type = fields.type;
	// Before the secret: what a request gets never depends on how close its secret is.
	if (typeof type !== 'string' || type === '') return answer(ANSWERS.noType);

	// A secret this trigger does not hold: genuine exactly when FacilitaPay's records list it.
	// Unlisted, it is answered as a false event is (the same status and body as a right secret
	// naming an object that does not exist), so no guess tells more than another.
	if (signed && facts.secret !== 'right') {
		if (facts.listing === undefined) return { kind: 'records', effects: {} };
		if (facts.listing === 'unread') {
			return answer(ANSWERS.sendLater, { log: LOGS.recordsUnread(type) });
		}
		if (facts.listing === 'unlisted') return answer(ANSWERS.provenFalse, { log: LOGS.unlisted() });
	}

	const chosen =
		isEventSelected(type, facts.events) ||
		(type === KYC_STATUS_TYPE && options.acceptUnsignedKycStatus);
	if (!chosen) return answer(ANSWERS.notChosen);

	// An identical notification being checked right now (a redelivery overlapping a slow check):
	// sent again later, so that it starts nothing now and is not lost if the first one fails.
	if (facts.duplicate === 'checking') return answer(ANSWERS.sendLater);

	if (!options.verifyWithApi) {
		if (facts.duplicate === 'emitted' && options.dropDuplicates) {
			return answer(ANSWERS.duplicate, { log: LOGS.duplicate(type, signed) });
		}
		return start(facts, fields, unverified, {
			verified: false,
			summary: signed ? SUMMARIES.off : SUMMARIES.unsignedUnchecked,
		});
	}
	// Planned from everything the event carries: a type not documented yet names its objects in
	// fields the spec does not list.
	const plan = planVerification({ ...unverified, ...fields });
	const subjectState = plan.kind === 'reads' && plan.reads.some((r) => r.target === 'subject');
	if (facts.duplicate === 'emitted' && options.dropDuplicates && !subjectState) {
		return answer(ANSWERS.duplicate, { log: LOGS.duplicate(type, signed) });
	}
	if (plan.kind === 'invalid')
		return answer(ANSWERS.provenFalse, { log: LOGS.invalid(plan.reason, signed) });
	if (plan.kind === 'nothingToRead' || plan.kind === 'tooMany') {
		const summary =
			plan.kind === 'tooMany' ? SUMMARIES.tooMany(plan.count) : SUMMARIES.nothingToRead;
		return start(facts, fields, unverified, { verified: false, summary });
	}
	const rule = ruleFor(type);
	if (!facts.reads) {
		return {
			kind: 'read',
			reads: plan.reads,
			stopAtAbsent: rule.whenAbsent === 'provenFalse',
			// What only a read can vouch for gets the strangers' share of reads.
			stranger: !signed,
			effects: {},
		};
	}

	const findings = plan.reads.map((read, index) =>
		assess(read, facts.reads?.[index] ?? { kind: 'notRead' }, rule),
	);
	const found = verdict(plan.reads, findings, rule);
	const objects = plan.reads.map((read, index) => findingSummary(read, findings[index]));
	// Duplicates judged on what FacilitaPay says changed; an unsigned payload starts the workflow
	// once per state of its subject, whatever the options (anyone can send it again).
	const key = subjectState ? stateKey(facts, plan.reads, findings) : facts.payloadKey;
	const dropping = options.dropDuplicates || !signed;
	if (found.kind === 'deliver' || found.kind === 'verified') {
		if (dropping && key !== undefined && facts.emitted?.(key)) {
			return answer(ANSWERS.duplicate, { log: LOGS.duplicate(type, signed) });
		}
	}
	const remember = dropping ? key : undefined;
	switch (found.kind) {
		case 'provenFalse':
			return answer(ANSWERS.provenFalse, { log: LOGS.provenFalse(type, found.reason, signed) });
		case 'retry':
			return answer(ANSWERS.sendLater, { log: LOGS.retry(type, found.reason, signed) });
		case 'deliver':
			return start(
				facts,
				fields,
				unverified,
				{
					verified: false,
					summary: SUMMARIES.doubt(found.reason),
					api: apiObjects(plan.reads, findings),
					objects,
				},
				LOGS.deliveredUnverified(type, found.reason),
				remember ?? '',
			);
		case 'verified':
			return start(
				facts,
				fields,
				unverified,
				{
					verified: true,
					summary: SUMMARIES.verified,
					api: apiObjects(plan.reads, findings),
					objects,
				},
				undefined,
				remember ?? '',
			);
	}
}
