/**
 * One real n8n editor on the current lane with this package and a sandbox credential ready: what
 * `npm run dev` (scripts/dev.ts) and `npm run screenshot` (scripts/screenshot.ts) start.
 *
 * In a fresh temp folder: the packed package installed as n8n installs community packages, the
 * sandbox process, `n8n start` (owner created, logged in), and a credential "Sandbox" for the sandbox's
 * demo account created through the editor's REST API. `stop()` stops n8n and the sandbox by their
 * process groups and removes the temp folder.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startEditor, type Editor, type Owner } from './editor';
import { freePort, log, portInUse, stopProcess } from './processes';
import {
	CREDENTIAL_TYPE,
	CURRENT_LANE,
	ensureLaneInstalled,
	installIntoUserFolder,
	laneConfig,
	n8nEnv,
	packageLoadProblems,
	packPackage,
	PACKAGE_NAME,
	sandboxCredentialData,
	startSandbox,
	type Lane,
	type Sandbox,
} from './setup';

export interface LocalN8n {
	lane: Lane;
	tmpDir: string;
	/** n8n's own log (stdout + stderr of `n8n start`). */
	n8nLog: string;
	sandbox: Sandbox;
	editor: Editor;
	credential: { id: string; name: string };
	/** The package's node types n8n loaded, e.g. `n8n-nodes-satellite-tracking.satelliteTracking`. */
	nodeTypes: string[];
	/** Stops n8n, then the sandbox (each by its process group), then removes the temp folder. */
	stop(): Promise<void>;
}

export const CREDENTIAL_NAME = 'Sandbox';

/** `port` when nothing listens there, so a sandbox can take it; otherwise undefined. */
export async function portIfFree(port: number): Promise<number | undefined> {
	return (await portInUse(port)) ? undefined : port;
}

export async function startLocalN8n(options: { port: number; owner: Owner; tmpPrefix: string; extraEnv?: NodeJS.ProcessEnv; sandboxPort?: number }): Promise<LocalN8n> {
	const lane = laneConfig(CURRENT_LANE);
	ensureLaneInstalled(lane);
	const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
	const userFolder = path.join(tmpDir, 'user');
	const n8nLog = path.join(tmpDir, 'n8n.log');
	let sandbox: Sandbox | undefined;
	let editor: Editor | undefined;
	const stop = async () => {
		if (editor) await stopProcess(editor.child, 'n8n start', 20_000);
		if (sandbox) await stopProcess(sandbox.child, 'sandbox');
		fs.rmSync(tmpDir, { recursive: true, force: true });
	};
	try {
		installIntoUserFolder(packPackage(tmpDir), userFolder);
		sandbox = await startSandbox(options.sandboxPort ?? (await freePort()), path.join(tmpDir, 'sandbox.log'));
		log(`  sandbox ${sandbox.url} (pid ${sandbox.child.pid})`);
		const env = n8nEnv(lane, userFolder, { n8n: options.port, broker: await freePort() }, options.extraEnv);
		log(`  starting n8n ${lane.n8nVersion} (log: ${n8nLog})`);
		editor = await startEditor(lane, env, tmpDir, options.port, n8nLog, options.owner);

		const credentialId = await editor.createCredential({ name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data: sandboxCredentialData(sandbox.url) });
		const nodeTypes = await packageNodeTypes(editor);
		if (nodeTypes.length === 0) throw new Error(`n8n loaded no ${PACKAGE_NAME}.* node types (see ${n8nLog})`);
		for (const problem of packageLoadProblems(editor.output())) log(`  ! n8n: ${problem.trim()}`);
		return { lane, tmpDir, n8nLog, sandbox, editor, credential: { id: credentialId, name: CREDENTIAL_NAME }, nodeTypes, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** The package's node types in the editor's node list (`/types/nodes.json`, which needs the login cookie). */
export async function packageNodeTypes(editor: Editor): Promise<string[]> {
	const response = await fetch(`${editor.base}/types/nodes.json`, { headers: { cookie: editor.cookie() } });
	if (!response.ok) throw new Error(`GET /types/nodes.json answered ${response.status}`);
	const types = (await response.json()) as Array<{ name: string }>;
	return [...new Set(types.map((t) => t.name).filter((name) => name.startsWith(`${PACKAGE_NAME}.`)))].sort();
}

/**
 * A small workflow to start from: Manual Trigger → Satellite Tracking (device → Get Many, 5) →
 * Satellite Tracking (device → Get Last Location of each), with the sandbox credential set.
 */
export function starterWorkflow(credential: { id: string; name: string }): Record<string, unknown> {
	const credentials = { [CREDENTIAL_TYPE]: credential };
	return {
		name: 'Try Satellite Tracking',
		nodes: [
			{
				id: '6b0e1c52-0d6f-4c1a-9d1e-5a7e00000001',
				name: 'When clicking ‘Execute workflow’',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '6b0e1c52-0d6f-4c1a-9d1e-5a7e00000002',
				name: 'List devices',
				type: `${PACKAGE_NAME}.satelliteTracking`,
				typeVersion: 2.2,
				position: [240, 0],
				parameters: { resource: 'device', operation: 'getAll', returnAll: false, limit: 5 },
				credentials,
			},
			{
				id: '6b0e1c52-0d6f-4c1a-9d1e-5a7e00000003',
				name: 'Get Last Location',
				type: `${PACKAGE_NAME}.satelliteTracking`,
				typeVersion: 2.2,
				position: [480, 0],
				parameters: {
					resource: 'device',
					operation: 'getLastLocation',
					deviceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				},
				credentials,
			},
		],
		connections: {
			'When clicking ‘Execute workflow’': { main: [[{ node: 'List devices', type: 'main', index: 0 }]] },
			'List devices': { main: [[{ node: 'Get Last Location', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
