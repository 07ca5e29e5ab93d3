/**
 * `npm run dev`: a real n8n editor (the current lane, n8n 2.41.1 on Node 24 from the cache) on
 * http://localhost:5678 with this package loaded as users get it (`n8n-nodes-satellite-tracking.*`),
 * the sandbox API running, an owner account, a credential "Sandbox" for the sandbox's demo account
 * and a starter workflow. Ctrl-C stops n8n and the sandbox (by their process groups) and removes the
 * throw-away folder, with everything made in the editor: download workflows you want to keep.
 *
 *   npm run dev                    # builds first (package.json), then this
 *   npx tsx scripts/dev.ts --port 5680
 *
 * n8n's cached install is made by scripts/e2e/install-n8n.sh when missing (cold: several minutes).
 * Env: N8N_DEV_PORT (default 5678), SATELLITE_E2E_CACHE (the n8n cache root).
 */
import { DEV_OWNER } from './n8n/editor';
import { portIfFree, startLocalN8n, starterWorkflow, type LocalN8n } from './n8n/local';
import { SHIPPED_SANDBOX_PORT } from './n8n/setup';
import { delay, fail, log, portInUse, SetupFailure, signalAll } from './n8n/processes';

function portFromArgs(): number {
	const argv = process.argv.slice(2);
	const i = argv.indexOf('--port');
	const text = i >= 0 ? argv[i + 1] : (argv.find((a) => a.startsWith('--port='))?.slice('--port='.length) ?? process.env.N8N_DEV_PORT ?? '5678');
	const port = Number(text);
	if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port takes a TCP port; got "${text}"`);
	return port;
}

async function main(): Promise<void> {
	const port = portFromArgs();
	if (await portInUse(port)) {
		fail(`port ${port} is in use (another n8n or \`npm run dev\`?): stop it, or pick another port with --port N or N8N_DEV_PORT=N`);
	}
	const url = `http://localhost:${port}`;
	log('npm run dev: packing the package, starting the sandbox and n8n…');

	let local: LocalN8n | undefined;
	let stopping = false;
	const shutdown = async (reason: string, code: number) => {
		if (stopping) return;
		stopping = true;
		log(`\n${reason}: stopping n8n and the sandbox…`);
		if (local) {
			await local.stop();
		} else {
			// Still starting: stop whatever is running already (the exit hook SIGKILLs what is left).
			signalAll('SIGTERM');
			await delay(2_000);
		}
		log('stopped.');
		process.exit(code);
	};
	// Before anything is started, so a Ctrl-C during start-up also stops what is already running.
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal, 0));

	// The examples post to the sink at SHIPPED_SANDBOX_ORIGIN, where `npm run sandbox` answers: the
	// editor's sandbox answers there when it can, so an example imported and run with the Sandbox
	// credential runs to the end as shipped (its chat post once met a closed port).
	const sandboxPort = await portIfFree(SHIPPED_SANDBOX_PORT);
	if (sandboxPort === undefined) log(`port ${SHIPPED_SANDBOX_PORT} is in use (\`npm run sandbox\`?): the examples post to the sink there; this editor's sandbox takes another port`);
	local = await startLocalN8n({ port, owner: DEV_OWNER, tmpPrefix: 'satellite-dev-', extraEnv: { N8N_EDITOR_BASE_URL: url }, sandboxPort });
	const workflowId = await local.editor.createWorkflow(starterWorkflow(local.credential));
	local.editor.child.on('exit', (code, signal) => void shutdown(`n8n exited (code ${code}, signal ${signal}; log: ${local?.n8nLog})`, 1));
	local.sandbox.child.on('exit', (code, signal) => void shutdown(`the sandbox exited (code ${code}, signal ${signal})`, 1));

	log(
		[
			'',
			`n8n ${local.lane.n8nVersion} is ready: ${url}`,
			`  sign in:      ${DEV_OWNER.email} / ${DEV_OWNER.password}`,
			`  nodes:        ${local.nodeTypes.join(', ')}`,
			`  credential:   "${local.credential.name}" (Satellite Tracking API → the sandbox's demo account)`,
			`  workflow:     ${url}/workflow/${workflowId} (Try Satellite Tracking: list devices → last location)`,
			`  sandbox:      ${local.sandbox.url} (control: ${local.sandbox.url}/__sandbox/stats, sink: ${local.sandbox.url}/__sink/<name>)`,
			`  n8n log:      ${local.n8nLog}`,
			'Everything lives in a throw-away folder removed on exit: download workflows you want to keep.',
			'Ctrl-C stops n8n and the sandbox.',
		].join('\n'),
	);
}

main().catch((error: unknown) => {
	log(`npm run dev failed: ${error instanceof SetupFailure ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exit(1);
});
