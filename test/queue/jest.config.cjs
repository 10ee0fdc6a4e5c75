/**
 * `npm run test:queue`: the queue-mode tests (test/queue/), against ONE real queue-mode n8n
 * (Redis, Postgres, main, two workers, webhook processor) that global-setup.mjs brings up and
 * global-teardown.mjs stops. See docs/queue-mode.md.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.test.mjs'],
	moduleFileExtensions: ['js', 'mjs', 'json'],
	transform: {},
	testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.cache/'],
	globalSetup: '<rootDir>/test/queue/global-setup.mjs',
	globalTeardown: '<rootDir>/test/queue/global-teardown.mjs',
	// One cluster, cases in order (each file starts executions on the shared workers).
	maxWorkers: 1,
	testSequencer: '<rootDir>/test/queue/sequencer.cjs',
};
