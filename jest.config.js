/**
 * Unit tests are TypeScript (ts-jest, CommonJS). The sandbox's own tests and the tests that drive
 * the compiled nodes over real HTTP are ES modules (.test.mjs), run natively by jest under
 * --experimental-vm-modules (see the "test" script).
 * @type {import('jest').Config}
 */
module.exports = {
	// Node's environment, plus the worker's own require for n8n-core and dist/ (loaded once per
	// worker instead of once per test file): test/engine/lib/environment.cjs.
	testEnvironment: '<rootDir>/test/engine/lib/environment.cjs',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts', '**/*.test.mjs'],
	moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }],
	},
	testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.cache/'],
	// The integration and engine tests run workflows on n8n-core over real HTTP: on a busy 2-core
	// machine (CI runs these files in parallel) a test of several runs can outlast jest's 5 s.
	testTimeout: 30_000,
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	coverageReporters: ['text-summary', 'text'],
	// Prepares one real n8n for test/e2e (only when e2e tests are part of the run).
	globalSetup: '<rootDir>/test/e2e/global-setup.mjs',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.mjs',
};
