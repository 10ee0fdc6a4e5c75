import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	FacilitaPayTrigger,
	verifyWithApiOption,
} from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';

const description = new FacilitaPayTrigger().description;
const options = description.properties.find((p) => p.name === 'options')
	?.options as INodeProperties[];
const option = (name: string) => options.find((o) => o.name === name);

describe('Trigger options', () => {
	it('Verify With API is offered and on by default; Drop Duplicates off by default', () => {
		expect(option('verifyWithApi')).toMatchObject({ type: 'boolean', default: true });
		expect(option('dropDuplicates')).toMatchObject({ type: 'boolean', default: false });
	});

	it('Fetch Transaction (the old name) is shown only to workflows saved with version 1', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
		expect(option('fetchTransaction')?.displayOptions).toEqual({ show: { '@version': [1] } });
	});

	it.each<[number, boolean]>([
		[1, true],
		[1.1, false],
	])(
		'n8n keeps a saved fetchTransaction for version %s: %s (n8n-workflow getNodeParameters)',
		(typeVersion, kept) => {
			const parameters = { events: ['*'], options: { fetchTransaction: false } };
			const node = { name: 'FacilitaPay Trigger', typeVersion, parameters } as unknown as INode;
			const resolved = NodeHelpers.getNodeParameters(
				description.properties,
				parameters,
				false,
				false,
				node,
				description,
			);
			const saved = (resolved?.options ?? {}) as object;
			expect('fetchTransaction' in saved).toBe(kept);
			expect(verifyWithApiOption(saved)).toBe(!kept);
		},
	);

	it('options are sorted alphabetically by display name', () => {
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it.each<[string, object, boolean]>([
		['nothing saved (new and old workflows)', {}, true],
		['Verify With API off', { verifyWithApi: false }, false],
		['old Fetch Transaction on', { fetchTransaction: true }, true],
		['old Fetch Transaction off', { fetchTransaction: false }, false],
		['both: Verify With API decides', { fetchTransaction: false, verifyWithApi: true }, true],
	])('%s', (_name, saved, verify) => {
		expect(verifyWithApiOption(saved)).toBe(verify);
	});

	it('the notice says in two short sentences that one trigger per account receives, and links the docs for the rest', () => {
		const notice = description.properties.find((p) => p.name === 'notice');
		const text = String(notice?.displayName).replace(/<[^>]+>/g, '');
		expect(text.split(/(?<=\.) /)).toHaveLength(2);
		expect(text.length).toBeLessThanOrEqual(300);
		expect(text).toMatch(/one published trigger/);
		expect(notice?.displayName).toMatch(/docs\/trigger\.md#one-url-per-facilitapay-account/);
	});
});
