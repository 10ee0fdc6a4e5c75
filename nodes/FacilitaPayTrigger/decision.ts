import type { IDataObject } from 'n8n-workflow';

import type { DuplicateState } from './duplicates';
import { isEventSelected } from './events';
import { eventData, kycStatusEvent, KYC_STATUS_TYPE } from './notification';
import type { Answer, LogLine } from './texts';
import { ANSWERS, LOGS, SUMMARIES } from './texts';
import type { Finding, Read, ReadResult } from './verification';
import { assess, findingSummary, planVerification, ruleFor, verdict } from './verification';

/*
 * The decision: what to answer to one request and what to start, from what the request carries,
 * what the trigger stored and what the API said. Pure: no n8n, no I/O, no clock (the time is a
 * fact). Every rule lives here once: the guessing lock, the secret, the Events choice, duplicates,
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
	/** The guessing lock is on (20 wrong secrets or proven-false events within 10 minutes). */
	locked: boolean;
	/** When one more forgery starts the lock: until when it would last. */
	lockIfCounted?: number;
	/**
	 * The secret of a notification compared with the stored one (`none`: an unsigned payload;
	 * `unavailable`: the credentials, which key the stored secret, could not be read).
	 */
	secret: 'right' | 'wrong' | 'notStored' | 'none' | 'unavailable';
	/** Whether this very event started the workflow lately, is being checked, or is new. */
	duplicate: DuplicateState;
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
	/** Count a forgery toward the guessing lock. */
	countForgery?: boolean;
	/** `take`: claim the event while it is checked; `release`: give the claim up. */
	claim?: 'take' | 'release';
	/** Remember the event as emitted (Drop Duplicates). */
	remember?: boolean;
	log?: LogLine;
}

export type Decision =
	/** Read these objects, then decide again with what came back. */
	| { kind: 'read'; reads: Read[]; stopAtAbsent: boolean; effects: Effects }
	| { kind: 'answer'; answer: Answer; item?: IDataObject; effects: Effects };

function answer(reply: Answer, effects: Effects = {}): Decision {
	return { kind: 'answer', answer: reply, effects };
}

/** A forgery (wrong secret, proven-false event): counted; the one that starts the lock gets 503. */
function forgery(facts: Facts, reply: Answer, effects: Effects = {}): Decision {
	if (facts.lockIfCounted !== undefined) {
		return answer(ANSWERS.sendLater, {
			...effects,
			countForgery: true,
			log: LOGS.lockStarted(facts.lockIfCounted),
		});
	}
	return answer(reply, { ...effects, countForgery: true });
}

function start(
	facts: Facts,
	fields: IDataObject,
	unverified: IDataObject | undefined,
	verification: { verified: boolean; summary: string; api?: IDataObject; objects?: IDataObject[] },
	log?: LogLine,
): Decision {
	const item: IDataObject = { ...fields, ...verification.api };
	if (unverified) item.unverifiedFields = unverified;
	item.verified = verification.verified;
	item.verification = {
		summary: verification.summary,
		...(verification.objects ? { objects: verification.objects } : {}),
	};
	if (facts.headers) item.headers = facts.headers;
	item.receivedAt = new Date(facts.now).toISOString();
	return {
		kind: 'answer',
		answer: ANSWERS.started,
		item,
		effects: facts.options.dropDuplicates ? { remember: true, log } : { claim: 'release', log },
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

/** What to answer and start for one request. Called again with `reads` when it asked for them. */
export function decide(facts: Facts): Decision {
	const { received, options } = facts;
	if (received.kind === 'bad')
		return answer({ status: received.status, message: received.message });
	if (received.kind === 'unknown') return answer(ANSWERS.notFacilitaPay);

	// The lock, before the secret is even compared: every request gets the same answer.
	if (facts.locked) return answer(ANSWERS.sendLater);
	// Too late to answer: the redelivery will be handled instead (nothing read, nothing started).
	if (facts.senderGone) {
		return answer(
			ANSWERS.sendLater,
			facts.reads ? { claim: 'release', log: LOGS.senderGone() } : {},
		);
	}

	if (facts.secret === 'unavailable') {
		return answer(ANSWERS.sendLater, { log: LOGS.noCredentials() });
	}
	const signed = received.kind === 'notification';
	if (signed) {
		if (facts.secret === 'notStored') {
			return answer(ANSWERS.wrongSecret, { log: LOGS.noSecretStored() });
		}
		if (facts.secret !== 'right') return forgery(facts, ANSWERS.wrongSecret);
	} else if (!options.verifyWithApi && !options.acceptUnsignedKycStatus) {
		return answer(ANSWERS.unsigned);
	}

	const event = signed ? received.notification : kycStatusEvent(received.subject);
	const { fields, unverified } = eventData(event);
	const type = fields.type;
	if (typeof type !== 'string' || type === '') return answer(ANSWERS.noType);
	const chosen =
		isEventSelected(type, facts.events) ||
		(type === KYC_STATUS_TYPE && options.acceptUnsignedKycStatus);
	if (!chosen) return answer(ANSWERS.notChosen);

	// An identical notification being checked right now (a redelivery overlapping a slow check):
	// sent again later, so that it starts nothing now and is not lost if the first one fails.
	if (facts.duplicate === 'checking') return answer(ANSWERS.sendLater);
	if (facts.duplicate === 'emitted' && options.dropDuplicates) {
		return answer(ANSWERS.duplicate, { log: LOGS.duplicate(type) });
	}

	if (!options.verifyWithApi) {
		return start(facts, fields, unverified, {
			verified: false,
			summary: signed ? SUMMARIES.off : SUMMARIES.unsignedUnchecked,
		});
	}
	// Planned from everything the event carries: a type not documented yet names its objects in
	// fields the spec does not list.
	const plan = planVerification({ ...unverified, ...fields });
	if (plan.kind === 'invalid') {
		return forgery(facts, ANSWERS.provenFalse, { log: LOGS.invalid(plan.reason) });
	}
	if (plan.kind === 'nothingToRead') {
		return start(facts, fields, unverified, { verified: false, summary: SUMMARIES.nothingToRead });
	}
	const rule = ruleFor(type);
	if (!facts.reads) {
		return {
			kind: 'read',
			reads: plan.reads,
			stopAtAbsent: rule.whenAbsent === 'provenFalse',
			effects: { claim: 'take' },
		};
	}

	const findings = plan.reads.map((read, index) =>
		assess(read, facts.reads?.[index] ?? { kind: 'notRead' }, rule),
	);
	const found = verdict(plan.reads, findings, rule);
	const objects = plan.reads.map((read, index) => findingSummary(read, findings[index]));
	switch (found.kind) {
		case 'provenFalse':
			return forgery(facts, ANSWERS.provenFalse, {
				claim: 'release',
				log: LOGS.provenFalse(type, found.reason, signed),
			});
		case 'retry':
			// An unsigned payload the API does not confirm counts as a forgery: anyone can send one.
			return signed
				? answer(ANSWERS.sendLater, { claim: 'release', log: LOGS.retry(type, found.reason) })
				: forgery(facts, ANSWERS.sendLater, {
						claim: 'release',
						log: LOGS.retry(type, found.reason),
					});
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
			);
		case 'verified':
			return start(facts, fields, unverified, {
				verified: true,
				summary: SUMMARIES.verified,
				api: apiObjects(plan.reads, findings),
				objects,
			});
	}
}
