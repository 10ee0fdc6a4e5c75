// `npm start` (and `npm run screenshots`) refuse two equal ports before anything starts, naming the
// variables: n8n's task broker takes N8N_PORT + 1 unless N8N_RUNNERS_BROKER_PORT is set, so
// N8N_PORT=4009 beside the sandbox's 4010 would collide (issue 40: a new user met it unexplained).
import { assertDistinctPorts, localPorts } from '../../scripts/n8n/common.mjs';

const NAMES = ['N8N_PORT', 'N8N_RUNNERS_BROKER_PORT', 'SANDBOX_PORT', 'SANDBOX_TOKEN'];

describe('the ports of npm start', () => {
	/** @type {Record<string, string | undefined>} */
	const saved = {};
	beforeEach(() => {
		for (const name of NAMES) {
			saved[name] = process.env[name];
			delete process.env[name];
		}
	});
	afterEach(() => {
		for (const name of NAMES) {
			if (saved[name] === undefined) delete process.env[name];
			else process.env[name] = saved[name];
		}
	});

	test('defaults: n8n 5678, its task broker 5679, the sandbox 4010', () => {
		expect(localPorts()).toEqual({
			n8nPort: 5678,
			brokerPort: 5679,
			sandboxPort: 4010,
			sandboxToken: 'sandbox-token',
		});
	});

	test('N8N_PORT one below SANDBOX_PORT: refused, naming the broker variable and a free port', () => {
		process.env.N8N_PORT = '4009';
		expect(() => localPorts()).toThrow(
			"n8n's task broker (N8N_RUNNERS_BROKER_PORT, unset: N8N_PORT + 1) and SANDBOX_PORT are both 4010: each needs its own port. Set another, e.g. N8N_RUNNERS_BROKER_PORT=4011.",
		);
	});

	test('the same port for n8n and the sandbox: refused, naming both and a free SANDBOX_PORT', () => {
		process.env.N8N_PORT = '4010';
		process.env.N8N_RUNNERS_BROKER_PORT = '4020';
		expect(() => localPorts()).toThrow(
			'N8N_PORT and SANDBOX_PORT are both 4010: each needs its own port. Set another, e.g. SANDBOX_PORT=4021.',
		);
	});

	test('three distinct ports set by hand pass', () => {
		expect(() =>
			assertDistinctPorts({ n8nPort: 4009, brokerPort: 4011, sandboxPort: 4010 }),
		).not.toThrow();
	});
});
