import { duplicateKey } from '../../../nodes/FacilitaPayTrigger/duplicates';

describe('Drop Duplicates: what makes two notifications the same event', () => {
	const base = {
		type: 'subject_reproved',
		subject_id: 's-1',
		reason: 'documents',
		items: ['proof_of_address_missing', 'old_tax_declaration'],
		secret: '3718',
	};

	it('a redelivery is the same event, whatever secret it carries and in whatever order its lists come', () => {
		expect(duplicateKey({ ...base, secret: '0042' })).toBe(duplicateKey(base));
		expect(duplicateKey({ ...base, items: [...base.items].reverse() })).toBe(duplicateKey(base));
	});

	it.each<[string, Record<string, unknown>]>([
		['another item', { items: ['proof_of_address_rejected'] }],
		['another reason', { reason: 'limit' }],
		['another status', { status: 'approved' }],
		['another required document', { required_documents: ['proof_of_address'] }],
		['another error code', { error_code: 'AC14' }],
		['another account', { bank_account_id: 'ba-2' }],
		['a field the spec does not list', { failure_reason: 'x' }],
	])('%s is another event', (_name, change) => {
		expect(duplicateKey({ ...base, ...change })).not.toBe(duplicateKey(base));
	});
});
