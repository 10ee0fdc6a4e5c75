// What every phase of lib/operation-phases.mjs uses: the sandbox's seeded accounts, the fixed
// inputs (a small PDF, a card's 3DS browser data), a reference to an earlier node's output, a
// sandbox control route, and the reads of a phase's result (the one request of the sandbox log,
// a Return All listing's pages, the run's failure). Uses jest's global `expect`.
import { sandboxControl } from '../n8n-e2e.mjs';
import { ACCOUNT_IDS } from '../../../../sandbox/accounts.mjs';

/* global expect */

/**
 * @typedef {{
 *   sb: {state: any, sandboxUrl: string},
 *   runPhase: (steps: any[]) => Promise<{run: any, log: any[], out: (name: string) => any}>,
 *   ctx: Record<string, any>,
 *   covered: Set<string>,
 * }} PhaseOptions
 */

/**
 * A phase's run, what the sandbox received meanwhile, and where its checks record: what each
 * check of a phase gets.
 * @typedef {{
 *   sb: {state: any, sandboxUrl: string},
 *   run: any,
 *   log: any[],
 *   out: (name: string) => any,
 *   ctx: Record<string, any>,
 *   covered: Set<string>,
 * }} PhaseRun
 */

/** The sandbox's seeded accounts (sandbox/accounts.mjs is their one source). */
export const ACCOUNTS = ACCOUNT_IDS;

/** A small but real PDF (what Upload Document sends; the sandbox checks the magic bytes). */
export const PDF_BASE64 = Buffer.from(
	'%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

export const UUID = '[0-9a-f-]{36}';

/** `={{ $('Node').first().json.field }}` */
export const ref = (node, field = 'id') => `={{ $('${node}').first().json.${field} }}`;

/**
 * The URL expression of a sandbox control route (`/_sandbox…`), for an HTTP Request step.
 * @param {{sandboxUrl: string}} sb
 * @param {string} route
 */
export const controlUrl = (sb, route) => `=${sb.sandboxUrl}/_sandbox${route}`;

/** The one request of the log matching method + path (a RegExp on the URL). */
export function one(log, method, pathPattern) {
	const found = log.filter(
		(r) => r.method === method && pathPattern.test(String(r.url).split('?')[0]),
	);
	if (found.length !== 1) {
		throw new Error(
			`expected one ${method} ${pathPattern} in the sandbox log, found ${found.length}:\n` +
				log.map((r) => `  ${r.method} ${r.url} → ${r.status}`).join('\n'),
		);
	}
	return found[0];
}

/**
 * The requests of the latest Return All listing of that path (an earlier one, such as Transaction >
 * Find By Idempotency Key reading the same list, is left out): the first page without `last_id`,
 * each next page asking for what follows the last id of the previous one, until a page comes back
 * short.
 */
export function pages(log, method, pathPattern) {
	const all = log.filter(
		(r) => r.method === method && pathPattern.test(String(r.url).split('?')[0]),
	);
	const starts = all.flatMap((r, index) => (r.query?.last_id === undefined ? [index] : []));
	const found = all.slice(starts.length > 0 ? starts[starts.length - 1] : 0);
	expect(found.length).toBeGreaterThanOrEqual(1);
	expect(found[0].query?.last_id).toBeUndefined();
	for (const next of found.slice(1)) expect(next.query?.last_id).toEqual(expect.any(String));
	return found;
}

/** Fails with the node's error message (and the run's) when a phase did not run through. */
export function expectRunOk(run) {
	if (run.exitCode !== 0 || run.error) {
		const failed = Object.entries(run.runData?.resultData?.runData ?? {})
			.filter(([, runs]) => runs.some((r) => r.error))
			.map(
				([name, runs]) =>
					`${name}: ${runs.find((r) => r.error).error.message} ${runs.find((r) => r.error).error.description ?? ''}`,
			);
		throw new Error(
			`The workflow failed (exit ${run.exitCode}): ${failed.join('; ') || run.error?.message || run.stdout.slice(-2000)}`,
		);
	}
}

/** Latest of the sandbox clock and the real clock, so dates are in the future for both. @param {any} sb */
export async function futureBase(sb) {
	const clock = await sandboxControl('GET', '/clock', undefined, sb.state);
	return new Date(Math.max(Date.now(), Date.parse(clock.data.now)));
}
