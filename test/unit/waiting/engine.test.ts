import type { IExecuteFunctions } from 'n8n-workflow';

import { engineProblem, takeOut } from '../../../nodes/FacilitaPay/waiting';
import type { StackEntry } from '../../../nodes/FacilitaPay/waiting';

// The n8n internals Wait for Payment relies on are checked before every wait (waiting/engine.ts):
// an n8n that keeps them elsewhere makes the node refuse to wait, never route by accident. (On
// n8n-core itself: test/engine/operations/transaction/waitForPayment.test.mjs, 2.41 and 1.x.)
const entry = (name: string): StackEntry => ({
	node: { name } as StackEntry['node'],
	data: { main: [[{ json: {} }]] },
	source: null,
});

function context(shape: {
	own?: unknown;
	stack?: unknown;
	name?: string;
	runData?: boolean;
}): IExecuteFunctions {
	return {
		getExecuteData: () => shape.own,
		getNode: () => ({ name: shape.name ?? 'Wait' }),
		...(shape.runData !== false && {
			runExecutionData: { executionData: { nodeExecutionStack: shape.stack } },
		}),
	} as unknown as IExecuteFunctions;
}

describe('the n8n internals a wait relies on', () => {
	test('as n8n-core 2.41 and 1.x give them: no problem', () => {
		const own = entry('Wait');
		expect(engineProblem(context({ own, stack: [entry('Next')] }))).toBeUndefined();
		expect(engineProblem(context({ own, stack: [] }))).toBeUndefined();
	});

	test.each([
		['no stack entry of its own', { own: undefined, stack: [] }, 'stack entry'],
		['another node’s entry', { own: entry('Other'), stack: [] }, 'stack entry'],
		['no run data on the context', { own: entry('Wait'), runData: false }, 'node-execution stack'],
		['a stack that is not an array', { own: entry('Wait'), stack: {} }, 'node-execution stack'],
		['the running node still on the stack', { stack: 'same' }, 'running node'],
		['entries of another shape', { own: entry('Wait'), stack: [{ foo: 1 }] }, 'another shape'],
	])('%s: the node refuses to wait (%j)', (_name, shape, words) => {
		const own = entry('Wait');
		const given = (shape as { stack?: unknown }).stack === 'same' ? { own, stack: [own] } : shape;
		expect(engineProblem(context(given as Parameters<typeof context>[0]))).toContain(words);
	});

	test('takeOut removes every entry that matches, keeps the others in order', () => {
		const stack = [entry('a'), entry('b'), entry('a'), entry('c')];
		expect(takeOut(stack, (e) => e.node.name === 'a')).toBe(2);
		expect(stack.map((e) => e.node.name)).toEqual(['b', 'c']);
	});
});
