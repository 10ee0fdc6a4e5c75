import { startSandbox, useSandbox, createPerson } from './helpers.mjs';

const t = useSandbox();

const fault = (f) => t.control('POST', '/faults', f);
/** A fault that fires on the first matching request only (rate 1, count 1). */
const once = (route, kind, extra = {}) => fault({ route, rate: 1, kind, count: 1, ...extra });

test('429 with Retry-After on one route, once (rate 1, count 1)', async () => {
	await once('GET /api/v1/subject/people', '429', { retry_after: 7 });
	const r = await t.api('GET', '/subject/people');
	expect(r.status).toBe(429);
	expect(r.headers.get('retry-after')).toBe('7');
	expect(r.json).toEqual({ error: 'too_many_requests' });
	expect((await t.api('GET', '/subject/people')).status).toBe(200);
});

test('a fault on a route pattern with a parameter matches every id', async () => {
	const p = await createPerson(t);
	await once('GET /api/v1/subject/people/:id', '503', { retry_after: 2 });
	const r = await t.api('GET', `/subject/people/${p.id}`);
	expect(r.status).toBe(503);
	expect(r.headers.get('retry-after')).toBe('2');
	expect(r.json).toEqual({ error: 'service_unavailable' });
	expect((await t.api('GET', '/subject/people')).status).toBe(200);
});

test('500 answers plain text, 502 answers HTML', async () => {
	await once('*', '500');
	const a = await t.api('GET', '/subject/people');
	expect(a.status).toBe(500);
	expect(a.text).toBe('Internal Server Error');
	await once('*', '502');
	const b = await t.api('GET', '/subject/people');
	expect(b.status).toBe(502);
	expect(b.headers.get('content-type')).toMatch(/^text\/html/);
});

test('reset destroys the socket without an answer', async () => {
	await once('POST /api/v1/subject/people', 'reset');
	await expect(t.api('POST', '/subject/people', { person: {} })).rejects.toThrow();
	expect((await t.api('POST', '/subject/people', { person: {} })).status).toBe(422);
});

test('reset_after does the work and then destroys the socket: the client never hears of it', async () => {
	await once('POST /api/v1/subject/people', 'reset_after', { skip: 1 });
	const person = (n) => ({
		person: {
			document_type: 'passport',
			document_number: `RA${n}`,
			social_name: `Reset After ${n}`,
			fiscal_country: 'US',
		},
	});
	const first = await t.api('POST', '/subject/people', person(1));
	expect(first.status).toBeLessThan(300);
	await expect(t.api('POST', '/subject/people', person(2))).rejects.toThrow();
	const list = (await t.api('GET', '/subject/people')).json.data.map((p) => p.document_number);
	expect(list).toEqual(expect.arrayContaining(['RA1', 'RA2']));
	const [f] = (await t.control('GET', '/faults')).json.data;
	expect(f).toMatchObject({ kind: 'reset_after', fired: 1, remaining: 0, skip: 0 });
});

test('latency delays but still answers', async () => {
	await once('*', 'latency', { ms: 20 });
	expect((await t.api('GET', '/subject/people')).status).toBe(200);
	const [f] = (await t.control('GET', '/faults')).json.data;
	expect(f).toMatchObject({ kind: 'latency', fired: 1, remaining: 0 });
});

test('rate 0 never fires; DELETE clears all faults', async () => {
	await fault({ route: '*', rate: 0, kind: '500' });
	expect((await t.api('GET', '/subject/people')).status).toBe(200);
	await fault({ route: '*', rate: 1, kind: '500' });
	expect((await t.api('GET', '/subject/people')).status).toBe(500);
	await t.control('DELETE', '/faults');
	expect((await t.api('GET', '/subject/people')).status).toBe(200);
});

test('a fraction rate fires by the injected random source', async () => {
	const values = [0.1, 0.9, 0.2, 0.8];
	const seeded = await startSandbox({ random: () => values.shift() });
	try {
		await seeded.control('POST', '/faults', { route: '*', rate: 0.5, kind: '500' });
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await seeded.api('GET', '/subject/people')).status);
		expect(statuses).toEqual([500, 200, 500, 200]);
	} finally {
		await seeded.close();
	}
});

test('invalid fault bodies are refused', async () => {
	const r = await fault({ route: 'people', rate: 2, kind: 'boom' });
	expect(r.status).toBe(422);
	expect(Object.keys(r.json.errors).sort()).toEqual(['kind', 'rate', 'route']);
});

test('the request log lists method, url, route, query, body and counts, without the Authorization header', async () => {
	await t.api('GET', '/subject/people?last_id=abc');
	await t.api('POST', '/subject/people', { person: { document_type: 'cpf' } });
	await t.api('POST', '/subject/people', { person: { document_type: 'cpf' } });
	await t.api('GET', '/nope');
	const r = (await t.control('GET', '/requests')).json;
	expect(r.counts).toEqual({
		'GET /api/v1/subject/people': 1,
		'POST /api/v1/subject/people': 2,
		'GET /api/v1/nope': 1,
	});
	expect(r.data[0]).toMatchObject({
		method: 'GET',
		url: '/api/v1/subject/people?last_id=abc',
		route: 'GET /api/v1/subject/people',
		query: { last_id: 'abc' },
		at: '2025-03-10T12:00:00Z',
		status: 200,
	});
	expect(r.data[1]).toMatchObject({ body: { person: { document_type: 'cpf' } }, status: 422 });
	expect(JSON.stringify(r)).not.toContain('sandbox-token');
	const filtered = (
		await t.control('GET', `/requests?route=${encodeURIComponent('POST /api/v1/subject/people')}`)
	).json;
	expect(filtered.data).toHaveLength(2);
	expect(filtered.counts).toEqual({ 'POST /api/v1/subject/people': 2 });
});

test('reset empties the state and returns the clock to its start', async () => {
	await createPerson(t);
	await t.advance(3600);
	await fault({ route: '*', rate: 1, kind: '500' });
	const r = await t.control('POST', '/reset');
	expect(r.json.data).toEqual({ reset: true, now: '2025-03-10T12:00:00Z' });
	expect((await t.api('GET', '/subject/people')).json).toEqual({ data: [] });
	expect((await t.control('GET', '/clock')).json.data.now).toBe('2025-03-10T12:00:00Z');
	expect((await t.control('GET', '/accounts')).json.data).toHaveLength(6);
});

test('unknown API paths answer 404 not_found', async () => {
	const r = await t.api('GET', '/does/not/exist');
	expect(r.status).toBe(404);
	expect(r.json).toEqual({ error: 'not_found' });
});

describe('late_commit: a gateway answers 504 (or nothing) at once, the work is done later (issue 39)', () => {
	const person = (n) => ({
		person: {
			document_type: 'passport',
			document_number: `LC${n}`,
			social_name: `Late Commit ${n}`,
			fiscal_country: 'US',
		},
	});
	const numbers = async () =>
		(await t.api('GET', '/subject/people')).json.data.map((p) => p.document_number);

	test('answer 504: nothing is written yet; after `ms` the record is there, once', async () => {
		await once('POST /api/v1/subject/people', 'late_commit', { ms: 300 });
		const r = await t.api('POST', '/subject/people', person(1));
		expect(r.status).toBe(504);
		expect(await numbers()).not.toContain('LC1');
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect((await numbers()).filter((n) => n === 'LC1')).toHaveLength(1);
		const logged = (await t.control('GET', '/requests?route=POST /api/v1/subject/people')).json
			.data;
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatchObject({ status: 504, fault: 'late_commit', committed_status: 200 });
		expect(typeof logged[0].committed_at).toBe('string');
	});

	test('answer timeout: no answer; the connection is reset once the work is done', async () => {
		await once('POST /api/v1/subject/people', 'late_commit', { ms: 300, answer: 'timeout' });
		const started = Date.now();
		await expect(t.api('POST', '/subject/people', person(2))).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(await numbers()).toContain('LC2');
	});

	test('an unknown answer form is refused', async () => {
		const r = await once('POST /api/v1/subject/people', 'late_commit', { answer: 'later' });
		expect(r.status).toBe(422);
	});
});

test("every API answer's Date is the sandbox's clock (FacilitaPay's own clock)", async () => {
	const before = Date.parse((await t.api('GET', '/subject/people')).headers.get('date'));
	await t.control('POST', '/clock/advance', { minutes: 11 });
	const after = Date.parse((await t.api('GET', '/subject/people')).headers.get('date'));
	expect(after - before).toBeGreaterThanOrEqual(11 * 60_000 - 1000);
	expect(after - before).toBeLessThan(11 * 60_000 + 5000);
});
