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
 * The answers. Every well-formed notification, under any secret or none, gets the same `received`
 * at once: what a request gets, and when, never tells whether its secret was right. Only a body
 * that is no notification at all is refused (nothing about a secret decides that).
 */
export const ANSWERS = {
	received: { status: 200, message: 'Received' },
	notFacilitaPay: { status: 401, message: 'Not a FacilitaPay notification' },
	noType: { status: 400, message: 'The notification has no type' },
	/**
	 * A KYC status payload (unsigned, maybe not in the log) that no reader of this process can take
	 * now (none runs here, as on a queue-mode webhook processor, or its subjects to check are full):
	 * FacilitaPay sends it again later, rather than a 200 that would drop a true one.
	 */
	kycNotTaken: { status: 503, message: 'Not taken now; send it again later' },
} as const satisfies Record<string, Answer>;

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
