/**
 * `npm run screenshot`: docs/screenshot.png, the Satellite Tracking node in today's n8n editor.
 *
 * Starts the same setup as `npm run dev` on a free port (n8n 2.41.1 on Node 24 from the cache, the
 * packed package installed as a community package, the sandbox, an owner, the "Sandbox" credential),
 * creates a workflow Manual Trigger → Satellite Tracking (Device → Get Last Location, credential set),
 * opens it in headless Chromium, runs the node once against the sandbox (its "Execute step" button)
 * so the panel shows real output next to the parameters, and saves the panel as docs/screenshot.png.
 *
 * The browser is Debian's `chromium` (installed with apt-get when /usr/bin/chromium is missing) driven
 * by playwright-core (a dev dependency installed with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1): no browser is
 * ever downloaded. Everything runs in a throw-away folder; n8n and the sandbox are stopped by PID.
 *
 *   npm run screenshot                       # builds first (package.json), then this
 *   npx tsx scripts/screenshot.ts --out /tmp/shot.png
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DEV_OWNER } from './n8n/editor';
import { startLocalN8n, starterWorkflow, type LocalN8n } from './n8n/local';
import { fail, freePort, log, SetupFailure, signalAll } from './n8n/processes';
import { CREDENTIAL_TYPE, PACKAGE_NAME, REPO } from './n8n/setup';

const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1440, height: 900 };
const NODE_NAME = 'Get Last Location';
const TRIGGER_NAME = 'When clicking ‘Execute workflow’';
const UI_TIMEOUT_MS = 60_000;

function outputPath(): string {
	const argv = process.argv.slice(2);
	const i = argv.indexOf('--out');
	return path.resolve(i >= 0 && argv[i + 1] ? argv[i + 1] : path.join(REPO, 'docs', 'screenshot.png'));
}

/** Debian's chromium, installed when missing (about 30 s); never a downloaded browser build. */
function ensureChromium(): void {
	if (fs.existsSync(CHROMIUM)) return;
	log(`${CHROMIUM} is missing: installing Debian's chromium (apt-get update && apt-get install -y chromium)`);
	const sudo = typeof process.getuid === 'function' && process.getuid() !== 0 ? 'sudo ' : '';
	const result = spawnSync('bash', ['-c', `${sudo}apt-get update && ${sudo}apt-get install -y chromium`], { stdio: 'inherit' });
	if (result.status !== 0 || !fs.existsSync(CHROMIUM)) fail(`installing chromium failed (exit ${result.status})`);
}

/**
 * Shown in the Device field "From list" like a user's pick: the first device and its name, read by the
 * starter workflow (List devices → Get Last Location) run through n8n, which also proves the credential.
 */
async function firstDevice(local: LocalN8n): Promise<{ id: string; name: string }> {
	const starter = await local.editor.createWorkflow(starterWorkflow(local.credential));
	const { run } = await local.editor.runFromTrigger(starter, 'When clicking ‘Execute workflow’');
	const device = run.data?.resultData?.runData?.['List devices']?.[0]?.data?.main?.[0]?.[0]?.json;
	if (run.status !== 'success' || typeof device?.id !== 'string' || typeof device.name !== 'string') {
		fail(`the starter workflow did not list devices (status ${run.status}): ${JSON.stringify(run.data?.resultData?.error ?? device)}`);
	}
	await local.editor.rest('DELETE', `/workflows/${starter}`).catch(() => undefined);
	return { id: device.id, name: device.name };
}

function screenshotWorkflow(credential: { id: string; name: string }, device: { id: string; name: string }): Record<string, unknown> {
	return {
		name: 'Where is the truck?',
		nodes: [
			{
				id: '3c9d7f0a-51e2-4b8e-8f6d-2a1b00000001',
				name: TRIGGER_NAME,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '3c9d7f0a-51e2-4b8e-8f6d-2a1b00000002',
				name: NODE_NAME,
				type: `${PACKAGE_NAME}.satelliteTracking`,
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'device',
					operation: 'getLastLocation',
					deviceId: { __rl: true, mode: 'list', value: device.id, cachedResultName: device.name },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

async function takeScreenshot(local: LocalN8n, workflowId: string, out: string): Promise<void> {
	// Loaded here so `npm run dev` and the e2e never need it.
	const { chromium } = await import('playwright-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'satellite-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: VIEWPORT,
		deviceScaleFactor: 1,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	try {
		const page = context.pages()[0] ?? (await context.newPage());
		page.setDefaultTimeout(UI_TIMEOUT_MS);
		// Sign in through the form: n8n ties its session cookie to the browser's own id (browser-id
		// header), so a cookie obtained over REST is not accepted by the page.
		await page.goto(`${local.editor.base}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(DEV_OWNER.email);
		await page.locator('input[name="password"]').fill(DEV_OWNER.password);
		await page.locator('input[name="password"]').press('Enter');
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
		await page.goto(`${local.editor.base}/workflow/${workflowId}`);
		try {
			await openNodePanel(page);
		} catch (error) {
			// What the browser showed instead, for whoever has to fix this.
			const failed = path.join(local.tmpDir, '..', `satellite-screenshot-failed-${Date.now()}.png`);
			await page.screenshot({ path: failed }).catch(() => undefined);
			throw new Error(`${error instanceof Error ? error.message : String(error)}\n  at ${page.url()}; what the browser showed: ${failed}`);
		}
		await page.screenshot({ path: out });
	} finally {
		await context.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

async function openNodePanel(page: import('playwright-core').Page): Promise<void> {
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${NODE_NAME}"]`);
		await node.waitFor({ state: 'visible' });
		await node.dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor({ state: 'visible' });
		// Run the node once against the sandbox so the output pane shows a real fix.
		await ndv.locator('[data-test-id="node-execute-button"]').first().click();
		await page.locator('[data-test-id="output-panel"] [data-test-id="run-data-item-count"]').first().waitFor({ state: 'visible' });
		// The whole fix as JSON (the table is wider than the pane).
		await page.locator('[data-test-id="output-panel"] [data-test-id="ndv-run-data-display-mode"]').getByText('JSON', { exact: true }).click();
		// Close the "Node executed successfully" toast, then let the panel settle.
		for (const close of await page.locator('.el-notification .el-notification__closeBtn').all()) await close.click().catch(() => undefined);
		await page.waitForTimeout(2_000);
}

async function main(): Promise<void> {
	const out = outputPath();
	ensureChromium();
	let local: LocalN8n | undefined;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			log(`\n${signal}: stopping n8n and the sandbox`);
			signalAll('SIGTERM');
			setTimeout(() => process.exit(130), 2_000);
		});
	}
	log('npm run screenshot: packing the package, starting the sandbox and n8n…');
	local = await startLocalN8n({ port: await freePort(), owner: DEV_OWNER, tmpPrefix: 'satellite-screenshot-' });
	try {
		const workflowId = await local.editor.createWorkflow(screenshotWorkflow(local.credential, await firstDevice(local)));
		fs.mkdirSync(path.dirname(out), { recursive: true });
		await takeScreenshot(local, workflowId, out);
		log(`saved ${path.relative(process.cwd(), out) || out} (${VIEWPORT.width}×${VIEWPORT.height}, n8n ${local.lane.n8nVersion})`);
	} finally {
		await local.stop();
	}
}

main().catch((error: unknown) => {
	log(`npm run screenshot failed: ${error instanceof SetupFailure ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exit(1);
});
