import type { IDataObject, INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import {
	attachObjectsOption,
	FacilitaPayTrigger,
} from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';

const description = new FacilitaPayTrigger().description;
const options = description.properties.find((p) => p.name === 'options')
	?.options as INodeProperties[];
const option = (name: string) => options.find((o) => o.name === name);

/** The options n8n keeps for a node of this version with these saved options. */
function resolved(typeVersion: number, saved: IDataObject): IDataObject {
	const parameters = { events: ['*'], options: saved } as INodeParameters;
	const node = { name: 'FacilitaPay Trigger', typeVersion, parameters } as unknown as INode;
	const result = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		false,
		false,
		node,
		description,
	);
	return (result?.options ?? {}) as IDataObject;
}

describe('Trigger options', () => {
	it('version 2 is the default: the log decides; Attach Current Objects is offered, off by default', () => {
		expect(description.version).toEqual([1, 1.1, 2]);
		expect(description.defaultVersion).toBe(2);
		expect(option('attachObjects')).toMatchObject({ type: 'boolean', default: false });
		expect(attachObjectsOption(resolved(2, {}), 2)).toBe(false);
		expect(attachObjectsOption(resolved(2, { attachObjects: true }), 2)).toBe(true);
	});

	it.each<[number, string, boolean]>([
		[1, 'fetchTransaction', true],
		[1.1, 'fetchTransaction', false],
		[2, 'fetchTransaction', false],
		[1.1, 'verifyWithApi', true],
		[2, 'verifyWithApi', false],
		[1.1, 'dropDuplicates', true],
		[2, 'dropDuplicates', false],
		[1.1, 'acceptUnsignedKycStatus', true],
		[2, 'acceptUnsignedKycStatus', false],
		[1.1, 'includeHeaders', true],
		[2, 'includeHeaders', false],
		[1.1, 'attachObjects', false],
		[2, 'attachObjects', true],
	])(
		'version %s keeps a saved %s: %s (n8n-workflow getNodeParameters)',
		(typeVersion, name, kept) => {
			const value = name === 'fetchTransaction' || name === 'verifyWithApi' ? false : true;
			expect(name in resolved(typeVersion, { [name]: value })).toBe(kept);
		},
	);

	it('options are sorted alphabetically by display name', () => {
		const names = options.map((o) => o.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it.each<[string, number, IDataObject, boolean]>([
		['v1.1, nothing saved: reads the objects as before', 1.1, {}, true],
		['v1.1, Verify With API off', 1.1, { verifyWithApi: false }, false],
		['v1, old Fetch Transaction on', 1, { fetchTransaction: true }, true],
		['v1, old Fetch Transaction off', 1, { fetchTransaction: false }, false],
		[
			'v1, both: Verify With API decides',
			1,
			{ fetchTransaction: false, verifyWithApi: true },
			true,
		],
		['v2, nothing saved: no reads', 2, {}, false],
		['v2, Attach Current Objects on', 2, { attachObjects: true }, true],
	])('attaches objects: %s', (_name, version, saved, attach) => {
		expect(attachObjectsOption(saved, version)).toBe(attach);
	});

	it('old options say they change nothing now; Verify With API says every event is proven by the log', () => {
		expect(option('dropDuplicates')?.description).toMatch(
			/Changes nothing now: every event starts the workflow once/,
		);
		expect(option('acceptUnsignedKycStatus')?.description).toMatch(/Changes nothing now/);
		expect((option('verifyWithApi') as { hint?: string })?.hint).toMatch(
			/proven by FacilitaPay's notification log whatever this says/,
		);
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
