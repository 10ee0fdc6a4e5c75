// jest's test environment for this package: Node's, plus `__nodeRequire`, the require of this
// worker process outside jest's per-file module registry. The tests that run nodes on n8n's engine
// load n8n-core, n8n-workflow and the built package (dist/) through it, so a jest worker loads them
// once for all its test files (about 1.5 s each time otherwise), and the node's modules the tests
// reach (its clock, its memory to clear) are the very ones n8n-core's loader loaded.
// n8n-core reads its settings from this process's environment (a test file's `process.env` is a
// copy), so they are set here, but only once something is loaded through `__nodeRequire`: set for
// every file, a silent log level would reach the real n8n processes the e2e tests start (their
// environment is copied from this one) and `n8n execute` would print nothing.
const os = require('node:os');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

function engineSettings() {
	process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'facilitapay-engine-n8n');
	process.env.N8N_ENCRYPTION_KEY ??= 'facilitapay-engine-tests';
	process.env.N8N_LOG_LEVEL ??= 'silent';
	process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
}

/**
 * n8n-workflow runs every regular expression of a node's parameters (a resource locator's
 * validation, for one) in a vm with a 250 ms limit, and throws "Regular expression execution timed
 * out" past it. The same match takes microseconds; 250 ms is reached only when the machine is
 * starved (a 2-core CI box beside other jobs), which made engine tests fail by load, not by
 * behaviour. Here the same vm engine runs with a 10 s limit: every pattern is still evaluated as n8n
 * does, only the starvation margin is wider.
 */
function patientRegexEngine() {
	const vm = require('node:vm');
	const context = vm.createContext({
		flags: '',
		input: '',
		pattern: '',
		replacement: '',
		result: undefined,
	});
	const script = (code) => new vm.Script(`result = ${code}`);
	const scripts = {
		exec: script('new RegExp(pattern, flags).exec(input)'),
		test: script('new RegExp(pattern, flags).test(input)'),
		replace: script('input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: script('Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: script('input.split(new RegExp(pattern, flags))'),
	};
	const run = (name, pattern, input, flags, replacement) => {
		Object.assign(context, { pattern, input, flags: flags ?? '', replacement, result: undefined });
		if (name === 'matchAll' && !context.flags.includes('g')) context.flags += 'g';
		scripts[name].runInContext(context, { timeout: 10_000 });
		return context.result;
	};
	return {
		exec: (pattern, input, flags) => run('exec', pattern, input, flags),
		test: (pattern, input, flags) => run('test', pattern, input, flags),
		replace: (pattern, input, flags, replacement) =>
			run('replace', pattern, input, flags, replacement),
		matchAll: (pattern, input, flags) => run('matchAll', pattern, input, flags),
		split: (pattern, input, flags) => run('split', pattern, input, flags),
	};
}

let regexEngineSet = false;

/**
 * FACILITAPAY_ENGINE_N8N_DIR: a folder whose node_modules hold another n8n's n8n-core and
 * n8n-workflow (scripts/test-engine.mjs sets it for FACILITAPAY_ENGINE_N8N=v1: n8n 1.x's, as
 * installed for the e2e tests). The engine tests then run on that engine. The package itself
 * (dist/) keeps its own n8n-workflow, as it would beside a real n8n of that version.
 */
const engineDir = process.env.FACILITAPAY_ENGINE_N8N_DIR;
const ENGINE_MODULES = new Set(['n8n-core', 'n8n-workflow', '@n8n/di']);

function resolveEngine(id, options) {
	if (engineDir && ENGINE_MODULES.has(id)) return require.resolve(id, { paths: [engineDir] });
	return require.resolve(id, options);
}

/** The worker's require, with n8n-core's settings in place first. */
function nodeRequire(id) {
	engineSettings();
	const loaded = require(resolveEngine(id));
	if (!regexEngineSet) {
		regexEngineSet = true;
		require('n8n-workflow').setSafeRegexEngine?.(patientRegexEngine());
	}
	return loaded;
}
nodeRequire.resolve = (id, options) => resolveEngine(id, options);

class EngineEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.global.__nodeRequire = nodeRequire;
	}
}

module.exports = EngineEnvironment;
