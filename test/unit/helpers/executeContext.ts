import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';
import type { ProcessedStore } from '../../helpers/fakeExecuteContext';
import { createExecuteContext } from '../../helpers/fakeExecuteContext';
import { workflowNode } from './workflowNode';

export const BASE_URL = 'https://sandbox.test/api/v1';

export const testNode: INode = workflowNode(
	'node-1',
	'FacilitaPay',
	'n8n-nodes-facilitapay.facilitaPay',
);

type Reply = unknown | ((options: IHttpRequestOptions) => unknown);

export interface ContextOptions {
	/** Node parameters; an array gives each input item its own parameters. */
	parameters: IDataObject | IDataObject[];
	/** Input items; defaults to one empty item per parameter set. */
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	credentials?: IDataObject;
	/** Answers of the service, in order. An Error is thrown; a function is called with the request. */
	replies?: Reply[];
	/** The execution this run belongs to (n8n's Retry On Fail runs the node again in the same one). */
	executionId?: string;
	/** The workflow's time zone (IANA), UTC by default. */
	timezone?: string;
	/** n8n's $runIndex of this run of the node (unset: n8n does not tell it). */
	runIndex?: number;
	/** n8n's execution mode ('retry' after the Retry button). */
	mode?: string;
	/** n8n's deduplication store: share one between runs to play several executions. */
	processedStore?: ProcessedStore;
	/** The execution's custom data: share one object with a retry's context to play n8n's carry-over. */
	customData?: Record<string, string>;
	/** n8n's instance ID (default 'instance-a') and the workflow's ID (default 'workflow-1'). */
	instanceId?: string;
	workflowId?: string;
	/**
	 * Plays another n8n process (a queue-mode worker): its memory of identities and lists is apart
	 * (the node keeps them per credential in a process; here one credential ID per "worker").
	 */
	worker?: string;
	/** The node's type (ends with "Tool" when an AI agent runs it). */
	nodeType?: string;
}

export interface FakeContext {
	ctx: IExecuteFunctions;
	/** Every request the node sent, in order. */
	requests: IHttpRequestOptions[];
}

/**
 * An IExecuteFunctions good enough to run the node's operations: parameters per item, credentials,
 * binary helpers, and an httpRequestWithAuthentication that records each request and plays the
 * scripted replies (throwing the errors n8n-core would throw).
 */
export function createContext(options: ContextOptions): FakeContext {
	const parameterSets = Array.isArray(options.parameters)
		? options.parameters
		: [options.parameters];
	const items: INodeExecutionData[] = options.items ?? parameterSets.map(() => ({ json: {} }));
	const replies = [...(options.replies ?? [])];
	const requests: IHttpRequestOptions[] = [];
	const credentials = options.credentials ?? {
		environment: 'custom',
		baseUrl: `${BASE_URL}/`,
		authentication: 'accessToken',
		accessToken: 'test-token',
	};

	const http = jest.fn(async (_type: string, request: IHttpRequestOptions) => {
		requests.push(JSON.parse(JSON.stringify(request)) as IHttpRequestOptions);
		if (replies.length === 0)
			throw new Error(`Unexpected request: ${request.method} ${request.url}`);
		const reply = replies.shift();
		const value =
			typeof reply === 'function' ? (reply as (o: IHttpRequestOptions) => unknown)(request) : reply;
		if (value instanceof Error) throw value;
		return value;
	});

	const ctx = createExecuteContext({
		node: {
			...testNode,
			...(options.nodeType ? { type: options.nodeType } : {}),
			...(options.worker
				? { credentials: { facilitaPayApi: { id: options.worker, name: 'FacilitaPay' } } }
				: {}),
		},
		parameters: options.parameters,
		items,
		credentials,
		continueOnFail: options.continueOnFail,
		executionId: options.executionId,
		timezone: options.timezone,
		runIndex: options.runIndex,
		mode: options.mode,
		processedStore: options.processedStore,
		customData: options.customData,
		instanceId: options.instanceId,
		workflowId: options.workflowId,
		httpRequestWithAuthentication: http,
	});
	return { ctx, requests };
}

/** Runs the node's execute() with a fake context; returns the first output and the requests. */
export async function runNode(options: ContextOptions) {
	const fake = createContext(options);
	const node = new FacilitaPay();
	const [output] = await node.execute.call(fake.ctx);
	return { output, requests: fake.requests };
}

/** Runs the node expecting it to throw; returns the error and the requests that left. */
export async function runNodeExpectingError(options: ContextOptions) {
	const fake = createContext(options);
	const node = new FacilitaPay();
	try {
		await node.execute.call(fake.ctx);
	} catch (error) {
		return {
			error: error as Error & { description?: string; context: IDataObject },
			requests: fake.requests,
		};
	}
	throw new Error('The node did not throw');
}

/** A binary item as a previous node (Read File, Form) would produce it. */
export function binaryItem(
	bytes: Buffer,
	fileName: string,
	mimeType: string,
	property = 'data',
): INodeExecutionData {
	return {
		json: {},
		binary: { [property]: { data: bytes.toString('base64'), fileName, mimeType } },
	};
}
