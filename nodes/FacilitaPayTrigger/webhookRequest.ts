import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../FacilitaPay/transport';
import type { Decision, Effects, Facts, Received } from './decision';
import { ANSWERS } from './texts';
import {
	checkAndClaim,
	duplicateKey,
	isEmitted,
	rememberEmitted,
	release,
	saveEmitted,
} from './duplicates';
import { classifyPayload, parseBody, safeHeaders } from './notification';
import { readLegacyDigest, readRegistration } from './registration';
import { accountOf, READS_WITHIN_MS } from './reads';
import type { Listing } from './records';
import {
	legacyDigest,
	matchesStoredHmac,
	noteUnknownSecretPace,
	rightSecretPace,
	secretHmac,
	secretKey,
	secretsEqual,
} from './secret';

/*
 * The n8n side of one webhook call, kept apart from the decision: gather the facts (request,
 * options, static data, what this process remembers) and carry out what was decided. Neither
 * throws.
 */

export interface TriggerOptions {
	acceptUnsignedKycStatus?: boolean;
	disableOnDeactivation?: boolean;
	dropDuplicates?: boolean;
	/** The old name of verifyWithApi (version 1), read for workflows saved with it. */
	fetchTransaction?: boolean;
	includeHeaders?: boolean;
	verifyWithApi?: boolean;
}

/** Verify With API, on unless turned off (or turned off under its old name, Fetch Transaction). */
export function verifyWithApiOption(options: TriggerOptions): boolean {
	if (typeof options.verifyWithApi === 'boolean') return options.verifyWithApi;
	if (typeof options.fetchTransaction === 'boolean') return options.fetchTransaction;
	return true;
}

/** Everything one call needs besides the facts: where its state lives. */
export interface Call {
	facts: Facts;
	staticData: IDataObject;
	/** This trigger in this process's memory (guessing count, duplicates). */
	owner: string;
	/** The duplicate key of the event. */
	key: string;
	/** Whether this call holds the claim on `key` (it found the notification new). */
	claimed: boolean;
	/** The FacilitaPay account the credentials reach ('' when they could not be read). */
	account: string;
	/** The credentials, read once for the whole call (n8n reads them from its database each time). */
	credentials?: ICredentialDataDecryptedObject;
}

function receivedOf(ctx: IWebhookFunctions): Received {
	const rawBody = (ctx.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
	const parsed = parseBody(ctx.getBodyData(), rawBody);
	if (!parsed.ok) return { kind: 'bad', status: parsed.status, message: parsed.reason };
	const classified = classifyPayload(parsed.payload);
	switch (classified.kind) {
		case 'malformed':
			return { kind: 'bad', status: 400, message: classified.reason };
		case 'unknown':
			return { kind: 'unknown' };
		case 'kycStatus':
			return { kind: 'kycStatus', subject: classified.subject };
		case 'notification':
			return { kind: 'notification', notification: classified.notification };
	}
}

/**
 * Compares the notification's secret with the stored keyed HMAC (or an earlier version's digest).
 * Only the current registration's secret: an older one (or one kept under other credentials) is
 * settled by FacilitaPay's notification records, so a rotated secret stops working at once.
 */
function compareSecret(staticData: IDataObject, secret: unknown, key: Buffer): Facts['secret'] {
	const registration = readRegistration(staticData);
	const legacy = readLegacyDigest(staticData);
	if (registration && matchesStoredHmac(secret, key, [registration.secretHmac])) return 'right';
	if (legacy && typeof secret === 'string' && secretsEqual(legacyDigest(secret), legacy)) {
		// Kept by an earlier version as an unkeyed SHA-256: replaced by the keyed HMAC.
		staticData.secretHmac = secretHmac(secret, key);
		delete staticData.secretDigest;
		return 'right';
	}
	return 'unknown';
}

/**
 * Whether the sender closed the connection: no answer can reach it any more. The socket tells (the
 * request stream itself counts as destroyed as soon as its body was read).
 */
export function senderGone(ctx: IWebhookFunctions): boolean {
	const request = ctx.getRequestObject() as unknown as { socket?: { destroyed?: boolean } | null };
	return request.socket?.destroyed === true;
}

/** Reads the request and the stored state into the facts of the decision. */
export async function gather(ctx: IWebhookFunctions, now: number): Promise<Call> {
	const options = ctx.getNodeParameter('options', {}) as TriggerOptions;
	const staticData = ctx.getWorkflowStaticData('node');
	const workflow = ctx.getWorkflow?.() as { id?: string } | undefined;
	const owner = `${workflow?.id ?? ''}:${ctx.getNode().id}`;
	const received = receivedOf(ctx);

	let secret: Facts['secret'] = 'none';
	let account = '';
	let credentials: ICredentialDataDecryptedObject | undefined;
	if (received.kind === 'notification' || received.kind === 'kycStatus') {
		try {
			const read = await ctx.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE);
			credentials = read;
			account = accountOf(read);
			if (received.kind === 'notification') {
				secret = compareSecret(staticData, received.notification.secret, secretKey(read));
			}
		} catch {
			secret = 'unavailable';
		}
	}
	const key =
		received.kind === 'notification'
			? duplicateKey(received.notification)
			: received.kind === 'kycStatus'
				? duplicateKey({ kyc_status: received.subject })
				: '';
	// Checked and claimed in the same step as nothing else runs in between (no await). Only what
	// the secret vouches for claims: a stranger's copy of a true event under a wrong secret must
	// not hold the true one back while its records are looked up (a secret this trigger does not
	// hold claims once the records list it: withListing).
	const vouched = secret !== 'unknown';
	const duplicate = key === '' || !vouched ? 'new' : checkAndClaim(staticData, key, now, owner);
	const facts: Facts = {
		now,
		received,
		options: {
			verifyWithApi: verifyWithApiOption(options),
			acceptUnsignedKycStatus: options.acceptUnsignedKycStatus === true,
			dropDuplicates: options.dropDuplicates === true,
		},
		events: ctx.getNodeParameter('events', []),
		secret,
		duplicate,
		payloadKey: key === '' ? undefined : key,
		emitted: (other: string) => isEmitted(staticData, other, now, owner),
		headers: options.includeHeaders === true ? safeHeaders(ctx.getHeaderData()) : undefined,
		senderGone: senderGone(ctx),
	};
	return {
		facts,
		staticData,
		owner,
		key,
		claimed: key !== '' && vouched && duplicate === 'new',
		account,
		credentials,
	};
}

/**
 * Where this notification's reads are kept for its next delivery (account, trigger, payload), or
 * undefined when they are not kept: only a notification that came from FacilitaPay (its secret,
 * or FacilitaPay's records, say so) and holds the claim on its key.
 */
export function keptKey(call: Call): string | undefined {
	const fromFacilitaPay = call.facts.secret === 'right' || call.facts.listing === 'listed';
	if (!call.claimed || !fromFacilitaPay) return undefined;
	return `${call.account}\n${call.owner}\n${call.key}`;
}

/** Whether the decision asks FacilitaPay to send the notification again. */
export function asksAgain(decision: Decision): boolean {
	return decision.kind === 'answer' && decision.answer === ANSWERS.sendLater;
}

/**
 * What FacilitaPay's records said of a notification under a secret this trigger does not hold.
 * Listed, it is a true notification: only now does it check and claim its duplicate key.
 */
export function withListing(call: Call, listing: Listing): void {
	call.facts = { ...call.facts, listing };
	if (listing !== 'listed' || call.key === '') return;
	const duplicate = checkAndClaim(call.staticData, call.key, call.facts.now, call.owner);
	call.facts.duplicate = duplicate;
	call.claimed = duplicate === 'new';
}

/**
 * Keeps the answer's time from telling the secret (secret.ts, "The answer's time"): notes how long
 * an answer to an unknown secret took; holds an answer to the right secret until one of those
 * times has passed since it arrived (at most READS_WITHIN_MS).
 */
export async function keepPace(call: Call, decision: Decision, arrived: number): Promise<void> {
	if (call.facts.received.kind !== 'notification') return;
	const now = Date.now();
	if (call.facts.secret === 'unknown') {
		if (decision.kind === 'answer' && decision.answer.status === 200) {
			noteUnknownSecretPace(call.owner, now, now - arrived);
		}
		return;
	}
	if (call.facts.secret !== 'right') return;
	const wait = arrived + rightSecretPace(call.owner, now, READS_WITHIN_MS) - now;
	if (wait > 0) await sleep(wait);
}

/** Does what the final decision says besides answering: remember, give the claim up, log. */
export function carryOut(ctx: IWebhookFunctions, call: Call, effects: Effects): void {
	const { staticData, owner, key, facts } = call;
	if (effects.remember) rememberEmitted(staticData, effects.remember, facts.now, owner);
	else saveEmitted(staticData, facts.now, owner);
	if (call.claimed) {
		release(key, owner);
		call.claimed = false;
	}
	if (effects.log) ctx.logger[effects.log.level](effects.log.text);
}

/**
 * Answers the request itself, before n8n prepares the execution: n8n saves what this request
 * changed in the static data (Drop Duplicates, the guessing count) only when the answer comes
 * first (seen in n8n 2.41.1).
 */
export function respond(
	ctx: IWebhookFunctions,
	call: Call,
	decision: Decision,
): IWebhookResponseData {
	// A decision given the reads never asks for them again; should it, FacilitaPay sends it later.
	const final: Decision =
		decision.kind === 'answer'
			? decision
			: { kind: 'answer', answer: ANSWERS.sendLater, effects: {} };
	carryOut(ctx, call, final.effects);
	ctx.getResponseObject().status(final.answer.status).json({ message: final.answer.message });
	if (!final.item) return { noWebhookResponse: true };
	return { noWebhookResponse: true, workflowData: [[{ json: final.item }]] };
}
