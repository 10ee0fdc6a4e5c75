/**
 * How many requests of one node run may be in flight at once, adapted to the service's rate limit
 * (AIMD, as TCP does with its window): a 429 halves the window, at most once per window (only a
 * refusal of a request started after the last halving counts, so one burst of refusals counts
 * once); every success widens it by `1 / window`, so about one more request per round of
 * successes, up to the user's Max Parallel Requests. Every request of the run, first tries and
 * retries alike, goes through one limiter; retries wait ahead of requests not yet tried, so that no
 * item is starved by newcomers. After a 429 with Retry-After, no request starts before that time.
 */
export class AdaptiveLimiter {
	private window: number;

	private inFlight = 0;

	private readonly waiting: Array<() => void> = [];

	/** Every slot handed out gets the next ticket; a halving remembers the first ticket after it. */
	private nextTicket = 0;

	private firstTicketAfterDecrease = 0;

	/** When requests may start again after a 429 with Retry-After (ms since epoch). */
	private resumeAt = 0;

	/** The most requests that were in flight at one moment. */
	peakInFlight = 0;

	constructor(
		readonly max: number,
		private readonly now: () => number = Date.now,
	) {
		this.window = Math.max(1, max);
	}

	/** The current number of requests allowed in flight. */
	get allowed(): number {
		return Math.max(1, Math.floor(this.window));
	}

	/**
	 * Waits for a free slot and returns its ticket (pass it to `release`). A retry is served before
	 * requests that were never tried.
	 */
	async acquire(retry = false): Promise<number> {
		if (this.inFlight < this.allowed && this.waiting.length === 0) return this.take();
		return await new Promise<number>((resolve) => {
			const grant = () => resolve(this.take());
			if (retry) this.waiting.unshift(grant);
			else this.waiting.push(grant);
		});
	}

	/** How long a request that just got its slot must still wait because of a Retry-After, in ms. */
	pauseLeft(): number {
		return Math.max(0, this.resumeAt - this.now());
	}

	/** After a 429 with Retry-After: no request starts before `ms` from now. */
	pauseFor(ms: number): void {
		this.resumeAt = Math.max(this.resumeAt, this.now() + ms);
	}

	/**
	 * Frees the slot of `ticket`. `limited`: the service answered 429; `ok`: it answered; `failed`:
	 * anything else (no change to the window).
	 */
	release(outcome: 'ok' | 'limited' | 'failed', ticket = this.nextTicket): void {
		this.inFlight--;
		if (outcome === 'limited') {
			if (ticket >= this.firstTicketAfterDecrease) {
				this.window = Math.max(1, this.window / 2);
				this.firstTicketAfterDecrease = this.nextTicket;
			}
		} else if (outcome === 'ok') {
			this.window = Math.min(this.max, this.window + 1 / this.window);
		}
		while (this.waiting.length > 0 && this.inFlight < this.allowed) this.waiting.shift()!();
	}

	/** The run stopped: everything waiting gets a slot at once, to see that and give it back. */
	cancelWaiting(): void {
		for (const grant of this.waiting.splice(0)) grant();
	}

	private take(): number {
		this.inFlight++;
		if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
		return this.nextTicket++;
	}
}
