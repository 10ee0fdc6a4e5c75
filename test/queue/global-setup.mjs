// Jest globalSetup of `npm run test:queue`: brings up the queue-mode cluster (scripts/queue-cluster.mjs)
// once for every file in test/queue/, and hands its state to the tests through
// FACILITAPAY_QUEUE_STATE. Whatever it started is stopped when the start fails, when jest's process
// exits or is interrupted (SIGINT/SIGTERM), and by global-teardown.mjs.
import {
	killClusterSync,
	removeLeftoverQueueRuns,
	startCluster,
	stopCluster,
} from '../../scripts/queue-cluster.mjs';
import { log } from '../../scripts/n8n-runtime.mjs';
import { queueEnabled } from './lib/queue.mjs';
import fs from 'node:fs';
import path from 'node:path';

export default async function globalSetup() {
	if (!queueEnabled()) return;
	removeLeftoverQueueRuns();
	process.once('exit', killClusterSync);
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
		process.once(signal, () => {
			log(`${signal}: stopping the queue-mode cluster`);
			killClusterSync();
			process.exit(130);
		});
	}
	const state = await startCluster({ workers: 2 });
	const stateFile = path.join(state.runDir, 'state.json');
	fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
	process.env.FACILITAPAY_QUEUE_STATE = stateFile;
	/** @type {any} */ (globalThis).__facilitapayQueue = { stop: stopCluster, runDir: state.runDir };
}
