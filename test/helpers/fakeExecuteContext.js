// The one fake n8n execution context of the tests (CommonJS, so that the TypeScript unit tests and
// the JavaScript integration tests share it): parameters per item, input items, credentials,
// Continue On Fail, execution id, time zone and the binary helpers, as n8n's IExecuteFunctions
// gives them to a node. Each kind of test brings its own httpRequestWithAuthentication: scripted
// answers (unit tests) or real HTTP to the sandbox (integration tests).

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
 *   httpRequestWithAuthentication: (...args: any[]) => Promise<unknown>,
 * }} options
 */
function createExecuteContext(options) {
	const sets = Array.isArray(options.parameters) ? options.parameters : [options.parameters];
	const items = options.items ?? sets.map(() => ({ json: {} }));
	return {
		getNode: () => options.node,
		getExecutionId: () => options.executionId ?? '',
		getTimezone: () => options.timezone ?? 'UTC',
		// n8n's $runIndex, when the test gives one (the same on Retry On Fail, higher in a loop).
		getWorkflowDataProxy: () =>
			options.runIndex === undefined ? {} : { $runIndex: options.runIndex },
		getInputData: () => items,
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () => options.credentials,
		getNodeParameter: (name, itemIndex, fallback) => {
			const value = sets[Math.min(itemIndex, sets.length - 1)][name];
			if (value !== undefined) return value;
			if (fallback !== undefined) return fallback;
			throw new Error(`Could not get parameter "${name}"`);
		},
		helpers: {
			httpRequestWithAuthentication: options.httpRequestWithAuthentication,
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

module.exports = { createExecuteContext };
