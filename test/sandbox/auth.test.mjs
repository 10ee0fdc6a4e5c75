import { startSandbox, useSandbox } from './helpers.mjs';

const t = useSandbox();

const signIn = (username = 'sandbox', password = 'sandbox') =>
	t.api('POST', '/sign_in', { user: { username, password } }, null);

test('the static token opens the API; a missing or wrong token answers 401 invalid_token', async () => {
	expect((await t.api('GET', '/subject/people')).json).toEqual({ data: [] });
	const missing = await t.api('GET', '/subject/people', undefined, null);
	expect(missing.status).toBe(401);
	expect(missing.json).toEqual({ error: 'invalid_token' });
	const wrong = await t.api('GET', '/subject/people', undefined, 'nope');
	expect(wrong.status).toBe(401);
	expect(wrong.json).toEqual({ error: 'invalid_token' });
});

test('sign_in returns a JWT (no data envelope) that authenticates requests', async () => {
	const r = await signIn();
	expect(r.status).toBe(200);
	expect(r.json).toEqual({
		jwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
		name: 'Sandbox Partner',
		username: 'sandbox',
	});
	expect((await t.api('GET', '/subject/people', undefined, r.json.jwt)).status).toBe(200);
});

test('a tampered JWT is refused', async () => {
	const { jwt } = (await signIn()).json;
	const tampered = jwt.slice(0, -2) + (jwt.endsWith('AA') ? 'BB' : 'AA');
	expect((await t.api('GET', '/subject/people', undefined, tampered)).json).toEqual({
		error: 'invalid_token',
	});
});

test('a sign-in token expires after 24 hours of the sandbox clock', async () => {
	const { jwt } = (await signIn()).json;
	await t.advance(24 * 3600 - 1);
	expect((await t.api('GET', '/subject/people', undefined, jwt)).status).toBe(200);
	await t.advance(1);
	const r = await t.api('GET', '/subject/people', undefined, jwt);
	expect(r.status).toBe(401);
	expect(r.json).toEqual({ error: 'invalid_token' });
});

test('a wrong password answers 401 invalid_credentials', async () => {
	const r = await signIn('sandbox', 'wrong');
	expect(r.status).toBe(401);
	expect(r.json).toEqual({ error: 'invalid_credentials' });
});

test('sign_in is limited to 3 calls per 30 s per user: the 4th answers 429 with Retry-After', async () => {
	for (let i = 0; i < 3; i++) expect((await signIn()).status).toBe(200);
	await t.advance(10);
	const limited = await signIn();
	expect(limited.status).toBe(429);
	expect(limited.headers.get('retry-after')).toBe('20');
	expect(limited.json.error).toBe('too_many_requests');
	// another user is not affected
	expect((await signIn('someone', 'x')).status).toBe(401);
	await t.advance(20);
	expect((await signIn()).status).toBe(200);
});

test('custom credentials and token are honoured', async () => {
	const other = await startSandbox({ token: 'tok-123', username: 'alice', password: 'secret' });
	try {
		expect((await other.api('GET', '/subject/people', undefined, 'tok-123')).status).toBe(200);
		expect((await other.api('GET', '/subject/people')).status).toBe(401);
		expect(
			(
				await other.api(
					'POST',
					'/sign_in',
					{ user: { username: 'alice', password: 'secret' } },
					null,
				)
			).json.username,
		).toBe('alice');
	} finally {
		await other.close();
	}
});
