/**
 * Bearer authentication: the configured static token, or a JWT (HS256) issued by POST /sign_in,
 * valid 24 h of the sandbox clock. Sign-in is limited to 3 calls per 30 s per user.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_TTL_SECONDS = 24 * 3600;
export const SIGN_IN_LIMIT = 3;
export const SIGN_IN_WINDOW_SECONDS = 30;

const b64url = (value) =>
	Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function safeEqual(left, right) {
	const leftBytes = Buffer.from(String(left));
	const rightBytes = Buffer.from(String(right));
	return leftBytes.length === rightBytes.length && timingSafeEqual(leftBytes, rightBytes);
}

/**
 * @param {{ clock: any, token: string, username: string, password: string, name?: string }} options
 */
export function createAuth(options) {
	const secret = randomBytes(32);
	/** @type {Map<string, number[]>} */
	let attempts = new Map();

	function sign(payload) {
		const head = b64url({ alg: 'HS256', typ: 'JWT' });
		const body = b64url(payload);
		const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
		return `${head}.${body}.${sig}`;
	}

	/** @returns {{ok: true, body: any} | {ok: false, status: number, body: any, headers?: Record<string,string>}} */
	function signIn(body) {
		const user = body?.user ?? {};
		const username = typeof user.username === 'string' ? user.username : '';
		const now = options.clock.now();
		const windowStart = now - SIGN_IN_WINDOW_SECONDS * 1000;
		const list = (attempts.get(username) ?? []).filter((signInAt) => signInAt > windowStart);
		if (list.length >= SIGN_IN_LIMIT) {
			const retry = Math.max(1, Math.ceil((list[0] + SIGN_IN_WINDOW_SECONDS * 1000 - now) / 1000));
			attempts.set(username, list);
			return {
				ok: false,
				status: 429,
				body: {
					error: 'too_many_requests',
					message: `sign_in is limited to ${SIGN_IN_LIMIT} calls per ${SIGN_IN_WINDOW_SECONDS} seconds; reuse the token (it lives 24 hours)`,
				},
				headers: { 'retry-after': String(retry) },
			};
		}
		list.push(now);
		attempts.set(username, list);
		if (
			!safeEqual(username, options.username) ||
			!safeEqual(user.password ?? '', options.password)
		) {
			return { ok: false, status: 401, body: { error: 'invalid_credentials' } };
		}
		const iat = Math.floor(now / 1000);
		const jwt = sign({
			sub: username,
			name: options.name ?? 'Sandbox Partner',
			iat,
			exp: iat + TOKEN_TTL_SECONDS,
		});
		return { ok: true, body: { jwt, name: options.name ?? 'Sandbox Partner', username } };
	}

	/** @param {string|undefined} header */
	function verify(header) {
		const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
		if (!match) return false;
		const token = match[1];
		if (safeEqual(token, options.token)) return true;
		const parts = token.split('.');
		if (parts.length !== 3) return false;
		const expected = createHmac('sha256', secret)
			.update(`${parts[0]}.${parts[1]}`)
			.digest('base64url');
		if (!safeEqual(parts[2], expected)) return false;
		try {
			const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
			return typeof payload.exp === 'number' && payload.exp * 1000 > options.clock.now();
		} catch {
			return false;
		}
	}

	function reset() {
		attempts = new Map();
	}

	return { signIn, verify, reset };
}
