// Helpers for the queue-mode tests (test/queue/*.test.mjs), one module per job beside this file:
// cluster (its state, n8n's public API on the main, executions and which worker ran them, the
// report, the Retry button, extra workers), workflows (credentials, nodes, Webhook-started
// workflows), attribution (each case's sandbox behind a proxy that notes which process sent each
// request).
export { CREDENTIAL_TYPE, NODE_TYPES, nodeOutput } from '../../../scripts/n8n-runtime.mjs';
export * from './cluster.mjs';
export * from './workflows.mjs';
export * from './attribution.mjs';
