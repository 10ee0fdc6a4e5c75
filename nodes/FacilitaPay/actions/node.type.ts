import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ApiRequest, PageOptions } from '../transport';
import type { RecordPlace } from '../money';
import type { CardSecrets } from '../security/cardData';

/**
 * One item's work, read and checked before anything is sent: the request, how to send it, and
 * how to turn the answer into output items. The item engine (router) sends it through the run's
 * pool; an operation knows nothing of pools, retries or rate limits.
 */
export interface ItemWork {
	request: ApiRequest;
	/**
	 * `one` (default): one JSON request; `allPages`: follows `last_id` paging; `download`: a file;
	 * `reads`: `perform` sends the reads it needs (each through the run, `retry` as it says).
	 */
	send?: 'one' | 'allPages' | 'download' | 'reads';
	/** For `send: 'reads'`: the reads, through `read`, for the account the run reaches. */
	perform?(
		this: IExecuteFunctions,
		read: (request: ApiRequest) => Promise<unknown>,
		account: Promise<string>,
	): Promise<unknown>;
	/** Paging of `allPages`. */
	page?: PageOptions;
	/** Card data this item sends: hidden from any error the request ends with. */
	cardSecrets?: CardSecrets;
	/**
	 * Checks again, right before the request is sent (after the item waited for its turn in the
	 * pool), what the passing of time can break since the item was checked: a dynamic PIX expiry
	 * must still be more than a minute ahead. Throws the readable error (nothing is sent for the
	 * item); never changes the request. The item engine calls it just before sending.
	 */
	beforeSend?(this: IExecuteFunctions): void;
	/** Turns the service's answer into the item's output items (without pairedItem). */
	output(
		this: IExecuteFunctions,
		answer: unknown,
	): INodeExecutionData[] | Promise<INodeExecutionData[]>;
}

/**
 * What an operation that creates or moves money declares, once, beside its `prepare` (whose request
 * it sends with `retry: 'sendOnce'`): where FacilitaPay keeps the record its request makes, so that
 * a retry can find it (money/). From it follow the Idempotency Key and Preview
 * fields, the identity in `meta` and the lookup.
 */
export interface MoneyDeclaration {
	record(request: ApiRequest): RecordPlace;
}

/** What every `<operation>.operation.ts` exports. */
export interface OperationModule {
	description: INodeProperties[];
	/** Present when the operation creates or moves money. */
	money?: MoneyDeclaration;
	/**
	 * Reads and validates one input item's parameters into its work. Sends nothing; throws the
	 * readable error (which field, which item, how to fix it) when the input breaks a rule.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): Promise<ItemWork>;
	/**
	 * Present when the operation runs over all items as a whole instead of item by item through
	 * the item engine (Wait for Payment: one wait for all items, three outputs).
	 */
	run?(this: IExecuteFunctions): Promise<INodeExecutionData[][] | null>;
}

/** What every `<Resource>.resource.ts` exports besides its operation modules. */
export interface ResourceModule {
	description: INodeProperties[];
	[operation: string]: OperationModule | INodeProperties[];
}
