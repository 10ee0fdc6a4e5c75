import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { workflowNode } from './workflowNode';

const testNode = workflowNode('node-1', 'FacilitaPay', 'n8n-nodes-facilitapay.facilitaPay');

// The failures n8n-core's httpRequestWithAuthentication throws, for the unit tests that hand a
// pure function (a list search, the trigger's lifecycle) a scripted answer.

/** What n8n-core's httpRequestWithAuthentication throws for an HTTP error answer. */
export function httpError(status: number, body: unknown, headers: Record<string, string> = {}) {
	const cause = Object.assign(new Error(`Request failed with status code ${status}`), {
		name: 'AxiosError',
		isAxiosError: true,
		response: { status, data: body, headers },
	});
	return new NodeApiError(testNode, cause as unknown as JsonObject);
}
