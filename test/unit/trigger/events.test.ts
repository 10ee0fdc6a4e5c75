import codex from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node.json';
import pkg from '../../../package.json';
import {
	EVENT_TYPES,
	eventOptions,
	isEventSelected,
} from '../../../nodes/FacilitaPayTrigger/events';
import { FacilitaPayTrigger } from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';

const SPEC_EVENTS = [
	'identified',
	'exchange_created',
	'wire_created',
	'payment_approved',
	'payment_failed',
	'wire_waiting_correction',
	'payment_expired',
	'payment_refunded',
	'non_identified_bank_transaction',
	'subscription_activated',
	'subscription_canceled',
	'subscription_completed',
	'invoice_paid',
	'subject_approved',
	'subject_reproved',
	'document_required',
	'subject_account_authorization',
	'account_request_status',
	// The KYC status payload of the spec (a subject in "data", no secret), named by the trigger.
	'kyc_status',
];

describe('Events choice', () => {
	it('offers All Events first, then every event type of the spec with a description', () => {
		expect(eventOptions[0]).toMatchObject({ name: 'All Events', value: '*' });
		const values = eventOptions.slice(1).map((option) => option.value);
		expect([...values].sort()).toEqual([...SPEC_EVENTS].sort());
		for (const option of eventOptions)
			expect(String(option.description).length).toBeGreaterThan(20);
	});

	it('lists the event types alphabetically by name', () => {
		const names = eventOptions.slice(1).map((option) => option.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('is the Events parameter of the node, with All Events as default', () => {
		const events = new FacilitaPayTrigger().description.properties.find((p) => p.name === 'events');
		expect(events?.type).toBe('multiOptions');
		expect(events?.options).toBe(eventOptions);
		expect(events?.default).toEqual(['*']);
	});

	it('every known type belongs to a group', () => {
		expect(new Set(EVENT_TYPES.map((event) => event.group))).toEqual(
			new Set(['transaction', 'subscription', 'subject']),
		);
	});

	it.each<[string, string, unknown, boolean]>([
		['a chosen type', 'payment_approved', ['payment_approved', 'payment_failed'], true],
		['a type not chosen', 'identified', ['payment_approved'], false],
		['any type with All Events', 'identified', ['*'], true],
		['a type the node does not know, with All Events', 'pix_qr_code_ready', ['*'], true],
		[
			'a type the node does not know, without All Events',
			'pix_qr_code_ready',
			['identified'],
			false,
		],
		['nothing chosen', 'identified', [], false],
		['a broken parameter', 'identified', 'identified', false],
	])('%s', (_name, type, selected, result) => {
		expect(isEventSelected(type, selected)).toBe(result);
	});
});

describe('node registration', () => {
	it('is listed in package.json and its codex is in the Finance & Accounting category', () => {
		expect(pkg.n8n.nodes).toContain('dist/nodes/FacilitaPayTrigger/FacilitaPayTrigger.node.js');
		expect(codex.node).toBe('n8n-nodes-facilitapay.facilitaPayTrigger');
		expect(codex.categories).toEqual(['Finance & Accounting']);
	});
});
