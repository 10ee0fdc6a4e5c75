// Imported before n8n-core: its instance settings (an encryption key file) go to a folder in the
// system temp folder, never to the user's ~/.n8n, and its logs stay quiet unless asked for.
import os from 'node:os';
import path from 'node:path';

// One fixed folder, reused by every run and test file (its only content is the key file below).
process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), 'facilitapay-engine-n8n');
process.env.N8N_ENCRYPTION_KEY ??= 'facilitapay-engine-tests';
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
