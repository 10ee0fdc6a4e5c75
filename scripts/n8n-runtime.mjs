// Runs a real n8n for `npm start`, the e2e and queue-mode tests and the benchmark. One module per
// job under scripts/n8n/: install (Node 24 and the pinned n8n), package (build, pack, install into
// a user folder), processes (environment, start/stop, CLI), api (REST and public API); common holds
// the constants. See docs/real-n8n.md for the measurements behind the choices.
export * from './n8n/common.mjs';
export * from './n8n/install.mjs';
export * from './n8n/package.mjs';
export * from './n8n/processes.mjs';
export * from './n8n/api.mjs';
