/** Answers in the second before a 429 needed to learn a pace from it. */
const MIN_ANSWERS_TO_PACE = 5;

/**
 * How many requests of one node run may be in flight at once, adapted to the service's rate limit
 * (AIMD, as TCP does with its window): a 429 halves the window, at most once per window (only a
 * refusal of a request started after the last halving counts, so one burst of refusals counts
 * once); every success widens it by `1 / window`, so about one more request per round of
 * successes, up to the user's Max Parallel Requests. Every request of the run, first tries and
 * retries alike, goes through one limiter; retries wait ahead of requests not yet tried, so that no
 * item is starved by newcomers. After a 429 with Retry-After, no request starts before that time.
 *
 * Pacing: once the service has refused a request with 429, the limiter knows roughly how many
 * requests a second it takes (the answers it gave in the last second) and spaces the starts of the
 * run's requests to a little under that rate, instead of finding the limit again by hitting it.
 * The pace is lowered once a second at most while 429s still come, and raised by 1 % (at least
 * a fifth of a request a second) each second without one, so a limit that was raised is found again.
 * Fewer than MIN_ANSWERS_TO_PACE answers in the second before a 429 tell nothing: no pace then.
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

	/** Requests a second to start at most, learnt from 429s; undefined until the first one. */
	private pace?: number;

	/** When the next paced request may start (ms since epoch). */
	private nextStartAt = 0;

	/** When the answers (not 429) of the last second came (ms since epoch). */
	private readonly answeredAt: number[] = [];

	private paceChangedAt = 0;

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

	/** Answers (not 429) in the last second: how fast the queue moves now (0: not known). */
	answersLastSecond(): number {
		const now = this.now();
		while (this.answeredAt.length > 0 && now - this.answeredAt[0] > 1000) this.answeredAt.shift();
		return this.answeredAt.length;
	}

	/** The pace learnt from the service's 429s, in requests a second (undefined: not paced). */
	get requestsPerSecond(): number | undefined {
		return this.pace;
	}

	/**
	 * A request that has its slot is about to start: how long it must wait first to keep the pace
	 * (0 when the pace is not known), its start time reserved.
	 */
	paceDelay(): number {
		if (this.pace === undefined) return 0;
		const now = this.now();
		const at = Math.max(now, this.nextStartAt);
		this.nextStartAt = at + 1000 / this.pace;
		return at - now;
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
		this.learnPace(outcome);
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

	private learnPace(outcome: 'ok' | 'limited' | 'failed'): void {
		const now = this.now();
		while (this.answeredAt.length > 0 && now - this.answeredAt[0] > 1000) this.answeredAt.shift();
		if (outcome === 'ok') {
			this.answeredAt.push(now);
			if (this.pace !== undefined && now - this.paceChangedAt >= 1000) {
				this.pace += Math.max(0.2, this.pace * 0.01);
				this.paceChangedAt = now;
			}
		} else if (outcome === 'limited') {
			if (this.pace !== undefined && now - this.paceChangedAt < 1000) return;
			// Too few answers in the last second say nothing of the rate (the limit may have been
			// used up by someone else): the window and Retry-After handle that alone.
			const taken = this.answeredAt.length;
			if (taken < MIN_ANSWERS_TO_PACE) return;
			this.pace = Math.max(1, Math.min(this.pace ?? taken, taken) * 0.9);
			this.paceChangedAt = now;
		}
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
