import type { INodeProperties, INodeType } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { FacilitaPayTrigger } from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';
import agentPayout from '../../../examples/agent-payout-review.json';
import catchUp from '../../../examples/catch-up-missed-events.json';
import collectPix from '../../../examples/collect-pix-payment.json';
import onboard from '../../../examples/onboard-customer.json';
import alerts from '../../../examples/payment-alerts.json';
import payout from '../../../examples/payout-new-customer.json';

// What a new user meets on the canvas when importing examples/*.json (the workflows `npm start`
// imports): what they run is tested in a real n8n (test/e2e/examples-*.test.mjs).

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
}
interface Example {
	file: string;
	name: string;
	nodes: ExampleNode[];
}

const examples: Example[] = [
	['agent-payout-review.json', agentPayout],
	['catch-up-missed-events.json', catchUp],
	['collect-pix-payment.json', collectPix],
	['onboard-customer.json', onboard],
	['payment-alerts.json', alerts],
	['payout-new-customer.json', payout],
].map(([file, workflow]) => ({ file, ...(workflow as object) }) as Example);

const STICKY = 'n8n-nodes-base.stickyNote';
/** n8n draws a node 100 × 100 from its position; a sticky note defaults to 240 × 160. */
const NODE_SIZE = 100;

const action = new FacilitaPay() as unknown as INodeType;
const trigger = new FacilitaPayTrigger() as unknown as INodeType;

function shownFor(property: INodeProperties, parameters: Record<string, unknown>): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(
		([key, values]) => key.startsWith('@') || (values as unknown[]).includes(parameters[key]),
	);
}

describe('the example workflows', () => {
	it.each(examples.map((e) => [e.file, e]))(
		'%s: no sticky note lies over a node',
		(_file, example) => {
			const { nodes } = example as Example;
			const overlaps: string[] = [];
			for (const note of nodes.filter((n) => n.type === STICKY)) {
				const [x, y] = note.position;
				const width = Number(note.parameters.width ?? 240);
				const height = Number(note.parameters.height ?? 160);
				for (const node of nodes.filter((n) => n.type !== STICKY)) {
					const [nx, ny] = node.position;
					const apart =
						nx >= x + width || nx + NODE_SIZE <= x || ny >= y + height || ny + NODE_SIZE <= y;
					if (!apart) overlaps.push(`"${note.name}" covers "${node.name}"`);
				}
			}
			expect(overlaps).toEqual([]);
		},
	);

	it.each(examples.map((e) => [e.file, e]))(
		'%s: every FacilitaPay Trigger has the version a new trigger gets, with its option names',
		(_file, example) => {
			const triggers = (example as Example).nodes.filter(
				(n) => n.type === 'n8n-nodes-facilitapay.facilitaPayTrigger',
			);
			for (const node of triggers) {
				expect(node.typeVersion).toBe(trigger.description.defaultVersion);
				const options = Object.keys((node.parameters.options as object) ?? {});
				const current = (
					trigger.description.properties.find((p) => p.name === 'options')!
						.options as INodeProperties[]
				)
					.filter((o) => !o.displayOptions?.show?.['@version'] || o.name === 'attachObjects')
					.map((o) => o.name);
				for (const option of options) expect(current).toContain(option);
			}
		},
	);

	it('only one example has a FacilitaPay Trigger: FacilitaPay keeps one webhook URL per account, so publishing two would take it from each other', () => {
		const withTrigger = examples.filter((e) =>
			e.nodes.some((n) => n.type === 'n8n-nodes-facilitapay.facilitaPayTrigger'),
		);
		expect(withTrigger.map((e) => e.file)).toEqual(['payment-alerts.json']);
	});

	it.each(examples.map((e) => [e.file, e]))(
		'%s: every ID field with From List / By ID is saved with its mode (no blank "Mode..." in the editor)',
		(_file, example) => {
			const plain: string[] = [];
			for (const node of (example as Example).nodes) {
				if (node.type !== 'n8n-nodes-facilitapay.facilitaPay') continue;
				for (const property of action.description.properties) {
					if (property.type !== 'resourceLocator' || !shownFor(property, node.parameters)) continue;
					const value = node.parameters[property.name] as { __rl?: boolean; mode?: string };
					if (value === undefined) continue;
					if (typeof value !== 'object' || value.__rl !== true || !value.mode)
						plain.push(`${node.name}: ${property.displayName}`);
				}
			}
			expect(plain).toEqual([]);
		},
	);
});
