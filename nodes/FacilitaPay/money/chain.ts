import { createHash, createHmac } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/*
 * The chain of executions a payment's identity comes from (docs/money.md): what the node writes in
 * the execution's custom data, which n8n copies into the execution its Retry button starts. The
 * value is tagged (an HMAC keyed by this n8n instance and workflow): a value the node cannot
 * recognise as its own (a workflow's own `facilitapay` key, another workflow's or instance's) is
 * no origin.
 */

/** The execution custom data key (n8n keeps 10 per execution, values up to 512 characters). */
export const CHAIN_DATA_KEY = 'facilitapay';
/** The most characters of the custom data value; past it runs, then lists, are written as `*`. */
export const CHAIN_DATA_MAX = 500;
const VERSION = 'v2';

/**
 * Where the chain's payments went in one list, and from which record of it a retry reads:
 * - `after`: the newest record known before the chain's first request to the list (not the chain's);
 * - `first`: the chain's own first record there (read it, then what follows it);
 * - neither: the first request's answer was lost, the list is read from its start.
 */
export interface ChainList {
	key: string;
	after?: string;
	first?: string;
}

/** What the execution's custom data says of the money requests of its chain of retries. */
export interface Chain {
	origin: string;
	/** What create answers showed: `k` FacilitaPay kept the identity in meta, `d` dropped it. */
	meta: '' | 'k' | 'd';
	/**
	 * Whether a request of the chain may have been processed without an answer (written before the
	 * first request leaves, cleared when the run ends with every outcome known).
	 */
	unknown: boolean;
	/**
	 * When the newest request of unknown outcome failed, by FacilitaPay's clock (epoch seconds):
	 * "not found" proves "not sent" for such a request only once FacilitaPay had time to write it.
	 */
	unknownAt?: number;
	/**
	 * The items whose request had no known outcome, as `<run>.<item>` (`<run>`: the node run's
	 * position in `runs`); `*`: some were not written (every item of the chain counts as one).
	 */
	unknownItems?: string[] | '*';
	/** Node runs (hashed) that attempted money requests in this chain; `*`: some were not written. */
	runs: string[];
	/** The lists the chain sent to (subject IDs; `s`: the subscriptions); `undefined`: not all written. */
	lists: ChainList[] | undefined;
}

export interface CustomData {
	get(key: string): unknown;
	set(key: string, value: string): void;
}

const isCustomData = (data: unknown): data is CustomData =>
	typeof (data as CustomData | undefined)?.get === 'function' &&
	typeof (data as CustomData | undefined)?.set === 'function';

/**
 * The execution's custom data: `this.customData` (n8n 2.x), else `$execution.customData` of the
 * expression proxy (n8n 1.x offers it only there; measured in 1.123.81).
 */
export function customDataOf(ctx: IExecuteFunctions): CustomData | undefined {
	const direct = safe(() => (ctx as { customData?: unknown }).customData);
	if (isCustomData(direct)) return direct;
	const proxied = safe(
		() =>
			(ctx.getWorkflowDataProxy(0) as { $execution?: { customData?: unknown } }).$execution
				?.customData,
	);
	return isCustomData(proxied) ? proxied : undefined;
}

/** The tag of a chain's text: an HMAC keyed by the instance and workflow the node runs in. */
function tagOf(scopeSecret: string, body: string): string {
	return createHmac('sha256', scopeSecret).update(body).digest('base64url').slice(0, 16);
}

const LIST_PATTERN = /^([A-Za-z0-9_-]{1,64})(?:([~+])([A-Za-z0-9_.-]{1,64}))?$/;

function listText(list: ChainList): string {
	if (list.first !== undefined) return `${list.key}+${list.first}`;
	if (list.after !== undefined) return `${list.key}~${list.after}`;
	return list.key;
}

/**
 * The chain written in `value`, when the node wrote it in this instance and workflow
 * (`scopeSecret`); anything else (a user's own value, another workflow's) is no chain.
 */
export function parseChain(value: unknown, scopeSecret: string): Chain | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const parts = value.split('|');
	if (parts.length !== 6 || parts[0] !== VERSION) return undefined;
	const [, origin, meta, runs, lists, tag] = parts;
	if (tag !== tagOf(scopeSecret, parts.slice(0, 5).join('|'))) return undefined;
	const flags =
		/^([kd]?)(u?)(?:@([0-9a-z]{1,10}))?(?:#(\*|\d{1,4}\.\d{1,7}(?:,\d{1,4}\.\d{1,7})*))?$/.exec(
			meta,
		);
	if (!/^[^|,~+]{1,64}$/.test(origin) || !flags) return undefined;
	let parsedLists: ChainList[] | undefined = [];
	if (lists === '*') parsedLists = undefined;
	else if (lists !== '') {
		for (const text of lists.split(',')) {
			const match = LIST_PATTERN.exec(text);
			if (!match) return undefined;
			const list: ChainList = { key: match[1] };
			if (match[2] === '+') list.first = match[3];
			if (match[2] === '~') list.after = match[3];
			parsedLists.push(list);
		}
	}
	return {
		origin,
		meta: flags[1] as Chain['meta'],
		unknown: flags[2] === 'u',
		unknownAt: flags[3] === undefined ? undefined : parseInt(flags[3], 36),
		unknownItems: flags[4] === undefined ? undefined : flags[4] === '*' ? '*' : flags[4].split(','),
		runs: runs ? runs.split(',') : [],
		lists: parsedLists,
	};
}

/** The chain as written in custom data, tagged; what does not fit is written as `*`. */
export function chainText(chain: Chain, scopeSecret: string): string {
	const lists = chain.lists === undefined ? '*' : chain.lists.map(listText).join(',');
	const write = (runs: string, listsText: string, items = chain.unknownItems) => {
		const at = chain.unknownAt === undefined ? '' : `@${chain.unknownAt.toString(36)}`;
		const listed =
			items === undefined ? '' : `#${items === '*' || runs === '*' ? '*' : items.join(',')}`;
		const flags = `${chain.meta}${chain.unknown ? 'u' : ''}${at}${listed}`;
		const body = `${VERSION}|${chain.origin}|${flags}|${runs}|${listsText}`;
		return `${body}|${tagOf(scopeSecret, body)}`;
	};
	const all = chain.unknownItems === undefined ? undefined : '*';
	const full = write(chain.runs.join(','), lists);
	if (full.length <= CHAIN_DATA_MAX) return full;
	const fewerItems = write(chain.runs.join(','), lists, all);
	if (fewerItems.length <= CHAIN_DATA_MAX) return fewerItems;
	const fewer = write('*', lists);
	return fewer.length <= CHAIN_DATA_MAX ? fewer : write('*', '*');
}

/** A node run as the chain lists it: 10 characters of a hash of the node ID and `$runIndex`. */
export function runToken(nodeId: string, runIndex: number): string {
	return createHash('sha256').update(`${nodeId}\u0000${runIndex}`).digest('base64url').slice(0, 10);
}

/** A short, stable name of this n8n instance for identities (12 characters of a hash of its ID). */
export function instanceName(instanceId: string): string {
	return createHash('sha256').update(instanceId).digest('base64url').slice(0, 12);
}

export function safe<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}
