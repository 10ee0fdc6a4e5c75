/**
 * How many requests of one node run may be in flight at once, adapted to the service's rate limit
 * (AIMD, as TCP does with its window): a 429 halves the window, at most once per `coolDownMs` so
 * that one burst of refusals counts once; every success widens it by `1 / window`, so about one
 * more request per round of successes, up to the user's Max Parallel Requests. Every request of
 * the run, first tries and retries alike, goes through one limiter.
 */
export class AdaptiveLimiter {
	private window: number;

	private inFlight = 0;

	private readonly waiting: Array<() => void> = [];

	private lastDecrease = Number.NEGATIVE_INFINITY;

	/** The most requests that were in flight at one moment (reported by the benchmark). */
	peakInFlight = 0;

	/** How often the window was halved. */
	decreases = 0;

	constructor(
		readonly max: number,
		private readonly now: () => number = Date.now,
		private readonly coolDownMs = 1000,
	) {
		this.window = Math.max(1, max);
	}

	/** The current number of requests allowed in flight. */
	get allowed(): number {
		return Math.max(1, Math.floor(this.window));
	}

	/** Waits for a free slot. Every `acquire` must be followed by one `release`. */
	async acquire(): Promise<void> {
		if (this.inFlight < this.allowed && this.waiting.length === 0) {
			this.take();
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	/**
	 * Frees the slot. `limited`: the service answered 429; `ok`: it answered; `failed`: anything
	 * else (no change to the window).
	 */
	release(outcome: 'ok' | 'limited' | 'failed'): void {
		this.inFlight--;
		if (outcome === 'limited') {
			const now = this.now();
			if (now - this.lastDecrease >= this.coolDownMs) {
				this.window = Math.max(1, this.window / 2);
				this.lastDecrease = now;
				this.decreases++;
			}
		} else if (outcome === 'ok') {
			this.window = Math.min(this.max, this.window + 1 / this.window);
		}
		while (this.waiting.length > 0 && this.inFlight < this.allowed) {
			this.take();
			this.waiting.shift()!();
		}
	}

	private take(): void {
		this.inFlight++;
		if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
	}
}
