import type {
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	IWebhookFunctions,
} from 'n8n-workflow';

/**
 * Every n8n internal that Wait for Payment relies on, named here and nowhere else (docs/waiting.md
 * § "What n8n allowed" gives the file:line in n8n-core 2.41.1 and 1.122.48; the engine test
 * test/engine/waiting-contract.test.mjs runs on both and fails when one of these changes):
 *
 * 1. `this.getExecuteData()` in execute() is the very object n8n-core puts back at the front of
 *    the node-execution stack when the node waits (`workflow-execute` pushes `executionData` back
 *    after a `putExecutionToWait`): the node turns it into the GATE.
 * 2. The execute context keeps the run's data as `runExecutionData`; its
 *    `executionData.nodeExecutionStack` is the stack n8n runs next: the node puts its FALLBACK
 *    entry there (behind the gate) and, when a wait ends, takes its leftovers out.
 * 3. When n8n resumes a waiting execution at its time (the WaitTracker) it disables only the FIRST
 *    entry of the stack (`handleWaitingState`): the gate. The fallback behind it runs as usual.
 * 4. An entry whose input is empty (`data.main = []`) runs no code and forwards nothing, disabled
 *    or not (`handleDisabledNode`, `prepareConnectionInputData`): the gate is inert whatever n8n
 *    does with it.
 * 5. n8n runs a stack entry whose node is not in the workflow (the fallback's own name) with its
 *    node type, and routes its output nowhere (no connections of that name); a Retry "with the
 *    currently saved workflow" refuses such an entry ("Could not find the node …").
 * 6. The webhook context of a resume call keeps the stack's first entry (the gate) as
 *    `executeData`; what webhook() leaves in it is the entry n8n runs, with `data.main` set to
 *    the webhook's `workflowData`.
 *
 * When the shapes below are not found, Wait for Payment refuses to wait (engineProblem) rather
 * than route by accident.
 */

/** One entry of n8n's node-execution stack, as far as Wait for Payment reads or writes it. */
export type StackEntry = IExecuteData & { metadata?: IDataObject };

interface WithRunData {
	runExecutionData?: { executionData?: { nodeExecutionStack?: unknown } };
}

function isEntry(value: unknown): value is StackEntry {
	const entry = value as StackEntry | undefined;
	return (
		!!entry &&
		typeof entry === 'object' &&
		!!entry.node &&
		typeof entry.node === 'object' &&
		typeof (entry.node as INode).name === 'string' &&
		!!entry.data &&
		typeof entry.data === 'object'
	);
}

/** (1) The entry this execute() runs from; n8n pushes it back when the node waits. */
export function ownEntry(ctx: IExecuteFunctions): StackEntry | undefined {
	const entry = ctx.getExecuteData() as unknown;
	return isEntry(entry) ? entry : undefined;
}

/** (2) The stack n8n runs next, or undefined when this n8n keeps it elsewhere. */
export function executionStack(ctx: IExecuteFunctions): StackEntry[] | undefined {
	const stack = (ctx as unknown as WithRunData).runExecutionData?.executionData?.nodeExecutionStack;
	return Array.isArray(stack) ? (stack as StackEntry[]) : undefined;
}

/** (6) The entry a resume call resumes (the gate), kept by n8n's webhook context. */
export function resumingEntry(ctx: IWebhookFunctions): StackEntry | undefined {
	const entry = (ctx as unknown as { executeData?: unknown }).executeData;
	return isEntry(entry) ? entry : undefined;
}

/**
 * Why this n8n cannot be trusted to run a wait as built here, or undefined. Checked before every
 * wait: the node's own entry is an entry of this node and is no longer on the stack (n8n took it
 * off to run it), and the stack is an array of entries.
 */
export function engineProblem(ctx: IExecuteFunctions): string | undefined {
	const entry = ownEntry(ctx);
	if (!entry || entry.node.name !== ctx.getNode().name)
		return 'this n8n does not give the node its stack entry (getExecuteData)';
	const stack = executionStack(ctx);
	if (!stack) return 'this n8n does not keep the node-execution stack where this node reads it';
	if (stack.includes(entry)) return 'this n8n keeps the running node on its stack';
	if (!stack.every(isEntry)) return 'this n8n’s node-execution stack has entries of another shape';
	return undefined;
}

/** Entries of the stack that `match`, taken out; how many. */
export function takeOut(stack: StackEntry[], match: (entry: StackEntry) => boolean): number {
	let taken = 0;
	for (let i = stack.length - 1; i >= 0; i--) {
		if (match(stack[i])) {
			stack.splice(i, 1);
			taken++;
		}
	}
	return taken;
}
