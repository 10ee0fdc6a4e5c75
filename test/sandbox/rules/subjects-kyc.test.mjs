// The subject approval status and the 20k USD annual rule, called on their own (no HTTP, no clock).
import {
	ANNUAL_LIMIT_USD_CENTS,
	KYC_STATUSES,
	annualUsdCents,
	approveSubject,
	documentAdded,
	kycTransition,
	paymentClearance,
	releaseHeldTransactions,
	reproveForAnnualLimit,
	reproveSubject,
} from '../../../sandbox/domain/subjects/kyc.mjs';
import { missingMandatory } from '../../../sandbox/domain/subjects/documents.mjs';

const NOW = '2026-05-20T10:00:00Z';
const document = (labels, status = 'pending_analysis') => ({ labels, status });
const BOTH_MANDATORY = [document(['address-proof']), document(['revenue-tax-declaration'])];
const subjectWith = (fields = {}) => ({
	id: 'subject-1',
	status: 'approved',
	clearance_level: 1,
	required_clearance_level: 1,
	documents: [],
	...fields,
});

describe('KYC transitions', () => {
	test.each([
		['approved', 'annual_limit_reached', 'reproved'],
		['reproved', 'annual_limit_reached', null],
		['waiting_approval', 'annual_limit_reached', null],
		['approved', 'documents_rejected', 'reproved'],
		['reproved', 'documents_rejected', 'reproved'],
		['waiting_approval', 'documents_rejected', 'reproved'],
		['reproved', 'document_added', 'waiting_approval'],
		['approved', 'document_added', null],
		['waiting_approval', 'document_added', null],
		['approved', 'approval_granted', 'approved'],
		['reproved', 'approval_granted', 'approved'],
		['waiting_approval', 'approval_granted', 'approved'],
	])('%s + %s → %s (null: refused, the status stays)', (status, event, next) => {
		expect(kycTransition(status, event)).toBe(next);
	});

	test('an unknown event is a programming error', () => {
		expect(() => kycTransition('approved', 'promoted')).toThrow('unknown KYC event: promoted');
	});

	test('every status has an answer for approval and rejection', () => {
		for (const status of KYC_STATUSES) {
			expect(kycTransition(status, 'approval_granted')).toBe('approved');
			expect(kycTransition(status, 'documents_rejected')).toBe('reproved');
		}
	});

	test.each([
		['reproved', 'waiting_approval'],
		['approved', 'approved'],
		['waiting_approval', 'waiting_approval'],
	])('a document uploaded by a %s subject leaves it %s', (status, expected) => {
		const subject = subjectWith({ status });
		documentAdded(subject, NOW);
		expect(subject).toMatchObject({ status: expected, updated_at: NOW });
	});

	test('approval reaches the required clearance level and approves the documents under analysis', () => {
		const subject = subjectWith({
			status: 'reproved',
			required_clearance_level: 2,
			documents: [document(['address-proof']), document(['old'], 'rejected')],
		});
		approveSubject(subject, NOW);
		expect(subject).toMatchObject({ status: 'approved', clearance_level: 2, updated_at: NOW });
		expect(subject.documents.map((doc) => doc.status)).toEqual(['approved', 'rejected']);
	});

	test('rejection reproves, rejects the documents under analysis and names the items (proof of address by default)', () => {
		const subject = subjectWith({ documents: [document(['address-proof'])] });
		expect(reproveSubject(subject, {}, NOW)).toEqual({
			subject_id: 'subject-1',
			items: ['proof_of_address_rejected'],
		});
		expect(subject.status).toBe('reproved');
		expect(subject.documents[0].status).toBe('rejected');
		expect(
			reproveSubject(subjectWith(), { items: ['old_tax_declaration'], reason: 'expired' }, NOW),
		).toEqual({ subject_id: 'subject-1', items: ['old_tax_declaration'], reason: 'expired' });
	});
});

describe('the 20k USD annual rule', () => {
	const transaction = (value, currency, fields = {}) => ({
		id: `t-${value}-${currency}`,
		subject_id: 'subject-1',
		status: 'identified',
		inserted_at: '2026-03-01T12:00:00Z',
		value,
		currency,
		...fields,
	});

	test('counts the funds moved this year by the subject, in USD at the sandbox rates', () => {
		const transactions = [
			transaction('100.00', 'USD'),
			transaction('500.00', 'BRL', { status: 'exchanged' }), // 100.00 USD
			transaction('10.00', 'USD', { status: 'wired' }),
			transaction('999.00', 'USD', { status: 'pending' }),
			transaction('999.00', 'USD', { status: 'canceled' }),
			transaction('999.00', 'USD', { inserted_at: '2025-12-31T23:59:59Z' }),
			transaction('999.00', 'USD', { subject_id: 'someone-else' }),
		];
		expect(annualUsdCents('subject-1', transactions, '2026')).toBe(21000n);
	});

	test.each([
		['below the limit', ANNUAL_LIMIT_USD_CENTS - 1n, [], { cleared: true }],
		[
			'at the limit, both mandatory documents',
			ANNUAL_LIMIT_USD_CENTS,
			BOTH_MANDATORY,
			{ cleared: true },
		],
		[
			'at the limit, no document',
			ANNUAL_LIMIT_USD_CENTS,
			[],
			{
				cleared: false,
				reproval: {
					items: ['proof_of_address_missing', 'tax_declaration_insufficient'],
					required_documents: ['proof_of_address', 'revenue_tax_declaration'],
				},
			},
		],
		[
			'above the limit, the proof of address rejected',
			ANNUAL_LIMIT_USD_CENTS + 1n,
			[document(['address-proof'], 'rejected'), document(['revenue-tax-declaration'])],
			{
				cleared: false,
				reproval: { items: ['proof_of_address_missing'], required_documents: ['proof_of_address'] },
			},
		],
	])('an approved subject %s → %p', (_case, annual, documents, expected) => {
		expect(paymentClearance(subjectWith({ documents }), annual)).toEqual(expected);
	});

	test.each(['reproved', 'waiting_approval'])(
		'a %s subject’s payment is held, whatever the amount, without a new reproval',
		(status) => {
			expect(paymentClearance(subjectWith({ status }), 0n)).toEqual({ cleared: false });
		},
	);

	test('the limit is 20 000.00 USD', () => {
		expect(ANNUAL_LIMIT_USD_CENTS).toBe(2000000n);
	});

	test('reaching it reproves the subject and requires clearance level 2', () => {
		const subject = subjectWith();
		reproveForAnnualLimit(subject, NOW);
		expect(subject).toMatchObject({
			status: 'reproved',
			required_clearance_level: 2,
			clearance_level: 1,
			updated_at: NOW,
		});
	});

	test('missing mandatory documents are found by label, any document holding several', () => {
		expect(
			missingMandatory(
				subjectWith({ documents: [document(['address-proof', 'revenue-tax-declaration'])] }),
			),
		).toEqual([]);
		expect(missingMandatory(subjectWith()).map((mandatory) => mandatory.label)).toEqual([
			'address-proof',
			'revenue-tax-declaration',
		]);
	});

	test('approval releases the subject’s held transactions, not canceled or other subjects’ ones', () => {
		const transactions = [
			{ id: 'held', subject_id: 'subject-1', cleared: false, status: 'pending' },
			{ id: 'cleared', subject_id: 'subject-1', cleared: true, status: 'pending' },
			{ id: 'canceled', subject_id: 'subject-1', cleared: false, status: 'canceled' },
			{ id: 'other', subject_id: 'subject-2', cleared: false, status: 'pending' },
		];
		expect(releaseHeldTransactions('subject-1', transactions)).toEqual(['held']);
		expect(transactions.map((t) => t.cleared)).toEqual([true, true, false, false]);
	});
});
