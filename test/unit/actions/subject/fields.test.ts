// Pure rules of the Subject operations (the parameters the editor shows, the percentage-share
// rule), tested without running the node. Their effect on requests: test/engine/operations/subject.
import type { INodeProperties } from 'n8n-workflow';

import { FacilitaPay } from '../../../../nodes/FacilitaPay/FacilitaPay.node';
import { description as companyDescription } from '../../../../nodes/FacilitaPay/actions/subject/createCompany.operation';
import { checkPercentageShare } from '../../../../nodes/FacilitaPay/schemas/company';

describe('Subject: the fields the editor shows', () => {
	it('Address State is a text field with no default: adding it sends nothing until a state is typed', () => {
		const properties = new FacilitaPay().description.properties;
		const collections = properties.filter(
			(p) => p.name === 'additionalFields' || p.name === 'updateFields',
		);
		const states = collections
			.flatMap((collection) => (collection.options ?? []) as INodeProperties[])
			.filter((option) => option.name === 'addressState');
		expect(states.length).toBeGreaterThanOrEqual(2);
		for (const state of states) {
			expect(state.type).toBe('string');
			expect(state.default).toBe('');
		}
	});

	it('offers CNPJ, NIT, RFC and Tax ID as the company’s Document Type', () => {
		const field = companyDescription.find((property) => property.name === 'documentType');
		expect(field?.options?.map((option) => ('value' in option ? option.value : ''))).toEqual([
			'cnpj',
			'nit',
			'rfc',
			'tax_id',
		]);
	});
});

describe('checkPercentageShare', () => {
	it.each<[string | number, string]>([
		['50', '50'],
		[50, '50'],
		['33.33', '33.33'],
		['100', '100'],
		['25%', '25'],
		['050', '50'],
	])('%p is sent as %p', (raw, expected) => {
		expect(checkPercentageShare(raw)).toEqual({ ok: true, value: expected });
	});

	it.each<string | number>(['0', '100.01', '-5', '50,5', 'half', '', 33.333])(
		'%p is refused',
		(raw) => {
			expect(checkPercentageShare(raw).ok).toBe(false);
		},
	);
});
