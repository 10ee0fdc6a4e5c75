// Imported before n8n-core: its instance settings (an encryption key file) go to a folder of this
// process, never to the user's ~/.n8n, and its logs stay quiet unless asked for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'facilitapay-engine-'));
}
process.env.N8N_ENCRYPTION_KEY ??= 'facilitapay-engine-tests';
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
