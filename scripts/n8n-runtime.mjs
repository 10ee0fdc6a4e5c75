// Runs a real n8n for `npm start`, the e2e and queue-mode tests and the benchmark. One module per
// job under scripts/n8n/: install (Node 24 and the pinned n8n), package (build, pack, install into
// a user folder), group (a process in its own process group: start, wait until ready, stop),
// processes (n8n's environment, start/stop, CLI), api (REST and public API); common holds the
// constants. The queue-mode cluster (Redis, Postgres, workers) is scripts/queue-cluster.mjs.
// See docs/real-n8n.md for the measurements behind the choices.
export * from './n8n/common.mjs';
export * from './n8n/install.mjs';
export * from './n8n/package.mjs';
export * from './n8n/group.mjs';
export * from './n8n/processes.mjs';
export * from './n8n/api.mjs';
