/**
 * `npm run screenshot`: docs/screenshot.png, the Satellite Tracking node in today's n8n editor.
 *
 * Starts the same setup as `npm run dev` on a free port (n8n 2.41.1 on Node 24 from the cache, the
 * packed package installed as a community package, the sandbox, an owner, the "Sandbox" credential),
 * creates a workflow Manual Trigger → Satellite Tracking (version 2, Device → Get Last Location,
 * Simplify on as new nodes have it, credential set), opens it in headless Chromium
 * (scripts/n8n/browser.ts), runs the node once against the sandbox (its "Execute step" button) so
 * the panel shows the simplified fix next to the parameters, and saves the panel as
 * docs/screenshot.png. Everything runs in a throw-away folder; n8n and the sandbox are stopped by PID.
 *
 *   npm run screenshot                       # builds first (package.json), then this
 *   npx tsx scripts/screenshot.ts --out /tmp/shot.png
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { ensureChromium, failureShot, openNodePanel, openSignedIn } from './n8n/browser';
import { DEV_OWNER } from './n8n/editor';
import { startLocalN8n, starterWorkflow, type LocalN8n } from './n8n/local';
import { fail, freePort, log, SetupFailure, signalAll } from './n8n/processes';
import { CREDENTIAL_TYPE, PACKAGE_NAME, REPO } from './n8n/setup';

const VIEWPORT = { width: 1440, height: 900 };
const NODE_NAME = 'Get Last Location';
const TRIGGER_NAME = 'When clicking ‘Execute workflow’';

function outputPath(): string {
	const argv = process.argv.slice(2);
	const i = argv.indexOf('--out');
	return path.resolve(i >= 0 && argv[i + 1] ? argv[i + 1] : path.join(REPO, 'docs', 'screenshot.png'));
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
				typeVersion: 2.2,
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
	const browser = await openSignedIn(local.editor.base, DEV_OWNER, VIEWPORT);
	try {
		const { page } = browser;
		try {
			const ndv = await openNodePanel(page, local.editor.base, workflowId, NODE_NAME);
			await showOutput(page, ndv);
		} catch (error) {
			const failed = await failureShot(page, path.join(local.tmpDir, '..'), 'screenshot');
			throw new Error(`${error instanceof Error ? error.message : String(error)}\n  at ${page.url()}; what the browser showed: ${failed}`);
		}
		await page.screenshot({ path: out });
	} finally {
		await browser.close();
	}
}

/** Runs the node once against the sandbox so the output pane shows a real, simplified fix. */
async function showOutput(page: Page, ndv: Locator): Promise<void> {
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	await page.locator('[data-test-id="output-panel"] [data-test-id="run-data-item-count"]').first().waitFor({ state: 'visible' });
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
