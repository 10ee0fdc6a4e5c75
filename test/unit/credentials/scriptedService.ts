import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

/*
 * Scripted answers for the credential's own HTTP helper (sign-in and the check read), shared by the
 * credential's test files.
 */

/** An HTTP error as n8n's helpers.httpRequest throws it. */
export function httpError(status: number): Error {
	return Object.assign(new Error(`Request failed with status code ${status}`), {
		response: { status, data: {} },
	});
}

/**
 * A helper whose check read (GET /notifications) answers per token as `reads` says (a status to
 * fail with, or 200), and whose sign-in issues jwt-1, jwt-2, ...
 */
export function scriptedService(reads: Record<string, number> = {}) {
	const calls: IHttpRequestOptions[] = [];
	let issued = 0;
	const helper = {
		helpers: {
			httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
				calls.push(options);
				if (String(options.url).endsWith('/sign_in')) return { jwt: `jwt-${++issued}` };
				const token = String(options.headers?.Authorization).replace(/^Bearer /, '');
				const status = reads[token] ?? 200;
				if (status !== 200) throw httpError(status);
				return { data: [] };
			}),
		},
	} as unknown as IHttpRequestHelper;
	const lines = () => calls.map((c) => `${c.method} ${String(c.url).split('/api/v1')[1]}`);
	return { helper, calls, lines };
}

export function helperReturning(answer: unknown) {
	const calls: IHttpRequestOptions[] = [];
	const helper = {
		helpers: {
			httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
				calls.push(options);
				return answer;
			}),
		},
	} as unknown as IHttpRequestHelper;
	return { helper, calls };
}
