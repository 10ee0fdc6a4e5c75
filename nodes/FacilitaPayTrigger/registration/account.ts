import type { RetryOptions } from '../../FacilitaPay/transport';
import { defaultRetryOptions } from '../../FacilitaPay/transport';

export { accountOf } from '../../FacilitaPay/transport';

/** One registration read (the newest record, ownership) may take this long. */
export const READ_TIMEOUT_MS = 7_000;

/** Reads retried once at most after a failure; 429s as long as the deadline allows. */
export function readRetryOptions(deadline: number): RetryOptions {
	return {
		...defaultRetryOptions,
		maxAttempts: 2,
		baseDelayMs: 250,
		maxDelayMs: 1_000,
		rateLimit: { maxAttempts: 20, maxRetryAfterMs: 5_000 },
		deadline,
		// Looked up at each call, so the transport's waiting (n8n's sleep) stays the one place to fake.
		wait: async (ms: number) => await defaultRetryOptions.wait(ms),
	};
}
