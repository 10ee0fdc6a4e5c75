// Jest globalTeardown of `npm run test:queue`: stops every process of the queue-mode cluster (each
// by killing its process group), keeps the processes' logs in .cache/queue/logs/<run>/ (the last
// three runs) and removes the run's folder (FACILITAPAY_QUEUE_KEEP=1 keeps it).
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR, log, pruneRuns } from '../../scripts/n8n-runtime.mjs';

export default async function globalTeardown() {
	const shared = /** @type {any} */ (globalThis).__facilitapayQueue;
	if (!shared) return;
	const startedAt = Date.now();
	await shared.stop();
	const reportFile = path.join(shared.runDir, 'report.txt');
	if (fs.existsSync(reportFile)) {
		process.stdout.write(
			`\nqueue-mode measurements (${path.basename(shared.runDir)}):\n${fs.readFileSync(reportFile, 'utf8')}`,
		);
	}
	const logsRoot = path.join(CACHE_DIR, 'queue', 'logs');
	const target = path.join(logsRoot, path.basename(shared.runDir));
	try {
		fs.mkdirSync(target, { recursive: true });
		for (const entry of fs.readdirSync(shared.runDir, { withFileTypes: true })) {
			if (entry.isFile() && entry.name.endsWith('.log'))
				fs.copyFileSync(path.join(shared.runDir, entry.name), path.join(target, entry.name));
			if (entry.isDirectory()) {
				for (const file of fs
					.readdirSync(path.join(shared.runDir, entry.name))
					.filter((f) => f.endsWith('.log'))) {
					fs.copyFileSync(path.join(shared.runDir, entry.name, file), path.join(target, file));
				}
			}
		}
		pruneRuns(logsRoot, 3);
		log(`queue-mode logs kept in ${target}`);
	} catch (error) {
		log(`keeping the queue-mode logs: ${/** @type {Error} */ (error).message}`);
	}
	if (process.env.FACILITAPAY_QUEUE_KEEP === '1')
		log(`FACILITAPAY_QUEUE_KEEP=1: ${shared.runDir} kept`);
	else fs.rmSync(shared.runDir, { recursive: true, force: true });
	log(`queue-mode cluster stopped in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
	delete (/** @type {any} */ (globalThis).__facilitapayQueue);
}
