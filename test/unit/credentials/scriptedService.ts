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
 * A helper whose helpers.httpRequest records every request in `calls` and answers it as `answer`
 * says (a thrown error fails the request).
 */
export function helperAnswering(
	answer: (options: IHttpRequestOptions, calls: IHttpRequestOptions[]) => unknown,
) {
	const calls: IHttpRequestOptions[] = [];
	const helper = {
		helpers: {
			httpRequest: jest.fn(async (options: IHttpRequestOptions) => {
				calls.push(options);
				return await answer(options, calls);
			}),
		},
	} as unknown as IHttpRequestHelper;
	const lines = () => calls.map((c) => `${c.method} ${String(c.url).split('/api/v1')[1]}`);
	return { helper, calls, lines };
}

/**
 * A helper whose check read (GET /notifications) answers per token as `reads` says (a status to
 * fail with, or 200), and whose sign-in issues jwt-1, jwt-2, ...
 */
export function scriptedService(reads: Record<string, number> = {}) {
	let issued = 0;
	return helperAnswering((options) => {
		if (String(options.url).endsWith('/sign_in')) return { jwt: `jwt-${++issued}` };
		const token = String(options.headers?.Authorization).replace(/^Bearer /, '');
		const status = reads[token] ?? 200;
		if (status !== 200) throw httpError(status);
		return { data: [] };
	});
}

/** A helper that answers every request with `answer`. */
export const helperReturning = (answer: unknown) => helperAnswering(() => answer);

/**
 * The sign-in and the refusal check that sharedSignIn is given: each sign-in issues jwt-1, jwt-2,
 * ...; the check says of every token that the service refuses it (or, `false`, that it takes it).
 */
export function signInCalls(tokensRefused: boolean) {
	let issued = 0;
	return {
		signIn: jest.fn(async () => `jwt-${++issued}`),
		refuses: jest.fn(async () => tokensRefused),
	};
}
