// Helpers for the tests that drive a real n8n (test/e2e/*.test.mjs). The shared n8n (one install,
// one user folder, one server, one sandbox) is prepared by test/e2e/global-setup.mjs; these helpers
// read its state file. Add a workflow per operation with workflowWithNode() + runWorkflow().
// One module per job beside this file: state (the run, timeouts, polling), workflows, n8n (CLI and
// public API), sandbox, coverage, retry (n8n's Retry button), trigger (publishing the FacilitaPay
// Trigger, its executions and figures).
export { CREDENTIAL_TYPE, NODE_TYPES } from '../../../scripts/n8n-runtime.mjs';
export * from './state.mjs';
export * from './workflows.mjs';
export * from './n8n.mjs';
export * from './sandbox.mjs';
export * from './coverage.mjs';
export * from './retry.mjs';
export * from './trigger.mjs';
