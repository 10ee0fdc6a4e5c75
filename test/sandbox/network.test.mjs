/**
 * The sandbox's control endpoints (/_sandbox) have no authentication: it listens on loopback by
 * default, reads its own FACILITAPAY_SANDBOX_HOST (never the generic HOST a shell may have set)
 * and refuses control calls from clients that are not on loopback.
 */
import { spawn } from 'node:child_process';
import { CONTROL_PREFIX, createSandbox } from '../../sandbox/server.mjs';
import {
	isLoopbackAddress,
	refuseRemoteControl,
	resolveListenHost,
	SANDBOX_HOST_VARIABLE,
} from '../../sandbox/network.mjs';

describe('isLoopbackAddress', () => {
	test.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])(
		'%s is loopback',
		(address) => {
			expect(isLoopbackAddress(address)).toBe(true);
		},
	);

	test.each([
		'192.0.2.10',
		'10.0.0.1',
		'0.0.0.0',
		'::',
		'::ffff:192.0.2.10',
		'fe80::1',
		'128.0.0.1',
		'',
		undefined,
		'localhost.evil',
	])('%s is not loopback', (address) => {
		expect(isLoopbackAddress(address)).toBe(false);
	});
});

describe('resolveListenHost', () => {
	test('listens on 127.0.0.1 when nothing is said', () => {
		expect(resolveListenHost(undefined, {})).toBe('127.0.0.1');
	});

	test('ignores the generic HOST variable (a shell often has it set, e.g. to 0.0.0.0)', () => {
		expect(resolveListenHost(undefined, { HOST: '0.0.0.0' })).toBe('127.0.0.1');
	});

	test(`reads its own ${SANDBOX_HOST_VARIABLE}`, () => {
		expect(SANDBOX_HOST_VARIABLE).toBe('FACILITAPAY_SANDBOX_HOST');
		expect(resolveListenHost(undefined, { HOST: '0.0.0.0', FACILITAPAY_SANDBOX_HOST: '::1' })).toBe(
			'::1',
		);
	});

	test('--host wins over the variable', () => {
		expect(resolveListenHost('127.0.0.2', { FACILITAPAY_SANDBOX_HOST: '::1' })).toBe('127.0.0.2');
	});

	test('an empty variable means the default', () => {
		expect(resolveListenHost(undefined, { FACILITAPAY_SANDBOX_HOST: '  ' })).toBe('127.0.0.1');
	});
});

describe('createSandbox', () => {
	test('binds to 127.0.0.1 by default', async () => {
		const sb = await createSandbox({ port: 0 });
		try {
			expect(sb.config.host).toBe('127.0.0.1');
			await sb.listen();
			expect(sb.app.server.address().address).toBe('127.0.0.1');
			expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		} finally {
			await sb.close();
		}
	});

	test('its control endpoints answer a client on loopback', async () => {
		const sb = await createSandbox({ port: 0 });
		try {
			await sb.listen();
			const r = await fetch(`${sb.url}/_sandbox/clock`);
			expect(r.status).toBe(200);
		} finally {
			await sb.close();
		}
	});
});

describe('refuseRemoteControl (the onRequest hook of the sandbox)', () => {
	const hook = refuseRemoteControl(CONTROL_PREFIX);
	/** A fake reply that records what was answered. */
	const reply = () => {
		const answer = {
			status: /** @type {number|null} */ (null),
			body: /** @type {unknown} */ (null),
		};
		const fake = {
			answer,
			code(status) {
				answer.status = status;
				return fake;
			},
			send(body) {
				answer.body = body;
				return fake;
			},
		};
		return fake;
	};

	test.each([
		['/_sandbox/clock/advance', '192.0.2.10'],
		['/_sandbox/reset', '10.0.0.7'],
		['/_sandbox/events', '::ffff:192.0.2.10'],
		['/_sandbox/transactions/abc/pay', 'fe80::1'],
		['/_sandbox/faults', undefined],
	])('refuses %s from %s with 403 and a readable message', async (url, remoteAddress) => {
		const r = reply();
		await hook({ url, socket: { remoteAddress } }, r);
		expect(r.answer).toEqual({
			status: 403,
			body: {
				error:
					'The sandbox control endpoints answer only clients on this machine (loopback); call them from 127.0.0.1 or ::1.',
			},
		});
	});

	test.each([
		['/_sandbox/clock', '127.0.0.1'],
		['/_sandbox/reset', '::1'],
		['/_sandbox/events', '::ffff:127.0.0.1'],
		['/api/v1/subject/people', '192.0.2.10'],
	])('lets %s from %s through', async (url, remoteAddress) => {
		const r = reply();
		await hook({ url, socket: { remoteAddress } }, r);
		expect(r.answer).toEqual({ status: null, body: null });
	});

	test('is wired into the sandbox: a client it does not take for local gets 403 over HTTP', async () => {
		const seen = [];
		const sb = await createSandbox({
			port: 0,
			isLocalClient: (address) => {
				seen.push(address);
				return false;
			},
		});
		try {
			await sb.listen();
			const before = sb.clock.iso();
			const control = await fetch(`${sb.url}${CONTROL_PREFIX}/clock/advance`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ days: 1 }),
			});
			expect(control.status).toBe(403);
			expect(sb.clock.iso()).toBe(before);
			expect(seen).toEqual(['127.0.0.1']);
			const api = await fetch(`${sb.url}/api/v1/subject/people`, {
				headers: { authorization: 'Bearer sandbox-token' },
			});
			expect(api.status).toBe(200);
		} finally {
			await sb.close();
		}
	});
});

test('the CLI listens on 127.0.0.1 even when the shell has HOST=0.0.0.0', async () => {
	const child = spawn(process.execPath, ['sandbox/cli.mjs', '--port', '0', '--frozen-clock'], {
		cwd: new URL('../..', import.meta.url),
		env: { ...process.env, PORT: '', HOST: '0.0.0.0', FACILITAPAY_SANDBOX_HOST: '' },
	});
	let out = '';
	await new Promise((resolve) => {
		child.stdout.on('data', (d) => {
			out += d;
			if (/Press Ctrl-C/.test(out)) resolve(undefined);
		});
		child.stderr.on('data', (d) => (out += d));
		child.on('exit', resolve);
	});
	await new Promise((resolve) => {
		child.on('exit', resolve);
		child.kill('SIGTERM');
	});
	expect(out).toMatch(/Base URL: {2}http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
});
