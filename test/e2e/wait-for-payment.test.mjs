// Issues 37 and 43 in a real n8n 2.41.1: Transaction > Wait for Payment paid after 20 s, expired, timed
// out, guessed resume URLs, and an n8n restart without any FacilitaPay Trigger (test/e2e/lib/wait-scenarios.mjs).
import { describeWaitScenarios } from './lib/wait-scenarios.mjs';

describeWaitScenarios('v2');
