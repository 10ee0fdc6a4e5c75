// The n8n and sandbox of `npm run screenshots`: the running ones (`npm start`) when n8n answers on
// N8N_PORT, else an n8n and a sandbox of its own in a throw-away user folder (npm start's home is
// never touched), stopped by cleanup(); people seeded in the sandbox, and workflows saved in n8n
// (deleted again from a reused n8n).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
	assertPortFree,
	buildAndPackPackage,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	log,
	removeUserFolder,
	sandboxCredentials,
	startN8n,
} from '../n8n-runtime.mjs';
import { createSandbox } from '../../sandbox/server.mjs';

/** What cleanup() undoes, last first. @type {Array<() => Promise<unknown>>} */
const cleanups = [];

/** Stops what was started and removes what was added, last first; never throws. */
export async function cleanup() {
	for (const step of cleanups.reverse())
		await step().catch((error) => log(`cleaning up: ${error.message}`));
	cleanups.length = 0;
}

/** Whether `url` answers 2xx within 3 s. @param {string} url */
export async function answers(url) {
	try {
		return (await fetch(url, { signal: AbortSignal.timeout(3000) })).ok;
	} catch {
		return false;
	}
}

/**
 * Starts a sandbox and an n8n 2.x with the package, the sandbox credentials and `workflows`
 * imported, on the given ports; returns the sandbox's URL.
 * @param {{n8nPort: number, brokerPort: number, sandboxPort: number, sandboxToken: string,
 *   credentials: {id: string, name: string}, workflows: object[]}} options
 */
export async function startOwnN8nAndSandbox({
	n8nPort,
	brokerPort,
	sandboxPort,
	sandboxToken,
	credentials,
	workflows,
}) {
	await assertPortFree(n8nPort, 'n8n (N8N_PORT)');
	await assertPortFree(brokerPort, "n8n's task broker (N8N_RUNNERS_BROKER_PORT)");
	await assertPortFree(sandboxPort, 'the sandbox (SANDBOX_PORT)');
	const [tarball] = await Promise.all([buildAndPackPackage({ reuse: true }), ensureN8n('v2')]);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'facilitapay-screenshots-'));
	cleanups.push(async () => removeUserFolder(userFolder));
	installPackageInto(userFolder, tarball);

	const sandbox = await createSandbox({
		port: sandboxPort,
		host: '127.0.0.1',
		token: sandboxToken,
	});
	await sandbox.listen();
	cleanups.push(() => sandbox.close());
	sandbox.followRealTime?.((/** @type {Error} */ error) => log(`sandbox clock: ${error.message}`));
	const sandboxUrl = String(sandbox.url ?? `http://127.0.0.1:${sandboxPort}`).replace(/\/$/, '');

	const options = { version: /** @type {const} */ ('v2'), userFolder };
	const imported = sandboxCredentials({
		baseUrl: `${sandboxUrl}/api/v1`,
		token: sandboxToken,
		...credentials,
	});
	await importIntoN8n('credentials', [imported], options);
	await importIntoN8n('workflow', workflows, options);
	const n8n = await startN8n({ version: 'v2', userFolder, port: n8nPort, brokerPort });
	cleanups.push(() => n8n.stop());
	return sandboxUrl;
}

/**
 * Registers `people` in the sandbox (the same document again updates that person: re-runs add
 * none); returns their ids by social name.
 * @param {string} sandboxUrl @param {string} sandboxToken @param {Array<{social_name: string}>} people
 */
export async function seedPeople(sandboxUrl, sandboxToken, people) {
	/** @type {Record<string, string>} */
	const ids = {};
	for (const person of people) {
		const response = await fetch(`${sandboxUrl}/api/v1/subject/people`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandboxToken}`, 'content-type': 'application/json' },
			body: JSON.stringify({ person }),
		});
		const body = await response.json().catch(() => ({}));
		if (!response.ok) {
			throw new Error(
				`The sandbox refused person "${person.social_name}" (HTTP ${response.status}: ${JSON.stringify(body).slice(0, 300)}).`,
			);
		}
		ids[person.social_name] = body.data.id;
	}
	return ids;
}

/**
 * Saves a workflow through n8n's REST API as the owner (`client`); returns its id. In a reused n8n
 * it is archived and deleted again by cleanup(), leaving the user's n8n as it was.
 * @param {any} client @param {object & {name: string}} workflow @param {{reuse: boolean}} options
 */
export async function saveWorkflow(client, workflow, { reuse }) {
	const created = await client.call('POST', '/rest/workflows', workflow);
	const id = created.json?.data?.id;
	if (!created.ok || !id)
		throw new Error(
			`n8n did not save the workflow "${workflow.name}" (HTTP ${created.status}: ${created.text.slice(0, 300)}).`,
		);
	if (reuse) {
		cleanups.push(async () => {
			await client.call('POST', `/rest/workflows/${id}/archive`);
			await client.call('DELETE', `/rest/workflows/${id}`);
		});
	}
	return id;
}
