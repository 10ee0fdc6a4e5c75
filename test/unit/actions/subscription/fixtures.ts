// The card, the subscriptions and the 3-D Secure challenge of the subscription tests: one module
// for the unit and the engine tests, test/fixtures/subscriptions.js.
export * from '../../../fixtures/subscriptions';
export { SUBJECT_ID } from '../../../fixtures/subjects';

/**
 * Everything a user could read from a failed run: message, description, the error as n8n
 * serialises it, the answer it keeps (errorResponse), its messages and its cause.
 */
export function everythingIn(error: unknown): string {
	const e = error as Error & { description?: string; errorResponse?: unknown; messages?: string[] };
	// n8n's error timestamp (13 digits of the clock) is left out: a card's digits could stand in it
	// by chance, and it carries nothing the user typed.
	return [
		e.message,
		e.description ?? '',
		JSON.stringify(error),
		JSON.stringify(e.errorResponse ?? null),
		JSON.stringify(e.messages ?? []),
		String(e.cause ?? ''),
		JSON.stringify(e.cause ?? null),
	]
		.join('\n')
		.replace(/"timestamp":\d+/g, '"timestamp":0');
}
