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

/** The worker's require, with n8n-core's settings in place first. */
function nodeRequire(id) {
	engineSettings();
	return require(id);
}
nodeRequire.resolve = (id, options) => require.resolve(id, options);

class EngineEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.global.__nodeRequire = nodeRequire;
	}
}

module.exports = EngineEnvironment;
