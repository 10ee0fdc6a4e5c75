// How `npm test` splits the real-n8n end-to-end files (test/e2e/*.test.mjs) into lanes that run
// side by side: one jest process per lane, each with its own shared n8n, sandbox, user folder,
// ports and state file (test/e2e/global-setup.mjs), the files of a lane one after another (in band)
// as before. Most of an e2e file's time is waiting (n8n starting, limits and leases of minutes,
// outages), so lanes overlap the waits; a file that restarts its n8n never shares that n8n with a
// file running at the same moment.
//
// Every file found in test/e2e/ is run: a file missing from SECONDS (a new one) counts as
// DEFAULT_SECONDS and goes to the lane with the least work, like the others (longest first).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Seconds each file took in band on the 2-core CI machine (jest's per-file time, measured
 * 2026-12-06, `FACILITAPAY_E2E=1 jest --runInBand test/e2e --json`; agent-review,
 * examples-agent-payout and examples-collect-pix from a lane of `npm test`). Only the split uses
 * them: a file's lane changes nothing else.
 * @type {Record<string, number>}
 */
export const SECONDS = {
	'action-node.test.mjs': 17,
	'agent-review.test.mjs': 82,
	'ai-tool.test.mjs': 40,
	'bad-input.test.mjs': 12,
	'credentials.test.mjs': 60,
	'examples-agent-payout.test.mjs': 8,
	'examples-catch-up.test.mjs': 8,
	'examples-collect-pix.test.mjs': 9,
	'examples-onboard-customer.test.mjs': 12,
	'examples-payment-alerts.test.mjs': 5,
	'examples-payout.test.mjs': 11,
	'icons.test.mjs': 1,
	'money-instances.test.mjs': 38,
	'money-late-commit.test.mjs': 25,
	'money-safety.test.mjs': 39,
	'money-scope.test.mjs': 20,
	'money-subworkflow.test.mjs': 5,
	'operations.test.mjs': 42,
	'retry-button-v1.test.mjs': 19,
	'retry-button.test.mjs': 22,
	'retry-days-later.test.mjs': 35,
	'trigger-burst.test.mjs': 25,
	'trigger-catch-up.test.mjs': 38,
	'trigger-deaf.test.mjs': 478,
	'trigger-events.test.mjs': 8,
	'trigger-log.test.mjs': 47,
	'trigger-open-cases.test.mjs': 10,
	'trigger-registration.test.mjs': 15,
	'trigger-strangers.test.mjs': 102,
	'v1-smoke.test.mjs': 27,
	'wait-around.test.mjs': 264,
	'wait-at-scale.test.mjs': 79,
	'wait-for-payment-v1.test.mjs': 357,
	'wait-for-payment.test.mjs': 359,
	'wait-probe.test.mjs': 163,
};

/** What a file not in SECONDS counts as. */
export const DEFAULT_SECONDS = 90;

/** The e2e test files, relative to `root` (sorted). @param {string} root */
export function e2eFiles(root) {
	const dir = path.join(root, 'test', 'e2e');
	return fs
		.readdirSync(dir)
		.filter((name) => name.endsWith('.test.mjs'))
		.sort()
		.map((name) => path.join('test', 'e2e', name));
}

/**
 * `files` in `count` lanes of about equal seconds: longest first, each to the lane with the least
 * so far. Returns the lanes with their files and estimated seconds (lanes left empty are dropped).
 * @param {string[]} files @param {number} count @param {Record<string, number>} [seconds]
 */
export function splitIntoLanes(files, count, seconds = SECONDS) {
	const cost = (/** @type {string} */ file) => seconds[path.basename(file)] ?? DEFAULT_SECONDS;
	const lanes = Array.from({ length: Math.max(1, count) }, () => ({
		files: /** @type {string[]} */ ([]),
		seconds: 0,
	}));
	const ordered = [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
	for (const file of ordered) {
		const lane = lanes.reduce((least, l) => (l.seconds < least.seconds ? l : least));
		lane.files.push(file);
		lane.seconds += cost(file);
	}
	return lanes.filter((lane) => lane.files.length > 0);
}
