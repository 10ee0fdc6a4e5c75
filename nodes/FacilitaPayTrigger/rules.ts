/*
 * The principle, per event type (docs/trigger.md has the same table in words).
 *
 * A notification that starts nothing is answered 2xx only when it is PROVEN FALSE: an object it
 * names does not exist in this account, or the API's money fields (value, currency, subject)
 * disagree with it. Any other doubt either asks FacilitaPay to send it again (`retry`: a non-2xx
 * answer; after its redeliveries FacilitaPay lists it as failed, for catch-up), or starts the
 * workflow with `verified: false` and a `verification` that says what was and was not confirmed
 * (`deliver`). Which one, per event type and per kind of doubt, is this table.
 */

/** What a doubt leads to: sent again later (non-2xx), or delivered with `verified: false`. */
export type Doubt = 'retry' | 'deliver';

export interface EventRule {
	/** Statuses of the object read that confirm the event (undefined: any status, existing is enough). */
	confirms?: readonly string[];
	/** Statuses that come before the event: FacilitaPay's API has not caught up with it yet. */
	before?: readonly string[];
	/** The API shows a status from `before`. */
	whenBefore: Doubt;
	/** The API shows a status neither confirming nor before (the object moved on, or the spec is silent). */
	whenOther: Doubt;
	/** The API does not know the object: proof, unless the object may live where the trigger cannot read. */
	whenAbsent: 'provenFalse' | Doubt;
	/** No read succeeded (FacilitaPay down, too slow, 429 until the deadline). */
	whenUnread: Doubt;
	/** Only some objects of a list (wires, exchanges) could be read in time. */
	whenPartlyRead: Doubt;
}

/** A transaction moving money in: identified, or later steps of the same money. */
const MONEY_IN = ['identified', 'exchanged', 'wired'] as const;
/**
 * A transaction that an exchange or wire picked up: the statuses public clients show past pending
 * (`sent` and `waiting_correction` are wire states in no public source, not transaction statuses).
 */
const PICKED_UP = MONEY_IN;

const transaction = (rule: Partial<EventRule>): EventRule => ({
	whenBefore: 'deliver',
	whenOther: 'deliver',
	whenAbsent: 'provenFalse',
	whenUnread: 'retry',
	whenPartlyRead: 'retry',
	...rule,
});

const subject = (confirms?: readonly string[]): EventRule => ({
	confirms,
	whenBefore: 'deliver',
	whenOther: 'deliver',
	// Companies are subjects too, and no endpoint reads one: unknown to /subject/people is no proof.
	whenAbsent: 'deliver',
	whenUnread: 'retry',
	whenPartlyRead: 'retry',
});

export const RULES: Readonly<Record<string, EventRule>> = {
	// The spec names `identified` as the status this event reports: a pending one is read too early.
	identified: transaction({ confirms: MONEY_IN, before: ['pending'], whenBefore: 'retry' }),
	// The spec does not say when an approved card payment becomes `identified`: redelivery might
	// never settle it, so it is delivered, unverified, with the status the API shows.
	payment_approved: transaction({ confirms: MONEY_IN, before: ['pending'] }),
	payment_failed: transaction({ confirms: ['canceled'], before: ['pending'] }),
	payment_expired: transaction({ confirms: ['canceled'], before: ['pending'] }),
	// Names the original payment (public connector), which is not necessarily canceled after a
	// refund: a money-in status or canceled confirms it; pending is read too early.
	payment_refunded: transaction({ confirms: [...MONEY_IN, 'canceled'], before: ['pending'] }),
	exchange_created: transaction({
		confirms: PICKED_UP,
		before: ['pending'],
		whenPartlyRead: 'deliver',
	}),
	wire_created: transaction({
		confirms: PICKED_UP,
		before: ['pending'],
		whenPartlyRead: 'deliver',
	}),
	wire_waiting_correction: transaction({
		confirms: PICKED_UP,
		before: ['pending'],
		whenPartlyRead: 'deliver',
	}),
	subscription_activated: transaction({
		confirms: ['active'],
		before: ['pending'],
		whenBefore: 'retry',
	}),
	subscription_canceled: transaction({ confirms: ['canceled'] }),
	subscription_completed: transaction({ confirms: ['completed'], before: ['active'] }),
	invoice_paid: transaction({ confirms: ['paid'] }),
	subject_approved: subject(['approved']),
	subject_reproved: subject(['reproved']),
	document_required: subject(),
	subject_account_authorization: subject(),
	account_request_status: transaction({}),
	// The unsigned KYC status payload: anyone who knows the URL can send one, so nothing of it is
	// delivered unless the API agrees; every doubt is sent again (and counts toward the lock).
	kyc_status: {
		whenBefore: 'retry',
		whenOther: 'retry',
		whenAbsent: 'retry',
		whenUnread: 'retry',
		whenPartlyRead: 'retry',
	},
};

/** Types FacilitaPay has not documented yet: read what their IDs name; a missing object is proof. */
export const UNKNOWN_TYPE_RULE: EventRule = transaction({});

export function ruleFor(type: string): EventRule {
	// Own keys only: a type named `constructor` or `toString` is an unknown type, not a prototype's.
	return Object.prototype.hasOwnProperty.call(RULES, type) ? RULES[type] : UNKNOWN_TYPE_RULE;
}
