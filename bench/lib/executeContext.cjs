// The bench's in-process execution context (bench/money.mjs): parameters per item, input items,
// credentials, execution id, custom data and a deduplication store, as n8n's IExecuteFunctions gives
// them, so that the money rule's own cost on 50,000 payouts is measured without n8n-core around it.
// It imitates n8n and proves nothing about n8n: no test uses it (the tests run the node on n8n-core,
// test/engine/lib/operations.mjs); the bench in a real n8n is bench/n8n-compare.mjs.

/**
 * @param {{
 *   node: object,
 *   parameters: object | object[],
 *   items?: Array<{ json: object, binary?: Record<string, { data: string }> }>,
 *   credentials: object,
 *   continueOnFail?: boolean,
 *   executionId?: string,
 *   timezone?: string,
 *   runIndex?: number,
 *   mode?: string,
 *   workflowId?: string,
 *   instanceId?: string,
 *   processedStore?: ProcessedStore,
 *   customData?: Record<string, string>,
 *   httpRequestWithAuthentication: (...args: any[]) => Promise<unknown>,
 * }} options
 */
function createExecuteContext(options) {
	const sets = Array.isArray(options.parameters) ? options.parameters : [options.parameters];
	const items = options.items ?? sets.map(() => ({ json: {} }));
	const customData = options.customData ?? {};
	return {
		getNode: () => options.node,
		// n8n's execution mode: 'retry' in an execution started by the Retry button.
		getMode: () => options.mode ?? 'manual',
		getWorkflow: () => ({ id: options.workflowId ?? 'workflow-1', name: 'Test', active: false }),
		getExecutionId: () => options.executionId ?? '',
		// n8n's instance ID (one per n8n database): two n8n on one FacilitaPay account differ here.
		getInstanceId: () => options.instanceId ?? 'instance-a',
		getTimezone: () => options.timezone ?? 'UTC',
		// n8n's $runIndex, when the test gives one (the same on Retry On Fail, higher in a loop).
		getWorkflowDataProxy: () =>
			options.runIndex === undefined ? {} : { $runIndex: options.runIndex },
		// The execution's custom data (n8n's resultData.metadata): pass one object to several
		// contexts to play what n8n carries into the execution its Retry button starts. As n8n
		// does: 10 keys at most (a new key past that is ignored), values cut at 512 characters.
		customData: {
			get: (key) => customData[key],
			set: (key, value) => {
				const data = customData;
				if (!(key in data) && Object.keys(data).length >= 10) return;
				data[key] = String(value).slice(0, 512);
			},
		},
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () => options.credentials,
		getNodeParameter: (name, itemIndex, fallback, parameterOptions) => {
			const value = sets[Math.min(itemIndex, sets.length - 1)][name];
			if (value !== undefined) {
				// As n8n with `extractValue`: a resource locator gives its value.
				if (parameterOptions?.extractValue && value && typeof value === 'object' && value.__rl)
					return value.value;
				return value;
			}
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		// n8n (1.x and 2.x) shows these above the output; a test that reads them replaces this.
		addExecutionHints: () => undefined,
		helpers: {
			httpRequestWithAuthentication: options.httpRequestWithAuthentication,
			...(options.processedStore
				? options.processedStore.helpersFor(options.workflowId ?? 'workflow-1', options.node)
				: {}),
			assertBinaryData: (itemIndex, property) => {
				const binary = items[itemIndex]?.binary?.[property];
				if (!binary) {
					throw new Error(
						`This operation expects the node's input data to contain a binary file '${property}', but none was found`,
					);
				}
				return binary;
			},
			getBinaryDataBuffer: async (itemIndex, property) =>
				Buffer.from(items[itemIndex].binary[property].data, 'base64'),
			prepareBinaryData: async (data, fileName, mimeType) => ({
				data: data.toString('base64'),
				fileName,
				mimeType: mimeType ?? 'application/octet-stream',
				fileSize: `${data.length} B`,
			}),
		},
	};
}

/**
 * n8n's deduplication store (the one behind Remove Duplicates "across executions"), in memory: one
 * list of keys per workflow and node, as n8n keeps it (checkProcessedAndRecord, removeProcessed).
 * Share one store between contexts to play several executions of the same workflow.
 */
class ProcessedStore {
	constructor() {
		/** @type {Map<string, string[]>} */
		this.rows = new Map();
		this.calls = 0;
	}

	/** @param {string} workflowId @param {{ id?: string, name: string }} node */
	helpersFor(workflowId, node) {
		const row = () => {
			const key = `${workflowId}|n:${node.id ?? node.name}`;
			if (!this.rows.has(key)) this.rows.set(key, []);
			return /** @type {string[]} */ (this.rows.get(key));
		};
		return {
			checkProcessedAndRecord: async (
				/** @type {Array<string|number>} */ items,
				_scope,
				options,
			) => {
				this.calls++;
				const keys = row();
				const seen = new Set(keys);
				const result = { new: [], processed: [] };
				for (const item of items) {
					if (seen.has(String(item))) result.processed.push(item);
					else {
						result.new.push(item);
						keys.push(String(item));
						seen.add(String(item));
					}
				}
				if (options?.maxEntries && keys.length > options.maxEntries)
					keys.splice(0, keys.length - options.maxEntries);
				return result;
			},
			removeProcessed: async (/** @type {Array<string|number>} */ items) => {
				this.calls++;
				const keys = row();
				for (const item of items) {
					const at = keys.indexOf(String(item));
					if (at >= 0) keys.splice(at, 1);
				}
			},
		};
	}

	/** Every key recorded, all rows together. */
	keys() {
		return [...this.rows.values()].flat();
	}
}

module.exports = { createExecuteContext, ProcessedStore };
