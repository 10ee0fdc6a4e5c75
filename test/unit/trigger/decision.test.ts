import type { IDataObject } from 'n8n-workflow';

import type { Decision, Facts, Received } from '../../../nodes/FacilitaPayTrigger/decision';
import { decide } from '../../../nodes/FacilitaPayTrigger/decision';
import type { ReadResult } from '../../../nodes/FacilitaPayTrigger/verification';
import { ANSWERS } from '../../../nodes/FacilitaPayTrigger/texts';

/*
 * The decision is pure: facts in, answer and item out. These tables are the rules of the trigger;
 * the webhook tests only check that n8n's side carries them out.
 */

const NOW = Date.parse('2025-06-02T10:30:00.000Z');
const SECRET = '3718';

function signed(fields: IDataObject): Received {
	return { kind: 'notification', notification: { secret: SECRET, ...fields } };
}

function facts(over: Partial<Facts> = {}): Facts {
	return {
		now: NOW,
		received: signed({ type: 'identified', transaction_id: 'tx-1' }),
		options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: false },
		events: ['*'],
		locked: false,
		secret: 'right',
		duplicate: 'new',
		...over,
	};
}

const found = (answer: unknown): ReadResult => ({ kind: 'found', answer });
const absent: ReadResult = { kind: 'absent', status: 404 };
const failed: ReadResult = { kind: 'failed', reason: 'HTTP 503' };
const notRead: ReadResult = { kind: 'notRead' };

/** Decides, and when the decision asks for reads, decides again with these results. */
function decideWith(input: Partial<Facts>, reads?: ReadResult[]): Decision {
	const first = decide(facts(input));
	if (first.kind !== 'read' || reads === undefined) return first;
	return decide(facts({ ...input, reads }));
}

type Outcome = 'verified' | 'deliver' | 'retry' | 'provenFalse';

function outcomeOf(decision: Decision): Outcome {
	if (decision.kind !== 'answer') throw new Error('asked for reads again');
	if (decision.item) return decision.item.verified === true ? 'verified' : 'deliver';
	if (decision.answer === ANSWERS.sendLater) return 'retry';
	if (decision.answer === ANSWERS.provenFalse) return 'provenFalse';
	throw new Error(`unexpected answer ${JSON.stringify(decision.answer)}`);
}

function itemOf(decision: Decision): IDataObject {
	if (decision.kind !== 'answer' || !decision.item) throw new Error('nothing started');
	return decision.item;
}

const tx = (id: string, status: string, more: IDataObject = {}) => ({
	id,
	status,
	value: '150.00',
	currency: 'BRL',
	...more,
});
const kycData = {
	id: 'sub-1',
	status: 'approved',
	social_name: 'Ana Souza',
	document_type: 'cpf',
	document_number: '39053344705',
};

describe('the principle, per event type: what the API says decides the answer', () => {
	const wire = { type: 'wire_created', wire_id: 'w-1', transaction_ids: ['t1', 't2', 't3'] };
	const canceledSubscription = {
		type: 'subscription_canceled',
		subscription: { id: 's-1', status: 'canceled', subject_id: 'p-1', canceled_by_payer: true },
	};
	const invoicePaid = {
		type: 'invoice_paid',
		invoice: { id: 'i-1', status: 'paid', subject_id: 'p-1', subscription_id: 's-1' },
	};
	it.each<[string, IDataObject | Received, ReadResult[], Outcome]>([
		[
			'identified, identified',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'verified',
		],
		[
			'identified, already wired',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'wired'))],
			'verified',
		],
		[
			'identified, still pending',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'retry',
		],
		[
			'identified, canceled since',
			{ type: 'identified', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'deliver',
		],
		[
			'identified, unknown to the API',
			{ type: 'identified', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		['identified, API down', { type: 'identified', transaction_id: 'tx-1' }, [failed], 'retry'],
		[
			'identified, not read in time',
			{ type: 'identified', transaction_id: 'tx-1' },
			[notRead],
			'retry',
		],
		[
			'payment_approved, identified',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'verified',
		],
		[
			'payment_approved before identification (pending)',
			{ type: 'payment_approved', transaction_id: 'tx-1', checkout_id: 'co-1' },
			[found(tx('tx-1', 'pending', { checkout_id: 'co-1' }))],
			'deliver',
		],
		[
			'payment_approved, another checkout',
			{ type: 'payment_approved', transaction_id: 'tx-1', checkout_id: 'co-1' },
			[found(tx('tx-1', 'identified', { checkout_id: 'co-2' }))],
			'deliver',
		],
		[
			'payment_approved, unknown',
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		[
			'payment_failed, canceled',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'verified',
		],
		[
			'payment_failed, pending',
			{ type: 'payment_failed', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'deliver',
		],
		[
			'payment_expired, canceled',
			{ type: 'payment_expired', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'canceled'))],
			'verified',
		],
		[
			'payment_refunded, identified',
			{ type: 'payment_refunded', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'identified'))],
			'deliver',
		],
		[
			'wire_created, all wired',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'wired')), found(tx('t3', 'exchanged'))],
			'verified',
		],
		[
			'wire_created, one pending',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'pending')), found(tx('t3', 'wired'))],
			'deliver',
		],
		['wire_created, one unknown', wire, [found(tx('t1', 'wired')), absent, notRead], 'provenFalse'],
		[
			'wire_created, some not read in time',
			wire,
			[found(tx('t1', 'wired')), found(tx('t2', 'wired')), notRead],
			'deliver',
		],
		['wire_created, none read', wire, [failed, failed, notRead], 'retry'],
		[
			'subscription_canceled, canceled',
			canceledSubscription,
			[found({ id: 's-1', status: 'canceled', subject_id: 'p-1' })],
			'verified',
		],
		[
			'subscription_canceled, of another subject',
			canceledSubscription,
			[found({ id: 's-1', status: 'canceled', subject_id: 'p-2' })],
			'provenFalse',
		],
		[
			'subscription_canceled, still active',
			canceledSubscription,
			[found({ id: 's-1', status: 'active', subject_id: 'p-1' })],
			'deliver',
		],
		['subscription_canceled, unknown', canceledSubscription, [absent], 'provenFalse'],
		[
			'subscription_activated, still pending',
			{ type: 'subscription_activated', subscription: { id: 's-1' } },
			[found({ id: 's-1', status: 'pending' })],
			'retry',
		],
		[
			'invoice_paid, paid in the list',
			invoicePaid,
			[
				found([
					{ id: 'i-0', status: 'paid' },
					{ id: 'i-1', status: 'paid', subject_id: 'p-1' },
				]),
			],
			'verified',
		],
		[
			'invoice_paid, not in the list',
			invoicePaid,
			[found([{ id: 'i-0', status: 'paid' }])],
			'deliver',
		],
		['invoice_paid, subscription unknown', invoicePaid, [absent], 'provenFalse'],
		[
			'invoice_paid, by its own ID, unknown (the path may take another ID)',
			{ type: 'invoice_paid', invoice: { id: 'i-1' } },
			[absent],
			'deliver',
		],
		[
			'subject_approved, approved',
			{ type: 'subject_approved', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'approved' })],
			'verified',
		],
		[
			'subject_approved, a company (unknown to /subject/people)',
			{ type: 'subject_approved', subject_id: 'c-1' },
			[absent],
			'deliver',
		],
		[
			'subject_approved, reproved since',
			{ type: 'subject_approved', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'reproved' })],
			'deliver',
		],
		[
			'subject_reproved, API down',
			{ type: 'subject_reproved', subject_id: 'p-1' },
			[failed],
			'retry',
		],
		[
			'document_required, any status',
			{ type: 'document_required', subject_id: 'p-1' },
			[found({ id: 'p-1', status: 'approved' })],
			'verified',
		],
		[
			'account_request_status, complete',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[found({ id: 'r-1', status: 'complete' })],
			'verified',
		],
		[
			'account_request_status, still processing',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[found({ id: 'r-1', status: 'processing' })],
			'deliver',
		],
		[
			'account_request_status, unknown',
			{ type: 'account_request_status', request_id: 'r-1', status: 'complete' },
			[absent],
			'provenFalse',
		],
		[
			'a type not documented yet, its transaction unknown',
			{ type: 'pix_qr_ready', transaction_id: 'tx-1' },
			[absent],
			'provenFalse',
		],
		[
			'a type not documented yet, its transaction found',
			{ type: 'pix_qr_ready', transaction_id: 'tx-1' },
			[found(tx('tx-1', 'pending'))],
			'verified',
		],
		[
			'KYC status payload, the API agrees',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, email: 'a@b.c' })],
			'verified',
		],
		[
			'KYC status payload, another status at the API',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, status: 'reproved' })],
			'retry',
		],
		[
			'KYC status payload, unknown to /subject/people',
			{ kind: 'kycStatus', subject: kycData },
			[absent],
			'retry',
		],
		[
			'KYC status payload, another document number',
			{ kind: 'kycStatus', subject: kycData },
			[found({ ...kycData, document_number: '70590071050' })],
			'provenFalse',
		],
	])('%s: %s', (_name, event, reads, expected) => {
		const received = 'kind' in event ? (event as Received) : signed(event);
		const secret = received.kind === 'kycStatus' ? 'none' : 'right';
		expect(outcomeOf(decideWith({ received, secret }, reads))).toBe(expected);
	});

	it('non_identified_bank_transaction names nothing to read: delivered unverified, no read', () => {
		const decision = decide(
			facts({
				received: signed({
					type: 'non_identified_bank_transaction',
					bank_transaction: { id: 'bt-1', value: '10.00' },
				}),
			}),
		);
		expect(itemOf(decision)).toMatchObject({
			verified: false,
			verification: { summary: expect.stringMatching(/names nothing/) },
		});
	});

	it('an event missing the ID it must carry is proven false without a read', () => {
		const decision = decide(facts({ received: signed({ type: 'identified' }) }));
		expect(decision).toMatchObject({
			kind: 'answer',
			answer: ANSWERS.provenFalse,
			effects: { countForgery: true },
		});
	});

	it('asks for one read per object, claiming the event while it is checked', () => {
		const decision = decide(
			facts({
				received: signed({ type: 'wire_created', wire_id: 'w', transaction_ids: ['a', 'b'] }),
			}),
		);
		expect(decision).toMatchObject({
			kind: 'read',
			reads: [
				{ target: 'transaction', id: 'a', index: 0 },
				{ target: 'transaction', id: 'b', index: 1 },
			],
			stopAtAbsent: true,
			effects: { claim: 'take' },
		});
	});

	it('a subject event does not stop at an unknown subject (it may be a company)', () => {
		const decision = decide(
			facts({ received: signed({ type: 'subject_approved', subject_id: 'c' }) }),
		);
		expect(decision).toMatchObject({ kind: 'read', stopAtAbsent: false });
	});
});

describe("the event's own data survives", () => {
	it('subscription_canceled keeps canceled_by_payer and the reason; the API object is added beside it', () => {
		const event = {
			type: 'subscription_canceled',
			subscription: {
				id: 's-1',
				status: 'canceled',
				subject_id: 'p-1',
				canceled_by_payer: true,
				canceled_reason: 'too expensive',
			},
		};
		const api = {
			id: 's-1',
			status: 'canceled',
			subject_id: 'p-1',
			value: '49.90',
			currency: 'BRL',
		};
		const item = itemOf(decideWith({ received: signed(event) }, [found(api)]));
		expect(item).toEqual({
			...event,
			subscriptionFromApi: api,
			verified: true,
			verification: {
				summary: expect.any(String),
				objects: [
					{ object: 'subscription', id: 's-1', found: true, status: 'canceled', confirms: true },
				],
			},
			receivedAt: new Date(NOW).toISOString(),
		});
	});

	it('fields the spec does not list are kept apart under unverifiedFields, nested ones too; the secret never appears', () => {
		const event = {
			type: 'payment_failed',
			transaction_id: 'tx-1',
			failure_reason: 'insufficient_funds',
			value: '9999.00',
		};
		const item = itemOf(decideWith({ received: signed(event) }, [found(tx('tx-1', 'canceled'))]));
		expect(item).toMatchObject({
			type: 'payment_failed',
			transaction_id: 'tx-1',
			transaction: tx('tx-1', 'canceled'),
			unverifiedFields: { failure_reason: 'insufficient_funds', value: '9999.00' },
			verified: true,
		});
		expect(item).not.toHaveProperty('value');
		expect(JSON.stringify(item)).not.toContain(SECRET);

		const nested = itemOf(
			decideWith(
				{
					received: signed({
						type: 'subscription_activated',
						subscription: { id: 's-1', status: 'active', next_charge_at: '2025-07-01' },
					}),
				},
				[found({ id: 's-1', status: 'active' })],
			),
		);
		expect(nested.subscription).toEqual({ id: 's-1', status: 'active' });
		expect(nested.unverifiedFields).toEqual({ subscription: { next_charge_at: '2025-07-01' } });
	});

	it('a wire read partly in time starts the workflow unverified, with the transactions read and null for the rest', () => {
		const item = itemOf(
			decideWith(
				{ received: signed({ type: 'wire_created', wire_id: 'w', transaction_ids: ['t1', 't2'] }) },
				[found(tx('t1', 'wired')), notRead],
			),
		);
		expect(item).toMatchObject({
			transaction_ids: ['t1', 't2'],
			transactions: [tx('t1', 'wired'), null],
			verified: false,
			verification: {
				summary: expect.stringMatching(/1 of 2 objects could not be read in time/),
				objects: [
					{ object: 'transaction', id: 't1', found: true, confirms: true },
					{ object: 'transaction', id: 't2', found: null, confirms: null },
				],
			},
		});
	});

	it('a card payment approved before it is identified starts the workflow, unverified, saying so', () => {
		const item = itemOf(
			decideWith({ received: signed({ type: 'payment_approved', transaction_id: 'tx-1' }) }, [
				found(tx('tx-1', 'pending')),
			]),
		);
		expect(item).toMatchObject({
			transaction: { status: 'pending', value: '150.00' },
			verified: false,
			verification: {
				summary:
					'Not confirmed: transaction tx-1 is still pending at FacilitaPay. Check before acting on money.',
			},
		});
	});

	it('a company subject event starts the workflow unverified, without a subject object', () => {
		const item = itemOf(
			decideWith({ received: signed({ type: 'subject_approved', subject_id: 'c-1' }) }, [absent]),
		);
		expect(item).toMatchObject({ subject_id: 'c-1', verified: false });
		expect(item).not.toHaveProperty('subject');
	});

	it('the KYC status payload, confirmed, keeps what was sent under data and the API subject under subject', () => {
		const sent = { ...kycData, extra: 'x' };
		const api = { ...kycData, clearance_level: 2 };
		const item = itemOf(
			decideWith({ received: { kind: 'kycStatus', subject: sent }, secret: 'none' }, [found(api)]),
		);
		expect(item).toMatchObject({
			type: 'kyc_status',
			subject_id: 'sub-1',
			status: 'approved',
			data: kycData,
			subject: api,
			unverifiedFields: { data: { extra: 'x' } },
			verified: true,
		});
	});
});

describe('answers before any read', () => {
	it.each<[string, Partial<Facts>, number, string]>([
		[
			'a body that is not JSON',
			{ received: { kind: 'bad', status: 400, message: 'The body is not JSON' } },
			400,
			'The body is not JSON',
		],
		[
			'neither a notification nor the KYC payload',
			{ received: { kind: 'unknown' } },
			401,
			ANSWERS.notFacilitaPay.message,
		],
		['a wrong secret', { secret: 'wrong' }, 401, ANSWERS.wrongSecret.message],
		['no secret stored', { secret: 'notStored' }, 401, ANSWERS.wrongSecret.message],
		['credentials unreadable', { secret: 'unavailable' }, 503, ANSWERS.sendLater.message],
		['no type', { received: signed({ transaction_id: 'tx-1' }) }, 400, ANSWERS.noType.message],
		['an event not chosen', { events: ['payment_failed'] }, 200, ANSWERS.notChosen.message],
		[
			'the same notification being checked',
			{ duplicate: 'checking' },
			503,
			ANSWERS.sendLater.message,
		],
		[
			'a duplicate with Drop Duplicates',
			{
				duplicate: 'emitted',
				options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true },
			},
			200,
			ANSWERS.duplicate.message,
		],
		[
			'an unsigned payload with Verify With API off',
			{
				received: { kind: 'kycStatus', subject: kycData },
				secret: 'none',
				options: { verifyWithApi: false, acceptUnsignedKycStatus: false, dropDuplicates: false },
			},
			401,
			ANSWERS.unsigned.message,
		],
	])('%s: %i', (_name, input, status, message) => {
		const decision = decide(facts(input));
		expect(decision).toMatchObject({ kind: 'answer', answer: { status, message } });
		expect(decision).not.toHaveProperty('item');
	});

	it('a wrong secret counts toward the lock; the one that starts it is answered 503 and logged', () => {
		expect(decide(facts({ secret: 'wrong' })).effects).toEqual({ countForgery: true });
		const locking = decide(facts({ secret: 'wrong', lockIfCounted: NOW + 600_000 }));
		expect(locking).toMatchObject({
			answer: ANSWERS.sendLater,
			effects: {
				countForgery: true,
				log: { level: 'warn', text: expect.stringMatching(/none is lost/) },
			},
		});
	});

	it('a duplicate without Drop Duplicates is read and started again (delivery is at least once)', () => {
		expect(decide(facts({ duplicate: 'emitted' })).kind).toBe('read');
	});

	it('Verify With API off: started unverified, saying so, with no read', () => {
		const item = itemOf(
			decide(
				facts({
					options: { verifyWithApi: false, acceptUnsignedKycStatus: false, dropDuplicates: false },
				}),
			),
		);
		expect(item).toMatchObject({
			verified: false,
			verification: { summary: expect.stringMatching(/Verify With API is off/) },
		});
	});

	it('the KYC status payload needs no option when Verify With API is on: it is read', () => {
		expect(
			decide(facts({ received: { kind: 'kycStatus', subject: kycData }, secret: 'none' })),
		).toMatchObject({
			kind: 'read',
			reads: [{ target: 'subject', id: 'sub-1' }],
		});
	});

	it('the KYC status payload follows the Events choice (kyc_status)', () => {
		const received: Received = { kind: 'kycStatus', subject: kycData };
		expect(decide(facts({ received, secret: 'none', events: ['subject_approved'] }))).toMatchObject(
			{
				answer: ANSWERS.notChosen,
			},
		);
		expect(decide(facts({ received, secret: 'none', events: ['kyc_status'] })).kind).toBe('read');
	});
});

describe('the guessing lock tells nothing', () => {
	const events: Received[] = [
		signed({ type: 'identified', transaction_id: 'tx-1' }),
		signed({
			type: 'wire_created',
			wire_id: 'w',
			transaction_ids: Array.from({ length: 30 }, (_, n) => `t${n}`),
		}),
		signed({ type: 'non_identified_bank_transaction', bank_transaction: { id: 'b' } }),
		signed({ type: 'subject_approved', subject_id: 'c-1' }),
		signed({ type: 'pix_qr_ready' }),
		signed({ transaction_id: 'no type' }),
		{ kind: 'kycStatus', subject: kycData },
	];
	const variants: Array<Partial<Facts>> = [
		{ secret: 'right' },
		{ secret: 'wrong' },
		{ secret: 'notStored' },
		{
			secret: 'right',
			duplicate: 'emitted',
			options: { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true },
		},
		{ secret: 'right', events: ['payment_failed'] },
		{
			secret: 'right',
			options: { verifyWithApi: false, acceptUnsignedKycStatus: true, dropDuplicates: false },
		},
		{ secret: 'right', reads: [found(tx('tx-1', 'identified'))] },
	];

	it('while locked, every kind of event gets the same status and body with a right or a wrong secret, and nothing is read or started', () => {
		const answers = new Set<string>();
		for (const received of events) {
			for (const variant of variants) {
				const decision = decide(facts({ received, locked: true, ...variant }));
				expect(decision).toEqual({ kind: 'answer', answer: ANSWERS.sendLater, effects: {} });
				answers.add(JSON.stringify(decision));
			}
		}
		expect(answers.size).toBe(1);
	});
});

describe('what counts toward the lock, and what Drop Duplicates remembers', () => {
	it('proven false counts; a signed doubt sent again does not; an unsigned one does', () => {
		const proven = decideWith({}, [absent]);
		expect(proven.effects).toMatchObject({ countForgery: true, claim: 'release' });
		const retry = decideWith({}, [found(tx('tx-1', 'pending'))]);
		expect(retry.effects).toMatchObject({ claim: 'release' });
		expect(retry.effects.countForgery).toBeUndefined();
		const unsigned = decideWith(
			{ received: { kind: 'kycStatus', subject: kycData }, secret: 'none' },
			[absent],
		);
		expect(unsigned.effects).toMatchObject({ countForgery: true, claim: 'release' });
	});

	it('a started event is remembered with Drop Duplicates, its claim released without', () => {
		const on = { verifyWithApi: true, acceptUnsignedKycStatus: false, dropDuplicates: true };
		expect(decideWith({ options: on }, [found(tx('tx-1', 'identified'))]).effects).toMatchObject({
			remember: true,
		});
		expect(decideWith({}, [found(tx('tx-1', 'identified'))]).effects).toMatchObject({
			claim: 'release',
		});
	});
});
