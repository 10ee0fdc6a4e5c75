import { startSandbox } from './helpers.mjs';

// The limit's clock is injected: time moves only when a test moves it.
let ms = 0;
let t;
beforeAll(async () => (t = await startSandbox({ rateLimitNow: () => ms })));
afterAll(() => t.close());
beforeEach(async () => {
	ms = 0;
	await t.control('POST', '/reset');
});

const limit = (body) => t.control('POST', '/rate_limit', body);
const statuses = async (n, token) => {
	const out = [];
	for (let k = 0; k < n; k++)
		out.push((await t.api('GET', '/subject/people', undefined, token)).status);
	return out;
};

test('off by default: many requests at once all pass', async () => {
	const answers = await Promise.all(
		Array.from({ length: 50 }, () => t.api('GET', '/subject/people')),
	);
	expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
	expect((await t.control('GET', '/rate_limit')).json.data).toMatchObject({
		enabled: false,
		per_second: 0,
		limited: 0,
	});
});

test('20 per second with a burst of 20: the 21st request at once is refused with 429 and Retry-After 1, not processed', async () => {
	expect((await limit({ per_second: 20, burst: 20 })).json.data).toMatchObject({
		enabled: true,
		per_second: 20,
		burst: 20,
	});
	expect(await statuses(20)).toEqual(Array(20).fill(200));
	const refused = await t.api('POST', '/subject/people', {
		person: {
			document_type: 'cpf',
			document_number: '39053344705',
			social_name: 'Maria da Silva',
			fiscal_country: 'BR',
		},
	});
	expect(refused.status).toBe(429);
	expect(refused.headers.get('retry-after')).toBe('1');
	expect(refused.json.error).toBe('too_many_requests');
	ms += 1000;
	expect((await t.api('GET', '/subject/people')).json.data).toEqual([]);
	const log = (await t.control('GET', '/requests')).json.data;
	expect(log.filter((r) => r.status === 429).map((r) => `${r.method} ${r.url}`)).toEqual([
		'POST /api/v1/subject/people',
	]);
});

test('tokens come back at the rate: 50 ms later one more request passes, then Retry-After counts whole seconds', async () => {
	await limit({ per_second: 20, burst: 20 });
	await statuses(20);
	expect(await statuses(1)).toEqual([429]);
	ms += 50;
	expect(await statuses(2)).toEqual([200, 429]);
	await limit({ per_second: 0.25, burst: 1 });
	expect(await statuses(1)).toEqual([200]);
	ms += 1000;
	const refused = await t.api('GET', '/subject/people');
	expect(refused.headers.get('retry-after')).toBe('3');
	expect((await t.control('GET', '/rate_limit')).json.data).toMatchObject({
		allowed: 1,
		limited: 1,
	});
});

test('each token has its own bucket', async () => {
	await limit({ per_second: 1, burst: 2 });
	expect(await statuses(3)).toEqual([200, 200, 429]);
	expect(await statuses(3, 'another-token')).toEqual([401, 401, 429]);
});

test('per_second 0, DELETE and reset turn it off', async () => {
	await limit({ per_second: 1, burst: 1 });
	expect(await statuses(2)).toEqual([200, 429]);
	await limit({ per_second: 0 });
	expect(await statuses(3)).toEqual([200, 200, 200]);
	await limit({ per_second: 1, burst: 1 });
	await t.control('DELETE', '/rate_limit');
	expect(await statuses(3)).toEqual([200, 200, 200]);
	await limit({ per_second: 1, burst: 1 });
	await t.control('POST', '/reset');
	expect(await statuses(3)).toEqual([200, 200, 200]);
});

test('wrong settings are refused with the field and the fix', async () => {
	const r = await limit({ per_second: -1, burst: 0 });
	expect(r.status).toBe(422);
	expect(r.json.errors).toEqual({
		per_second: [expect.stringContaining('≥ 0')],
		burst: [expect.stringContaining('≥ 1')],
	});
});

test('the in-flight gauge counts requests from arrival, injected latency included', async () => {
	await t.control('POST', '/faults', { route: '*', kind: 'latency', ms: 100 });
	expect((await limit({ per_second: 0 })).json.data).toMatchObject({
		max_in_flight: 0,
		first_arrival_at: null,
	});
	const sentAt = Date.now();
	await Promise.all(Array.from({ length: 7 }, () => t.api('GET', '/subject/people')));
	const gauge = (await t.control('GET', '/rate_limit')).json.data;
	expect(gauge).toMatchObject({ in_flight: 0, max_in_flight: 7 });
	expect(gauge.first_arrival_at).toBeGreaterThanOrEqual(sentAt);
	expect(gauge.last_answer_at).toBeGreaterThanOrEqual(gauge.first_arrival_at);
});
