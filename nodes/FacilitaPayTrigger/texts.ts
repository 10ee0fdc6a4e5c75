/*
 * Every sentence the trigger writes: the answers FacilitaPay (or a forger) reads, the n8n log lines
 * and the messages of activation errors. Rules elsewhere decide; this module words.
 */

export const LOG = 'FacilitaPay Trigger';

export interface Answer {
	status: number;
	message: string;
}

/**
 * The answers. Every 2xx answer to a notification is the same `received`, whether it started the
 * workflow or not (not chosen, a duplicate, false, or under a secret FacilitaPay's records do not
 * list): what a request gets never tells whether its secret was right. Every answer that asks
 * FacilitaPay to send the notification again is the same `sendLater`, whatever the reason.
 */
const received = { status: 200, message: 'Received' };
export const ANSWERS = {
	received,
	started: received,
	notChosen: received,
	duplicate: received,
	provenFalse: received,
	sendLater: { status: 503, message: 'Not accepted now; send the notification again later' },
	notFacilitaPay: { status: 401, message: 'Not a FacilitaPay notification' },
	unsigned: { status: 401, message: 'Unsigned payloads are not accepted' },
	noType: { status: 400, message: 'The notification has no type' },
} as const satisfies Record<string, Answer>;

export type LogLine = { level: 'debug' | 'info' | 'warn' | 'error'; text: string };

export const LOGS = {
	noCredentials: (): LogLine => ({
		level: 'error',
		text: `${LOG}: a notification arrived but the trigger's FacilitaPay credentials could not be read, so its secret could not be checked; answered 503 (FacilitaPay sends it again later). Check the credentials of the trigger.`,
	}),
	senderGone: (): LogLine => ({
		level: 'warn',
		text: `${LOG}: a notification was checked after its sender had stopped waiting for the answer (n8n was busy), so nothing was started: FacilitaPay sends it again and the redelivery starts the workflow once.`,
	}),
	recordsUnread: (type: string): LogLine => ({
		level: 'warn',
		text: `${LOG}: a notification of type ${type} came with a secret this trigger does not hold (an earlier registration, or credentials changed since), and FacilitaPay's notification records, which settle it, could not be read in time; answered 503 so FacilitaPay sends it again later.`,
	}),
	unlisted: (): LogLine => ({
		level: 'debug',
		text: `${LOG}: a notification under a secret this trigger does not hold, which FacilitaPay's notification records do not list, started nothing.`,
	}),
	invalid: (reason: string, signed = true): LogLine => ({
		level: signed ? 'warn' : 'debug',
		text: `${LOG}: ${reason} started nothing (answered 200: it cannot be true).`,
	}),
	provenFalse: (type: string, reason: string, signed: boolean): LogLine => ({
		level: signed ? 'warn' : 'debug',
		text: `${LOG}: a notification of type ${type}${signed ? ' with the right secret' : ''} started nothing: ${reason}.${signed ? ' If this repeats, someone else may know the secret: unpublish and publish the workflow (deactivate and activate in n8n 1.x) to get a new one.' : ''}`,
	}),
	retry: (type: string, reason: string, signed = true): LogLine => ({
		level: signed ? 'warn' : 'debug',
		text: `${LOG}: a notification of type ${type} was not confirmed by FacilitaPay's API yet (${reason}); answered 503 so FacilitaPay sends it again later. If it never is, FacilitaPay lists it as failed: Notification → Get Many (Only Failed).`,
	}),
	deliveredUnverified: (type: string, reason: string): LogLine => ({
		level: 'info',
		text: `${LOG}: a notification of type ${type} started the workflow with verified: false (${reason}).`,
	}),
	duplicate: (type: string, signed = true): LogLine => ({
		level: signed ? 'info' : 'debug',
		text: `${LOG}: a notification of type ${type} identical to one received in the last 24 hours started nothing (Drop Duplicates)`,
	}),
};

/** The `verification.summary` of an item. */
export const SUMMARIES = {
	verified: 'Every object the event names was read from FacilitaPay and agrees with it.',
	off: 'Not checked: Verify With API is off. Only the secret vouches for this event.',
	nothingToRead:
		"Not checked: this event names nothing FacilitaPay's API can return. Only the secret vouches for it.",
	unsignedUnchecked:
		'Not checked: an unsigned KYC status payload accepted by the option Accept Unsigned KYC Status Payloads; anyone who knows the URL can send one.',
	tooMany: (count: number) =>
		`Not checked: this event names ${count} objects, more than the ${500} read for one event. Only the secret vouches for it.`,
	doubt: (reason: string) => `Not confirmed: ${reason}. Check before acting on money.`,
};

export const ERRORS = {
	testWouldTakeUrl: (where: string) => ({
		message: `"Listen for test event" would take this FacilitaPay account's notifications away from ${where}`,
		description:
			'FacilitaPay sends all notifications of an account to one URL, and n8n starts a test listening without what the active workflow registered, so the notifications would go to the test URL and stay there: production would receive nothing until the workflow is deactivated and activated again. Nothing was registered. To try the trigger, use the local sandbox (credentials pointing at it), or a second FacilitaPay account for testing; to look at real events, open a past execution of the active workflow.',
	}),
	noUrl: {
		message: 'n8n gave this trigger no webhook URL',
		description: 'Save the workflow and activate it again.',
	},
	noSecret: {
		message: 'FacilitaPay enabled notifications but returned no secret',
		description:
			'Without the secret, notifications cannot be told apart from forged ones, so the trigger was not activated. Activate the workflow again; if this persists, contact FacilitaPay.',
	},
};
