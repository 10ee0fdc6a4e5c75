import type { IHttpRequestOptions } from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import { CheckedSoFar } from '../../../nodes/FacilitaPay/actions/engine/checked';
import { createContext } from '../helpers/executeContext';
import { personParameters } from '../../fixtures/subjects';
import { payoutParameters as payout } from '../../fixtures/transactions';

/** Lets every promise chain that is ready run (no timers: the lint forbids them in every .ts file). */
const tick = async () => {
	for (let k = 0; k < 20; k++) await Promise.resolve();
};

describe('CheckedSoFar: the pool waits until an item is checked', () => {
	it('lets an item through once it or a later item passed, and everything once finished', async () => {
		const checked = new CheckedSoFar();
		const through: number[] = [];
		for (const i of [0, 1, 2, 3]) void checked.reached(i).then(() => through.push(i));
		await tick();
		expect(through).toEqual([]);
		checked.passed(0);
		await tick();
		expect(through).toEqual([0]);
		checked.passed(2);
		await tick();
		expect(through.sort()).toEqual([0, 1, 2]);
		checked.finish();
		await tick();
		expect(through.sort()).toEqual([0, 1, 2, 3]);
		await checked.reached(99);
	});
});

/** The order in which the node read item parameters and sent requests. */
function recordOrder(fake: ReturnType<typeof createContext>) {
	const events: string[] = [];
	const read = fake.ctx.getNodeParameter.bind(fake.ctx);
	fake.ctx.getNodeParameter = ((name: string, itemIndex: number, ...rest: unknown[]) => {
		if (name === 'socialName' || name === 'value') events.push(`check ${itemIndex}`);
		return (read as (...args: unknown[]) => unknown)(name, itemIndex, ...rest);
	}) as typeof fake.ctx.getNodeParameter;
	const http = fake.ctx.helpers.httpRequestWithAuthentication as jest.Mock;
	const play = http.getMockImplementation()!;
	http.mockImplementation(
		async (type: string, request: IHttpRequestOptions, ...rest: unknown[]) => {
			events.push(
				`send ${String((request.body as { person?: { social_name?: string } })?.person?.social_name ?? request.url)}`,
			);
			return await play(type, request, ...rest);
		},
	);
	return events;
}

const person = (k: number, documentNumber?: string) =>
	personParameters({}, { socialName: `P${k}`, ...(documentNumber ? { documentNumber } : {}) });

describe('sending while checking', () => {
	it('with Continue On Fail, the first item leaves before the last is checked; output order and pairing kept; an invalid item is never sent', async () => {
		const fake = createContext({
			parameters: [person(0), person(1), person(2, '111'), person(3)],
			continueOnFail: true,
			replies: [0, 1, 3].map((k) => ({ data: { id: `s${k}` } })),
		});
		const events = recordOrder(fake);
		const [output] = await new FacilitaPay().execute.call(fake.ctx);
		expect(events.indexOf('send P0')).toBeLessThan(events.indexOf('check 3'));
		expect(events.filter((e) => e.startsWith('send'))).toEqual(['send P0', 'send P1', 'send P3']);
		for (const k of [0, 1, 3])
			expect(events.indexOf(`check ${k}`)).toBeLessThan(events.indexOf(`send P${k}`));
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output.map((item) => item.json.id ?? 'error')).toEqual(['s0', 's1', 'error', 's3']);
		expect(output[2].json.error).toMatch(/\(item 2\)/);
	});

	it('without Continue On Fail, every item is checked before any is sent', async () => {
		const fake = createContext({
			parameters: [person(0), person(1), person(2)],
			replies: [0, 1, 2].map((k) => ({ data: { id: `s${k}` } })),
		});
		const events = recordOrder(fake);
		await new FacilitaPay().execute.call(fake.ctx);
		expect(events.indexOf('check 2')).toBeLessThan(events.indexOf('send P0'));
	});

	it('money-moving items wait for every item to be checked, even with Continue On Fail', async () => {
		const fake = createContext({
			parameters: [payout(), payout('10.005'), payout('20.00')],
			continueOnFail: true,
			replies: [{ data: { id: 'p0' } }, { data: { id: 'p2' } }],
		});
		const events = recordOrder(fake);
		const [output] = await new FacilitaPay().execute.call(fake.ctx);
		const firstSend = events.findIndex((e) => e.startsWith('send'));
		expect(events.indexOf('check 2')).toBeLessThan(firstSend);
		expect(output.map((item) => item.json.id ?? 'error')).toEqual(['p0', 'error', 'p2']);
	});
});
