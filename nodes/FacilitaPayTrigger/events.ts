import type { INodePropertyOptions } from 'n8n-workflow';

/** The value of the "All Events" choice: every notification, including types this node does not know yet. */
export const ALL_EVENTS = '*';

export type EventGroup = 'subject' | 'subscription' | 'transaction';

export interface EventType {
	value: string;
	name: string;
	group: EventGroup;
	/** When FacilitaPay sends it, in plain words (shown under the option). */
	description: string;
}

/** Every notification type FacilitaPay documents (see the Events section of the spec). */
export const EVENT_TYPES: readonly EventType[] = [
	{
		value: 'identified',
		name: 'Identified',
		group: 'transaction',
		description:
			'Money arrived in your account (or enough balance exists for a payout or conversion). Usually the first notification of a transaction.',
	},
	{
		value: 'exchange_created',
		name: 'Exchange Created',
		group: 'transaction',
		description:
			'A currency conversion was created for one or more identified transactions (carries the exchange ID and transaction IDs)',
	},
	{
		value: 'wire_created',
		name: 'Wire Created',
		group: 'transaction',
		description:
			"Money left FacilitaPay to the customer's or your international bank account (carries the wire ID and transaction IDs)",
	},
	{
		value: 'payment_approved',
		name: 'Payment Approved',
		group: 'transaction',
		description:
			'A card payment was approved (with the checkout ID when paid on a hosted checkout page)',
	},
	{
		value: 'payment_failed',
		name: 'Payment Failed',
		group: 'transaction',
		description:
			'A card payment was declined. On a hosted checkout page this comes for every failed attempt.',
	},
	{
		value: 'wire_waiting_correction',
		name: 'Wire Waiting Correction',
		group: 'transaction',
		description:
			"A wire could not be sent because of the receiver's bank account details (error code and description included). Fix them with the wire's Update Bank Account.",
	},
	{
		value: 'payment_expired',
		name: 'Payment Expired',
		group: 'transaction',
		description: 'A dynamic PIX QR code (or a dynamic CLABE transaction) was not paid in time',
	},
	{
		value: 'payment_refunded',
		name: 'Payment Refunded',
		group: 'transaction',
		description:
			"A dynamic PIX was paid from someone else's account while third-party payments are refused, so the payer got the money back",
	},
	{
		value: 'non_identified_bank_transaction',
		name: 'Non-Identified Bank Transaction',
		group: 'transaction',
		description:
			'An unregistered payer sent money to your account. Register the payer within two business days or the money is returned.',
	},
	{
		value: 'subscription_activated',
		name: 'Subscription Activated',
		group: 'subscription',
		description: 'The first invoice of a subscription was processed and the subscription is active',
	},
	{
		value: 'subscription_canceled',
		name: 'Subscription Canceled',
		group: 'subscription',
		description:
			'A subscription was canceled by you, by the payer, or automatically after its retries ran out',
	},
	{
		value: 'subscription_completed',
		name: 'Subscription Completed',
		group: 'subscription',
		description: 'All cycles of a subscription were processed and every invoice was paid',
	},
	{
		value: 'invoice_paid',
		name: 'Invoice Paid',
		group: 'subscription',
		description: 'An invoice of a subscription was paid',
	},
	{
		value: 'subject_approved',
		name: 'Subject Approved',
		group: 'subject',
		description: "A customer's registration (KYC) was approved, or approved again",
	},
	{
		value: 'subject_reproved',
		name: 'Subject Reproved',
		group: 'subject',
		description:
			'A customer reached their transaction limit or had documents rejected (reasons listed in items); their payments are held',
	},
	{
		value: 'document_required',
		name: 'Document Required',
		group: 'subject',
		description:
			'FacilitaPay asks for more documents from a customer without changing their approval',
	},
	{
		value: 'subject_account_authorization',
		name: 'Subject Account Authorization',
		group: 'subject',
		description:
			'FacilitaPay approved or reproved a request to open a bank account for a customer (with the reason if reproved)',
	},
	{
		value: 'account_request_status',
		name: 'Account Request Status',
		group: 'subject',
		description: 'A bank account request finished (status complete)',
	},
	{
		value: 'kyc_status',
		name: 'KYC Status (Unsigned Payload)',
		group: 'subject',
		description:
			"FacilitaPay's KYC status payload: a customer's registration data and status, sent without a secret. Starts the workflow only when FacilitaPay's API shows the same status.",
	},
];

/** What n8n's node picker lists under Triggers for an event ("On payment approved"): acronyms kept. */
function actionOf({ value, name }: EventType): string {
	if (value === 'identified') return 'On money identified';
	if (value === 'kyc_status') return 'On KYC status payload (unsigned)';
	const words = name
		.split(' ')
		.map((word) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()));
	return `On ${words.join(' ')}`;
}

/** The Events choice: "All Events" first, then every known type sorted by name. */
export const eventOptions: INodePropertyOptions[] = [
	{
		name: 'All Events',
		value: ALL_EVENTS,
		action: 'On any event',
		description:
			'Every notification, including types FacilitaPay adds later that this node does not list yet',
	},
	...[...EVENT_TYPES]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map((event) => ({
			name: event.name,
			value: event.value,
			description: event.description,
			action: actionOf(event),
		})),
];

/** Whether a notification of this type should start the workflow, given the Events choice. */
export function isEventSelected(type: string, selected: unknown): boolean {
	if (!Array.isArray(selected)) return false;
	if (selected.includes(ALL_EVENTS)) return true;
	return selected.includes(type);
}
