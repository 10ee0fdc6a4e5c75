// The benchmark's n8n: user folders with the package and the sandbox credentials, and one workflow
// run with `n8n execute`, measured from n8n's own run data and from what the sandbox saw.
import fs from 'node:fs';
import path from 'node:path';
import {
	E2E_RUNS_DIR,
	executeWorkflow,
	importIntoN8n,
	installPackageInto,
	nodeOutput,
	removeUserFolder,
	sandboxCredentials,
} from '../../scripts/n8n-runtime.mjs';
import { nodeProfile, profilerEnv } from './profile.mjs';

/**
 * The folders of one benchmark run: n8n user folders under the e2e runs' folder (removed at exit
 * unless `keep`, also when a run fails half way), profiles under `profileRoot` (kept).
 * @param {{keep: boolean, profileRoot: string}} options
 */
export function benchFolders({ keep, profileRoot }) {
	const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
	const runsBase = path.join(E2E_RUNS_DIR, `bench-${stamp}`);
	if (!keep) process.once('exit', () => removeUserFolder(runsBase));
	return { runsBase, profileDir: path.join(profileRoot, stamp) };
}

/**
 * A user folder `<runsBase>/<name>` with `tarball` installed and the sandbox credentials imported.
 * @param {string} runsBase @param {string} name @param {string} tarball @param {string} sandboxUrl
 */
export async function prepareN8n(runsBase, name, tarball, sandboxUrl) {
	const userFolder = path.join(runsBase, name);
	fs.mkdirSync(userFolder, { recursive: true });
	installPackageInto(userFolder, tarball);
	await importIntoN8n('credentials', [sandboxCredentials({ baseUrl: `${sandboxUrl}/api/v1` })], {
		version: 'v2',
		userFolder,
	});
	return userFolder;
}

/** @param {string} userFolder @param {object[]} workflows */
export const importWorkflows = (userFolder, workflows) =>
	importIntoN8n('workflow', workflows, { version: 'v2', userFolder });

/**
 * Runs one imported workflow with `n8n execute` and returns the node's timing and output counts
 * with what the sandbox saw. With `profileDir`, n8n runs under --cpu-prof and the node's window
 * is summarised.
 * @param {string} userFolder
 * @param {{id: string}} wf
 * @param {{items: number, facts: () => any, profileDir?: string}} options
 */
export async function execute(userFolder, wf, { items, facts, profileDir }) {
	const dir = profileDir && path.join(profileDir, `${path.basename(userFolder)}-${wf.id}`);
	const env = dir ? profilerEnv(dir) : {};
	const result = await executeWorkflow(wf.id, { version: 'v2', userFolder, env });
	const root = result.runData?.data ?? result.runData;
	const runs = root?.resultData?.runData?.Node;
	if (!runs) {
		throw new Error(
			`n8n ran no "Node" in ${wf.id} (exit ${result.code}).\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
		);
	}
	const task = runs[runs.length - 1];
	const output = nodeOutput(result.runData, 'Node');
	const list = Array.isArray(output) ? output : [];
	const failed = list.filter((json) => json && typeof json === 'object' && 'error' in json);
	const seen = facts();
	/** @type {Map<string, number>} */
	const errors = new Map();
	for (const json of failed) {
		const key = String(json.error).slice(0, 160);
		errors.set(key, (errors.get(key) ?? 0) + 1);
	}
	// From the node's start to the first request the sandbox received: reading and checking items.
	const firstRequestAfterMs =
		seen.firstArrivalAt === null ? undefined : seen.firstArrivalAt - task.startTime;
	return {
		ms: task.executionTime,
		firstRequestAfterMs,
		itemsPerSecond: (items * 1000) / task.executionTime,
		outputItems: list.length,
		ok: list.length - failed.length,
		failed: failed.length,
		firstError: failed[0]?.error ?? task.error?.message,
		errors: [...errors],
		nodeError: task.error ? String(task.error.message ?? task.error) : undefined,
		...seen,
		...(dir ? nodeProfile(dir, task, firstRequestAfterMs) : {}),
	};
}
