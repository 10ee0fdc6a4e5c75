// Issue 37 in a real n8n 1.123.81: the same targets as wait-for-payment.test.mjs (test/e2e/lib/wait-scenarios.mjs).
import { describeWaitScenarios } from './lib/wait-scenarios.mjs';

describeWaitScenarios('v1');
