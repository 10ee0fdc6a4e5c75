// The shared e2e run (prepared by test/e2e/global-setup.mjs): its state file, whether e2e tests run,
// timeouts, ids, polling, and reading an HTTP answer.
import fs from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from '../../../scripts/n8n-runtime.mjs';

export const STATE_FILE = path.join(CACHE_DIR, 'e2e', 'state.json');
/** Per-test timeout for anything that boots n8n's CLI (each call takes 5-15 s on 2 cores). */
export const CLI_TIMEOUT = 120_000;
/** Timeout for a beforeAll that may install n8n (cold: several minutes). */
export const INSTALL_TIMEOUT = 900_000;

/**
 * Whether the e2e tests should run: `npm run test:e2e`, a jest run given a test/e2e path, or
 * FACILITAPAY_E2E=1. A plain `npm test` skips them (they need minutes and ~1 GB for n8n).
 */
export function e2eEnabled() {
	return process.env.FACILITAPAY_E2E === '1';
}

/** `describe` when e2e tests are enabled, else `describe.skip`. */
export function describeE2e(name, fn) {
	const d = /** @type {any} */ (globalThis).describe;
	return (e2eEnabled() ? d : d.skip)(name, fn);
}

/**
 * A test against the shared n8n: fails at once, with what global-setup found missing, when one of
 * `needs` (see requirePieces) is absent; else runs `fn` with the shared state.
 * @param {string} name @param {string[]} needs @param {(state: E2eState) => Promise<unknown>} fn
 * @param {number} [timeout]
 */
export function testE2e(name, needs, fn, timeout = CLI_TIMEOUT) {
	const t = /** @type {any} */ (globalThis).test;
	return t(
		name,
		async () => {
			const state = sharedState();
			requirePieces(state, needs);
			return fn(state);
		},
		timeout,
	);
}

/**
 * @typedef {{
 *   version: 'v2'|'v1', userFolder: string, n8nUrl: string|null, apiKey: string|null,
 *   sandboxUrl: string|null, sandboxToken: string, credentials: {id: string, name: string}|null,
 *   tarball: string, missing: string[]
 * }} E2eState
 */

/** The shared n8n prepared by global-setup.mjs. @returns {E2eState} */
export function sharedState() {
	const file = process.env.FACILITAPAY_E2E_STATE ?? STATE_FILE;
	if (!fs.existsSync(file)) {
		throw new Error(
			`No e2e state at ${file}: run the e2e tests through jest (npm run test:e2e), whose globalSetup prepares n8n.`,
		);
	}
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Fails with the list of pieces global-setup found missing (node, sandbox…). @param {E2eState} state @param {string[]} needs */
export function requirePieces(state, needs) {
	const missing = state.missing.filter((m) => needs.some((n) => m.startsWith(n)));
	if (missing.length > 0) throw new Error(`The e2e environment lacks: ${missing.join('; ')}`);
}

let counter = 0;
/** A workflow id unique to this run (n8n ids are strings of at most 36 characters). @param {string} prefix */
export function uniqueId(prefix) {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}-${counter}`.slice(0, 36);
}

/** The shared sandbox credentials, or null outside an e2e run. */
export function sharedCredentialsOrNull() {
	try {
		return sharedState().credentials;
	} catch {
		return null;
	}
}

/** @param {E2eState} state */
export const cliOptions = (state) => ({
	version: state.version,
	userFolder: state.userFolder,
	...(state.n8nEnv ? { env: state.n8nEnv } : {}),
});

/**
 * Polls `check` until it returns a truthy value (then returns it) or `timeoutMs` passes (then
 * throws with `what`). For things n8n does on its own: an execution appearing, a trigger
 * registering. Not a sleep: it returns as soon as the condition holds.
 * @template T
 * @param {() => Promise<T>} check
 * @param {{what: string, timeoutMs?: number, intervalMs?: number}} options
 * @returns {Promise<T>}
 */
export async function waitFor(check, { what, timeoutMs = 30_000, intervalMs = 250 }) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	for (;;) {
		try {
			const value = await check();
			if (value) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`Timed out waiting for ${what}${lastError ? ` (last error: ${/** @type {Error} */ (lastError).message})` : ''}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

/**
 * A fetch answer as `{status, text, json}` (json null when the body is not JSON).
 * @param {Response} response
 * @returns {Promise<{status: number, text: string, json: any}>}
 */
export async function readAnswer(response) {
	const text = await response.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: response.status, text, json };
}
