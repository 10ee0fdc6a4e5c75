// The require the engine tests load n8n-core, n8n-workflow and the built package (dist/) with: the
// jest worker's own (test/engine/lib/environment.cjs) when jest runs the file, so that they are
// loaded once per worker and shared by its test files; else (a script) an ordinary one.
import { createRequire } from 'node:module';

export const nodeRequire = globalThis.__nodeRequire ?? createRequire(import.meta.url);
