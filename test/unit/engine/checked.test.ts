// The pool's wait for an item's check (a pure rule). What a user sees of sending while checking
// (order, pairing, an invalid item never sent) runs on n8n's engine:
// test/engine/operations/checking.test.mjs; how much sooner the first request leaves is measured
// by the bench (bench/n8n-compare.mjs), not timed in a test.
import { CheckedSoFar } from '../../../nodes/FacilitaPay/actions/engine/checked';

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
