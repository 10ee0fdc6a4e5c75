import { createHash } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/*
 * The chain of executions a payment's identity comes from (docs/money.md): what the node writes in
 * the execution's custom data, which n8n copies into the execution its Retry button starts.
 */

/** The execution custom data key (n8n keeps 10 per execution, values up to 512 characters). */
export const CHAIN_DATA_KEY = 'facilitapay';
/** The most characters of the custom data value; past it the node runs are written as `*`. */
export const CHAIN_DATA_MAX = 500;

/** What the execution's custom data says of the money requests of its chain of retries. */
export interface Chain {
	origin: string;
	/** What create answers showed: `k` FacilitaPay kept the identity in meta, `d` dropped it. */
	meta: '' | 'k' | 'd';
	/** Node runs (hashed) that attempted money requests in this chain; `*`: some were not written. */
	runs: string[];
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

export function parseChain(value: unknown): Chain | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const [origin, meta, runs] = value.split('|');
	if (!origin) return undefined;
	return {
		origin,
		meta: meta === 'k' || meta === 'd' ? meta : '',
		runs: runs ? runs.split(',') : [],
	};
}

export function chainText(chain: Chain): string {
	const text = `${chain.origin}|${chain.meta}|${chain.runs.join(',')}`;
	return text.length <= CHAIN_DATA_MAX ? text : `${chain.origin}|${chain.meta}|*`;
}

/** A node run as the chain lists it: 10 characters of a hash of the node ID and `$runIndex`. */
export function runToken(nodeId: string, runIndex: number): string {
	return createHash('sha256').update(`${nodeId}\u0000${runIndex}`).digest('base64url').slice(0, 10);
}

export function safe<T>(read: () => T): T | undefined {
	try {
		return read();
	} catch {
		return undefined;
	}
}
