// Which operations of the action node ran in a real n8n: noted by the tests, summed up by the
// global teardown ("real-n8n operations covered (n8n 2.41.1): N/M").
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../scripts/n8n-runtime.mjs';
import { sharedState } from './state.mjs';

/** @typedef {import('./state.mjs').E2eState} E2eState */

/**
 * Every operation of the action node, as "resource.operation", from the sources
 * (nodes/FacilitaPay/actions/<resource>/<operation>.operation.ts).
 */
export function allOperations() {
	const actions = path.join(ROOT, 'nodes', 'FacilitaPay', 'actions');
	const result = [];
	for (const resource of fs.readdirSync(actions).sort()) {
		const dir = path.join(actions, resource);
		if (!fs.statSync(dir).isDirectory()) continue;
		for (const file of fs.readdirSync(dir).sort()) {
			const match = /^(\w+)\.operation\.ts$/.exec(file);
			if (match) result.push(`${resource}.${match[1]}`);
		}
	}
	return result;
}

/**
 * File where tests note the operations they ran in a real n8n: the run folder's, or the one
 * `npm test` gives all its e2e lanes (FACILITAPAY_E2E_COVERAGE_FILE; it prints their sum).
 * @param {E2eState} state
 */
export const coverageFile = (state) =>
	process.env.FACILITAPAY_E2E_COVERAGE_FILE ??
	path.join(state.userFolder, 'operations-covered.jsonl');

/**
 * Notes that these operations ran in a real n8n with asserted outputs and requests (the global
 * teardown prints the total as "real-n8n operations covered: N/30").
 * @param {string[]} operations "resource.operation"
 * @param {{n8n?: string}} [options] which n8n ran them, e.g. "2.41.1" or "1.123.81"
 * @param {E2eState} [state]
 */
export function recordCoverage(operations, { n8n } = {}, state = sharedState()) {
	n8n ??= /** @type {any} */ (state).n8nVersion ?? state.version;
	fs.appendFileSync(coverageFile(state), `${JSON.stringify({ n8n, operations })}\n`);
}

/**
 * "real-n8n operations covered: N/M" lines, one per n8n, from the run's coverage file (a run
 * folder, or a coverage file itself: `.jsonl`).
 * @param {string} userFolder
 */
export function coverageSummary(userFolder) {
	const file = userFolder.endsWith('.jsonl')
		? userFolder
		: path.join(userFolder, 'operations-covered.jsonl');
	if (!fs.existsSync(file)) return [];
	const all = allOperations();
	/** @type {Map<string, Set<string>>} */
	const byN8n = new Map();
	for (const line of fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
		const { n8n, operations } = JSON.parse(line);
		if (!byN8n.has(n8n)) byN8n.set(n8n, new Set());
		for (const op of operations) byN8n.get(n8n)?.add(op);
	}
	return [...byN8n].map(([n8n, ops]) => {
		const missing = all.filter((op) => !ops.has(op));
		return `real-n8n operations covered (n8n ${n8n}): ${all.filter((op) => ops.has(op)).length}/${all.length}${missing.length ? `; not covered: ${missing.join(', ')}` : ''}`;
	});
}
