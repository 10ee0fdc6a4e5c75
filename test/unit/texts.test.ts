import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { FacilitaPayApi } from '../../credentials/FacilitaPayApi.credentials';
import { FacilitaPay } from '../../nodes/FacilitaPay/FacilitaPay.node';
import { FacilitaPayTrigger } from '../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';
import { eventOptions } from '../../nodes/FacilitaPayTrigger/events';

// What the editor shows under a field: short enough to read at a glance (details go to hints and
// docs/). n8n's own nodes keep field descriptions to a sentence or two.
const LIMIT = 200;

type Described = INodeProperties | INodePropertyOptions | INodePropertyCollection;

function longDescriptions(items: readonly Described[], where: string): string[] {
	return items.flatMap((item) => {
		const name = ('displayName' in item ? item.displayName : item.name) ?? '';
		const here = `${where} > ${name}`;
		const own =
			'description' in item &&
			typeof item.description === 'string' &&
			item.description.length > LIMIT
				? [`${here} (${item.description.length})`]
				: [];
		const children = [
			...(('options' in item && Array.isArray(item.options) ? item.options : []) as Described[]),
			...(('values' in item && Array.isArray(item.values) ? item.values : []) as Described[]),
		];
		return [...own, ...longDescriptions(children, here)];
	});
}

describe('field texts', () => {
	it(`no field or option description is longer than ${LIMIT} characters`, () => {
		expect([
			...longDescriptions(new FacilitaPay().description.properties, 'FacilitaPay'),
			...longDescriptions(new FacilitaPayTrigger().description.properties, 'FacilitaPay Trigger'),
			...longDescriptions(new FacilitaPayApi().properties, 'FacilitaPay API'),
		]).toEqual([]);
	});

	it('the node picker names each trigger event in words ("On payment approved", "On KYC status payload (unsigned)")', () => {
		const actions = eventOptions.map((option) => option.action);
		expect(actions).toContain('On payment approved');
		expect(actions).toContain('On KYC status payload (unsigned)');
		expect(actions).toContain('On money identified');
		for (const action of actions) expect(action).toMatch(/^On [a-zA-Z]/);
		expect(new Set(actions).size).toBe(eventOptions.length);
	});
});
