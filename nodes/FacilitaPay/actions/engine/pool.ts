import { sleep } from 'n8n-workflow';

/**
 * A pause of the run's own loops: every `everyMs` (50) ms of work it lets the event loop run (n8n's
 * other executions, timers, answers), so that 50,000 items never block the process for long.
 */
export function loopYielder(everyMs = 50): () => Promise<void> {
	let last = Date.now();
	let breath: Promise<void> | undefined;
	return async () => {
		if (breath) return await breath;
		if (Date.now() - last < everyMs) return;
		// One pause for every worker of the pool: they all wait for the same turn of the loop.
		breath = sleep(0).then(() => {
			last = Date.now();
			breath = undefined;
		});
		await breath;
	};
}

/**
 * Runs `task` for indexes 0..count-1 with at most `size` running at once, starting them in order.
 * Stops starting new ones once `stopped()` says so; those already running finish.
 */
export async function runPool(
	count: number,
	size: number,
	task: (index: number) => Promise<void>,
	stopped: () => boolean,
): Promise<void> {
	let next = 0;
	const yieldToLoop = loopYielder();
	const worker = async () => {
		while (next < count && !stopped()) {
			const index = next++;
			await task(index);
			await yieldToLoop();
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, count) }, worker));
}
