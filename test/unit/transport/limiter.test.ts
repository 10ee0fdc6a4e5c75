import { AdaptiveLimiter } from '../../../nodes/FacilitaPay/transport';

/** Lets every promise chain that is ready run (no timers: the lint forbids them in every .ts file). */
const tick = async () => {
	for (let k = 0; k < 50; k++) await Promise.resolve();
};

describe('AdaptiveLimiter (AIMD)', () => {
	it('halves on a burst of 429s once, and grows back by about one per round of successes', async () => {
		const limiter = new AdaptiveLimiter(8);
		expect(limiter.allowed).toBe(8);
		const tickets = [];
		for (let i = 0; i < 8; i++) tickets.push(await limiter.acquire());
		// Eight refusals of requests that were all in flight before the first halving: one halving.
		for (const ticket of tickets) limiter.release('limited', ticket);
		expect(limiter.allowed).toBe(4);
		// A refusal of a request started after that halving halves again.
		limiter.release('limited', await limiter.acquire());
		expect(limiter.allowed).toBe(2);
		for (let i = 0; i < 2; i++) limiter.release('ok', await limiter.acquire());
		expect(limiter.allowed).toBe(2);
		for (let i = 0; i < 3; i++) limiter.release('ok', await limiter.acquire());
		expect(limiter.allowed).toBe(3);
	});

	it('never lets more than the window in flight, and never less than one', async () => {
		const limiter = new AdaptiveLimiter(2);
		const first = await limiter.acquire();
		const second = await limiter.acquire();
		let third = false;
		const waiting = limiter.acquire().then(() => (third = true));
		await tick();
		expect(third).toBe(false);
		limiter.release('limited', first);
		limiter.release('limited', second);
		await waiting;
		expect(third).toBe(true);
		expect(limiter.allowed).toBe(1);
		expect(limiter.peakInFlight).toBe(2);
	});

	it('serves a retry before requests that were never tried, so no item is starved', async () => {
		const limiter = new AdaptiveLimiter(1);
		const held = await limiter.acquire();
		const order: string[] = [];
		const fresh = limiter.acquire().then((ticket) => {
			order.push('new');
			limiter.release('ok', ticket);
		});
		const retry = limiter.acquire(true).then((ticket) => {
			order.push('retry');
			limiter.release('ok', ticket);
		});
		limiter.release('ok', held);
		await Promise.all([fresh, retry]);
		expect(order).toEqual(['retry', 'new']);
	});

	it('after a 429 with Retry-After, says how long new requests must still wait', () => {
		let now = 1_000;
		const limiter = new AdaptiveLimiter(4, () => now);
		expect(limiter.pauseLeft()).toBe(0);
		limiter.pauseFor(2_000);
		now = 1_500;
		expect(limiter.pauseLeft()).toBe(1_500);
		limiter.pauseFor(500);
		expect(limiter.pauseLeft()).toBe(1_500);
		now = 3_500;
		expect(limiter.pauseLeft()).toBe(0);
	});
});

describe('AdaptiveLimiter pacing: once the service refused with 429, starts are spaced to its rate', () => {
	it('learns a little under the rate it was answered at, spaces starts to it, and raises it slowly', async () => {
		let now = 0;
		const limiter = new AdaptiveLimiter(20, () => now);
		expect(limiter.paceDelay()).toBe(0);
		// 20 answers in the last second, then a 429.
		for (let k = 0; k < 20; k++) {
			const ticket = await limiter.acquire();
			now += 40;
			limiter.release('ok', ticket);
		}
		const refused = await limiter.acquire();
		limiter.release('limited', refused);
		expect(limiter.requestsPerSecond).toBe(18);
		expect([limiter.paceDelay(), limiter.paceDelay(), limiter.paceDelay()].map(Math.round)).toEqual(
			[0, 56, 111],
		);
		// A second without a 429: a little faster.
		now += 1500;
		const ok = await limiter.acquire();
		limiter.release('ok', ok);
		expect(limiter.requestsPerSecond).toBeGreaterThan(18);
	});

	it('learns nothing from a 429 that comes with almost no answers before it (the limit was used up elsewhere)', async () => {
		const limiter = new AdaptiveLimiter(20, () => 0);
		const ticket = await limiter.acquire();
		limiter.release('limited', ticket);
		expect(limiter.requestsPerSecond).toBeUndefined();
		expect(limiter.paceDelay()).toBe(0);
	});
});
