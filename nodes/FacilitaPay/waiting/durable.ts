import { createHash } from 'crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { LogSource } from '../logFeed';
import { onLogPage } from '../logFeed';
import type { FacilitaPayContext } from '../transport';
import { apiRequest, beginRun, CREDENTIAL_TYPE } from '../transport';
import { WAIT_META_FIELD } from '../validation/metadata';
import { asLogRecord, RECORD_DECISIONS } from './decide';
import { resumeCallUrl } from './resumeUrl';
import { signedBody, signingKey } from './signature';
import { isWaited } from './waiter';

/**
 * After n8n restarted (or the `n8n execute` process, or the queue worker, that registered a wait
 * is gone), this process's waiter knows nothing. A published FacilitaPay Trigger's reader starts
 * again with n8n and reads the account's log; every page it reads is offered here (logFeed). A
 * deciding record of a transaction no wait of this process knows is looked up ONCE: the
 * transaction's `meta.n8n_facilitapay_wait` (written by our Create operations when a Wait for Payment follows
 * them) names the execution's resume URL and the n8n instance; if it is this instance's, the
 * execution is called, signed, and its webhook() decides by re-reading FacilitaPay, as always.
 */

export { WAIT_META_FIELD };

/**
 * A record is looked up this long after it is seen: a waiter alive elsewhere (a queue worker, the
 * process that ran the node) resumes its execution within seconds, so this call then finds it
 * finished (409) instead of racing it into a second resume.
 */
export const DURABLE_DELAY_MS = 20_000;

/** How many looked-up transaction IDs are remembered (not looked up again). */
export const CHECKED_MEMORY = 10_000;

/** What the Create operations write into `meta` (see withResumeAddress). */
export function resumeAddress(resumeUrl: string, instanceId: string): IDataObject {
	return { resume_url: resumeUrl, instance: instanceTag(instanceId) };
}

/** A tag of the n8n instance (its ID is not written to FacilitaPay as it is). */
export function instanceTag(instanceId: string): string {
	return createHash('sha256').update(`facilitapay-wait\n${instanceId}`).digest('hex').slice(0, 16);
}

/** The execution a resume URL of n8n names (`…/webhook-waiting/<id>[?signature=…]`). */
export function executionOfResumeUrl(url: string): string | undefined {
	const match = /\/webhook-waiting\/([^/?#]+)/.exec(url);
	return match ? decodeURIComponent(match[1]) : undefined;
}

interface ReaderContext {
	getInstanceId(): string;
	getCredentials(type: string): Promise<ICredentialDataDecryptedObject>;
	helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> };
}

const durable = {
	checked: new Set<string>(),
	stopListening: undefined as (() => void) | undefined,
	stats: { lookups: 0, resumeCalls: 0 },
};

function remember(key: string): boolean {
	if (durable.checked.has(key)) return false;
	durable.checked.add(key);
	if (durable.checked.size > CHECKED_MEMORY) {
		const oldest = durable.checked.values().next().value;
		if (oldest !== undefined) durable.checked.delete(oldest);
	}
	return true;
}

async function resumeFromMeta(
	account: string,
	source: LogSource,
	id: string,
	record: IDataObject,
): Promise<void> {
	const ctx = source.context as ReaderContext & FacilitaPayContext;
	durable.stats.lookups++;
	const transaction = (await apiRequest.call(
		ctx,
		{ method: 'GET', path: `/transactions/${encodeURIComponent(id)}`, retry: 'safe' },
		undefined,
		beginRun({ concurrency: 2, timeoutMs: 30_000 }),
	)) as IDataObject | undefined;
	const address = (transaction?.meta as IDataObject | undefined)?.[WAIT_META_FIELD] as
		| IDataObject
		| undefined;
	const url = typeof address?.resume_url === 'string' ? address.resume_url : undefined;
	if (!url || address?.instance !== instanceTag(ctx.getInstanceId())) return;
	const executionId = executionOfResumeUrl(url);
	if (!executionId || isWaited(account, id)) return;
	const key = signingKey(await ctx.getCredentials(CREDENTIAL_TYPE), ctx.getInstanceId());
	durable.stats.resumeCalls++;
	await ctx.helpers.httpRequest({
		method: 'POST',
		url: resumeCallUrl(url),
		body: signedBody(key, { executionId, records: [record], final: false }),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	});
}

/**
 * Listens to the log pages of this process for the waits of executions this process did not
 * register (after a restart). Called once by the FacilitaPay Trigger node's module.
 */
export function resumeAfterRestart(): void {
	if (durable.stopListening) return;
	durable.stopListening = onLogPage((account, page, source) => {
		if (!source) return;
		for (const value of page) {
			const record = asLogRecord(value);
			if (!record) continue;
			const type = record.notification.type;
			if (typeof type !== 'string' || !RECORD_DECISIONS[type]) continue;
			const id = record.notification.transaction_id;
			if (typeof id !== 'string' || id === '' || isWaited(account, id)) continue;
			if (!remember(`${account}|${id}|${type}`)) continue;
			void sleep(DURABLE_DELAY_MS)
				.then(
					async () => await resumeFromMeta(account, source, id, record as unknown as IDataObject),
				)
				.catch(() => {
					// Looked up again only if another deciding record of it is listed; the limit decides otherwise.
					durable.checked.delete(`${account}|${id}|${type}`);
				});
		}
	});
}

export function durableStats(): { lookups: number; resumeCalls: number } {
	return { ...durable.stats };
}

/** Forgets everything (tests). */
export function resetDurable(): void {
	durable.stopListening?.();
	durable.stopListening = undefined;
	durable.checked.clear();
	durable.stats = { lookups: 0, resumeCalls: 0 };
}
