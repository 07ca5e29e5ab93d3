import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core's InstanceSettings writes <N8N_USER_FOLDER>/.n8n/config on first use.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'satellite-tracking-n8n-'));
