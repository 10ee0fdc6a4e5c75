import { spawn } from 'node:child_process';
import net from 'node:net';

/** Starts the CLI and resolves with its output once `until` matches (or it exits). */
function run(args, until) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['sandbox/cli.mjs', ...args], {
			cwd: new URL('../..', import.meta.url),
			env: { ...process.env, PORT: '' },
		});
		let out = '';
		const done = (code) => resolve({ child, out, code });
		child.stdout.on('data', (d) => {
			out += d;
			if (until && until.test(out)) done(null);
		});
		child.stderr.on('data', (d) => (out += d));
		child.on('exit', (code) => done(code));
	});
}

test('prints base URL, token, credentials and the seeded accounts; SIGTERM closes cleanly', async () => {
	const { child, out } = await run(['--port', '0', '--token', 'tok-cli'], /Press Ctrl-C/);
	expect(out).toMatch(/Base URL: {2}http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
	expect(out).toContain('Token:     tok-cli');
	expect(out).toContain('Username:  sandbox');
	expect(out).toContain('0b5e7c2a-1f3d-4a8e-9c61-000000000001  BRL');
	expect(out).toContain('0b5e7c2a-1f3d-4a8e-9c61-000000000006  BRL');
	const url = /Base URL: {2}(\S+)/.exec(out)[1];
	const r = await fetch(`${url}/subject/people`, { headers: { authorization: 'Bearer tok-cli' } });
	expect(r.status).toBe(200);
	const code = await new Promise((resolve) => {
		child.on('exit', resolve);
		child.kill('SIGTERM');
	});
	expect(code).toBe(0);
});

test('a taken port is reported with how to pick another, exit code 1', async () => {
	const blocker = net.createServer();
	await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
	const { port } = /** @type {net.AddressInfo} */ (blocker.address());
	try {
		const { out, code } = await run(['--port', String(port)]);
		expect(code).toBe(1);
		expect(out).toContain(`Port ${port} on 127.0.0.1 is already in use`);
		expect(out).toContain('--port');
	} finally {
		await new Promise((resolve) => blocker.close(resolve));
	}
});
