import { mock } from 'jest-mock-extended';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	IHttpRequestOptions,
	INode,
	IWebhookFunctions,
	IWebhookResponseData,
	Logger,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { FacilitaPayTrigger } from '../../../nodes/FacilitaPayTrigger/FacilitaPayTrigger.node';
import { secretHmac, secretKey } from '../../../nodes/FacilitaPayTrigger/registration';
import { workflowNode } from '../helpers/workflowNode';

/**
 * Fakes for the trigger, after n8n's own `testWebhookTriggerNode` (nodes-base test helpers): a
 * `mock<IWebhookFunctions>()` / `mock<IHookFunctions>()` from jest-mock-extended with the node's
 * parameters, static data, request and a response object that records what was answered, plus an
 * httpRequestWithAuthentication that records every request that left and plays scripted replies.
 */

export const BASE_URL = 'https://sandbox.test/api/v1';
export const PRODUCTION_URL = 'https://n8n.example.com/webhook/3f1c/webhook';
export const TEST_URL = 'https://n8n.example.com/webhook-test/3f1c/webhook';
export const SECRET = '3718';

export const credentials = {
	environment: 'custom',
	baseUrl: BASE_URL,
	authentication: 'accessToken',
	accessToken: 'test-token',
};

const node: INode = workflowNode(
	'trigger-1',
	'FacilitaPay Trigger',
	'n8n-nodes-facilitapay.facilitaPayTrigger',
);

/** The keyed HMAC the trigger keeps for a secret, under the test credentials' key. */
export function hmacOf(secret: unknown, creds: IDataObject = credentials): string {
	return secretHmac(secret, secretKey(creds as ICredentialDataDecryptedObject))!;
}

/** The static data a production activation leaves behind. */
export function registeredStaticData(overrides: IDataObject = {}): IDataObject {
	return {
		secretHmac: hmacOf(SECRET),
		webhookUrl: PRODUCTION_URL,
		testRegistration: false,
		registeredAt: '2025-06-01T12:00:00.000Z',
		ownUrls: [PRODUCTION_URL],
		...overrides,
	};
}

let workflowCounter = 0;

type Reply = unknown;
/** Answers every request by what it asks (a promise delays the answer; an Error is thrown). */
export type Replier = (request: IHttpRequestOptions) => unknown;

export interface RecordedHttp {
	requests: IHttpRequestOptions[];
	/** The most requests that were waiting for an answer at one moment. */
	maxInFlight: number;
}

function recordingHttp(replies: Reply[] | Replier) {
	const recorded: RecordedHttp = { requests: [], maxInFlight: 0 };
	const queue = Array.isArray(replies) ? [...replies] : [];
	let inFlight = 0;
	const http = jest.fn(async (_type: string, request: IHttpRequestOptions) => {
		recorded.requests.push(JSON.parse(JSON.stringify(request)) as IHttpRequestOptions);
		inFlight += 1;
		recorded.maxInFlight = Math.max(recorded.maxInFlight, inFlight);
		try {
			let reply: unknown;
			if (typeof replies === 'function') reply = await replies(request);
			else {
				if (queue.length === 0) {
					throw new Error(`Unexpected request: ${request.method} ${request.url}`);
				}
				reply = queue.shift();
			}
			if (reply instanceof Error) throw reply;
			return reply;
		} finally {
			inFlight -= 1;
		}
	});
	return { http, recorded, requests: recorded.requests };
}

function parameterGetter(parameters: IDataObject) {
	return (name: string, fallback?: unknown) => {
		const value = name
			.split('.')
			.reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], parameters);
		return value === undefined ? fallback : value;
	};
}

export interface RecordedResponse {
	statusCode?: number;
	body?: unknown;
	/** Date.now() when the status was set (fake timers move it). */
	answeredAt?: number;
}

function fakeResponse() {
	const recorded: RecordedResponse = {};
	const response = {
		status(code: number) {
			recorded.statusCode = code;
			recorded.answeredAt = Date.now();
			return response;
		},
		json(body: unknown) {
			recorded.body = body;
			return response;
		},
		send(body: unknown) {
			recorded.body = body;
			return response;
		},
		end() {
			return response;
		},
	};
	return { response, recorded };
}

export interface WebhookOptions {
	parameters?: IDataObject;
	/** What n8n parsed from the request; a string stands for a body n8n left as text. */
	bodyData?: unknown;
	rawBody?: Buffer;
	headers?: Record<string, string>;
	staticData?: IDataObject;
	replies?: Reply[] | Replier;
	/** Requests of one trigger share what the process remembers (duplicates): same id, same trigger. */
	workflowId?: string;
	credentials?: IDataObject;
	/** The request object n8n hands over (its socket says whether the sender is still there). */
	request?: { socket: { destroyed: boolean } };
	/** How long n8n takes to read the credentials (fake time). */
	credentialsDelayMs?: number;
	/** 'manual': a delivery to the test URL of "Listen for test event". */
	mode?: 'webhook' | 'manual';
}

export interface WebhookResult {
	responseData: IWebhookResponseData;
	/** What the node answered itself (only when it refused the request). */
	response: RecordedResponse;
	requests: IHttpRequestOptions[];
	http: RecordedHttp;
	logger: Logger;
}

/** Calls the trigger's webhook() as n8n would for one incoming POST. */
export async function receive(options: WebhookOptions): Promise<WebhookResult> {
	const { http, requests, recorded: httpRecord } = recordingHttp(options.replies ?? []);
	const { response, recorded } = fakeResponse();
	const staticData = options.staticData ?? registeredStaticData();
	const logger = mock<Logger>();
	const request = options.request ?? { socket: { destroyed: false } };
	Object.assign(request, { rawBody: options.rawBody, headers: options.headers ?? {} });
	workflowCounter += 1;
	const workflowId = options.workflowId ?? `workflow-${workflowCounter}`;
	const ctx = mock<IWebhookFunctions>({
		logger,
		getNode: () => node,
		getWorkflow: () => ({ id: workflowId, name: 'test', active: true }),
		getMode: () => options.mode ?? 'webhook',
		getInstanceId: () => 'instance-1',
		getNodeWebhookUrl: () => (options.mode === 'manual' ? TEST_URL : PRODUCTION_URL),
		getBodyData: () => (options.bodyData ?? {}) as IDataObject,
		getHeaderData: () =>
			(options.headers ?? { 'content-type': 'application/json' }) as ReturnType<
				IWebhookFunctions['getHeaderData']
			>,
		getRequestObject: () => request as unknown as ReturnType<IWebhookFunctions['getRequestObject']>,
		getResponseObject: () =>
			response as unknown as ReturnType<IWebhookFunctions['getResponseObject']>,
		getWorkflowStaticData: () => staticData,
		getNodeParameter: parameterGetter({
			events: ['*'],
			options: {},
			...options.parameters,
		}) as IWebhookFunctions['getNodeParameter'],
		getCredentials: async <T extends object>() => {
			if (options.credentialsDelayMs) await sleep(options.credentialsDelayMs);
			return (options.credentials ?? credentials) as unknown as T;
		},
		helpers: {
			httpRequestWithAuthentication: http,
		} as unknown as IWebhookFunctions['helpers'],
	});
	const responseData = await new FacilitaPayTrigger().webhook.call(ctx);
	return { responseData, response: recorded, requests, http: httpRecord, logger };
}

export interface HookOptions {
	parameters?: IDataObject;
	staticData?: IDataObject;
	replies?: Reply[];
	/** 'manual' is "Listen for test event"; 'trigger' an activation. */
	mode?: 'manual' | 'trigger';
	webhookUrl?: string;
	credentials?: IDataObject;
	/** Whether n8n says the workflow is active (it is during a test listening of an active one). */
	active?: boolean;
	workflowId?: string;
	/** n8n's instance ID (`getInstanceId()`); 'instance-1' unless given. */
	instanceId?: string;
}

export type LifecycleMethod = 'checkExists' | 'create' | 'delete';

function hookContext(options: HookOptions) {
	const { http, requests } = recordingHttp(options.replies ?? []);
	const staticData = options.staticData ?? {};
	const logger = mock<Logger>();
	const mode = options.mode ?? 'trigger';
	const webhookUrl = options.webhookUrl ?? (mode === 'manual' ? TEST_URL : PRODUCTION_URL);
	const ctx = mock<IHookFunctions>({
		logger,
		getNode: () => node,
		getMode: () => mode,
		getWorkflow: () => ({
			id: options.workflowId ?? 'workflow-1',
			name: 'test',
			active: options.active === true,
		}),
		getActivationMode: () => (mode === 'manual' ? 'manual' : 'activate'),
		getInstanceId: () => options.instanceId ?? 'instance-1',
		getNodeWebhookUrl: () => webhookUrl,
		getWorkflowStaticData: () => staticData,
		getNodeParameter: parameterGetter({
			events: ['*'],
			options: {},
			...options.parameters,
		}) as IHookFunctions['getNodeParameter'],
		getCredentials: async <T extends object>() =>
			(options.credentials ?? credentials) as unknown as T,
		helpers: {
			httpRequestWithAuthentication: http,
		} as unknown as IHookFunctions['helpers'],
	});
	return { ctx, requests, staticData, logger };
}

/** Calls one of webhookMethods.default as n8n does on activation, deactivation or test listening. */
export async function runLifecycle(method: LifecycleMethod, options: HookOptions = {}) {
	const { ctx, requests, staticData, logger } = hookContext(options);
	const result = await new FacilitaPayTrigger().webhookMethods.default[method].call(ctx);
	return { result, requests, staticData, logger };
}

/** Same, expecting the method to throw: the error, the requests that left and the static data after. */
export async function runLifecycleExpectingError(
	method: LifecycleMethod,
	options: HookOptions = {},
) {
	const { ctx, requests, staticData } = hookContext(options);
	let error: (Error & { description?: string }) | undefined;
	try {
		await new FacilitaPayTrigger().webhookMethods.default[method].call(ctx);
	} catch (caught) {
		error = caught as Error & { description?: string };
	}
	if (!error) throw new Error(`${method} did not throw`);
	return { error, requests, staticData };
}
