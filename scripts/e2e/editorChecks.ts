/**
 * Checks in the real n8n editor (headless chromium driven by playwright-core), for what a user sees
 * and what only the editor's own code does to a node's parameters.
 *
 *  - Changing the trigger's Events keeps the geofences and daily limits entered. n8n's editor, on a
 *    parameter change, drops the value of every parameter whose displayOptions name the changed one
 *    and whose value it judges not to fit its options (removeMismatchedOptionValues); for a
 *    collection it compares the keys of the WHOLE node's parameters with the collection's options, so
 *    a geofence list shown for some events was emptied whenever Events changed.
 *
 *  - The nodes panel finds the package by the words users search for (codex aliases), and its entry
 *    carries a description that speaks for the action node too.
 *
 * Run by scripts/e2e/run-e2e.ts on the 2.41 lane (with the lane's editor), or on its own against a
 * fresh local n8n 2.41.1 (build first):
 *
 *   npm run build && npx tsx scripts/e2e/editorChecks.ts
 */
import * as os from 'node:os';

import type { Page } from 'playwright-core';

import { ensureChromium, failureShot, openNodePanel, openSignedIn } from '../n8n/browser';
import { DEV_OWNER, type Editor, type Owner } from '../n8n/editor';
import { startLocalN8n } from '../n8n/local';
import { freePort, log } from '../n8n/processes';
import { CREDENTIAL_TYPE, PACKAGE_NAME } from '../n8n/setup';

const TRIGGER = 'Geofence trigger';
const DEPOT = { name: 'Depot', latitude: 52.52, longitude: 13.405, radius: 300 };
const EMAIL_LIMIT = 120;

function geofenceWorkflow(credential: { id: string; name: string }): Record<string, unknown> {
	return {
		name: 'Events change keeps settings',
		nodes: [
			{
				id: '5f1e2d3c-4b5a-4697-8877-665544330001',
				name: TRIGGER,
				type: `${PACKAGE_NAME}.satelliteTrackingTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					events: ['locationUpdated', 'geofenceExited', 'dailyLimitNear'],
					geofences: { circle: [DEPOT] },
					dailyLimits: { emailLimit: EMAIL_LIMIT },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

async function addEvent(page: Page, label: string): Promise<void> {
	await page.locator('[data-test-id="parameter-input-events"] .el-select').click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: label }).click();
	await page.keyboard.press('Escape');
}

async function removeEvent(page: Page, label: string): Promise<void> {
	await page.locator('[data-test-id="parameter-input-events"] .el-tag', { hasText: label }).locator('.el-tag__close').click();
}

async function savedTriggerParameters(editor: Editor, workflowId: string): Promise<Record<string, unknown>> {
	const workflow = (await editor.rest('GET', `/workflows/${workflowId}`)).data as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
	return workflow.nodes.find((node) => node.name === TRIGGER)?.parameters ?? {};
}

/** Adds "Device Silent", removes "Location Updated", saves; the geofence and the daily limit must remain. */
export async function checkEventsChangeKeepsSettings(
	editor: Editor,
	owner: Owner,
	credential: { id: string; name: string },
	shotDir: string = os.tmpdir(),
): Promise<string[]> {
	ensureChromium();
	const workflowId = await editor.createWorkflow(geofenceWorkflow(credential));
	const browser = await openSignedIn(editor.base, owner);
	const problems: string[] = [];
	try {
		const ndv = await openNodePanel(browser.page, editor.base, workflowId, TRIGGER);
		await addEvent(browser.page, 'Device Silent');
		await removeEvent(browser.page, 'Location Updated');
		const shownName = await ndv
			.locator('[data-test-id="fixed-collection-geofences"] [data-test-id="parameter-input-name"] input')
			.inputValue({ timeout: 5_000 })
			.catch(() => '(no geofence shown)');
		if (shownName !== DEPOT.name) problems.push(`after changing Events the panel shows geofence "${shownName}", expected "${DEPOT.name}"`);

		await browser.page.locator('[data-test-id="ndv-close-button"]').click();
		await browser.page.keyboard.press('ControlOrMeta+s');
		let saved: Record<string, unknown> = {};
		for (let attempt = 0; attempt < 40; attempt++) {
			saved = await savedTriggerParameters(editor, workflowId);
			if ((saved.events as string[] | undefined)?.includes('deviceSilent')) break;
			await browser.page.waitForTimeout(250);
		}
		const events = saved.events as string[] | undefined;
		if (JSON.stringify([...(events ?? [])].sort()) !== JSON.stringify(['dailyLimitNear', 'deviceSilent', 'geofenceExited'])) {
			problems.push(`saved events are ${JSON.stringify(events)}, expected geofenceExited, dailyLimitNear, deviceSilent (was the workflow saved?)`);
		}
		const circle = (saved.geofences as { circle?: unknown[] } | undefined)?.circle;
		if (JSON.stringify(circle) !== JSON.stringify([DEPOT])) problems.push(`saved geofences are ${JSON.stringify(saved.geofences)}, expected the circle ${JSON.stringify(DEPOT)}`);
		const limits = saved.dailyLimits as { emailLimit?: number } | undefined;
		if (limits?.emailLimit !== EMAIL_LIMIT) problems.push(`saved daily limits are ${JSON.stringify(limits)}, expected emailLimit ${EMAIL_LIMIT}`);
	} catch (error) {
		const shot = await failureShot(browser.page, shotDir, 'editor-check');
		problems.push(`${error instanceof Error ? error.message : String(error)} (what the browser showed: ${shot})`);
	} finally {
		await browser.close();
	}
	log(`  ${problems.length === 0 ? '✔' : '✘'} editor: changing the trigger's Events keeps its geofence and daily limit${problems.length ? `\n      ${problems.join('\n      ')}` : ''}`);
	return problems;
}

/** Words users type into the nodes panel (codex aliases), each of which must find the package's entry. */
const SEARCH_WORDS = ['location', 'vehicle', 'fleet', 'geofence', 'tracker'];

/**
 * The nodes panel finds the package by the words users type. n8n shows the action node and its
 * trigger as one entry, with the trigger's description, which must speak for both.
 */
export async function checkNodesPanelSearch(editor: Editor, owner: Owner, shotDir: string = os.tmpdir()): Promise<string[]> {
	ensureChromium();
	const workflowId = await editor.createWorkflow({
		name: 'Nodes panel search',
		nodes: [{ id: '5f1e2d3c-4b5a-4697-8877-665544330002', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
	});
	const browser = await openSignedIn(editor.base, owner);
	const problems: string[] = [];
	try {
		const { page } = browser;
		await page.goto(`${editor.base}/workflow/${workflowId}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ state: 'visible' });
		for (const word of SEARCH_WORDS) {
			// The canvas "+" opens the nodes panel with its search field focused, as for a user.
			await page.locator('[data-test-id="canvas-plus-button"], [data-test-id="node-creator-plus-button"]').first().click();
			await page.waitForTimeout(1_000);
			await page.keyboard.type(word);
			const panel = page.locator('[data-test-id="node-creator"]');
			const found = await panel.getByText('Satellite Tracking', { exact: true }).first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
			if (!found) problems.push(`searching "${word}" in the nodes panel does not find Satellite Tracking`);
			else if (!(await panel.innerText()).includes('read devices, locations and alerts')) problems.push(`the nodes panel entry found by "${word}" does not describe the action node`);
			await page.keyboard.press('Escape');
			await page.waitForTimeout(500);
		}
	} catch (error) {
		const shot = await failureShot(browser.page, shotDir, 'nodes-panel');
		problems.push(`${error instanceof Error ? error.message : String(error)} (what the browser showed: ${shot})`);
	} finally {
		await browser.close();
	}
	log(`  ${problems.length === 0 ? '✔' : '✘'} editor: the nodes panel finds the package by ${SEARCH_WORDS.join(', ')}${problems.length ? `\n      ${problems.join('\n      ')}` : ''}`);
	return problems;
}

/** Every check of this file, against one running editor. */
export async function runEditorChecks(editor: Editor, owner: Owner, credential: { id: string; name: string }, shotDir?: string): Promise<string[]> {
	return [...(await checkEventsChangeKeepsSettings(editor, owner, credential, shotDir)), ...(await checkNodesPanelSearch(editor, owner, shotDir))];
}

async function main(): Promise<number> {
	const local = await startLocalN8n({ port: await freePort(), owner: DEV_OWNER, tmpPrefix: 'satellite-editor-check-' });
	try {
		return (await runEditorChecks(local.editor, DEV_OWNER, local.credential)).length === 0 ? 0 : 1;
	} finally {
		await local.stop();
	}
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			log(`editor checks failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
			process.exit(1);
		},
	);
}
