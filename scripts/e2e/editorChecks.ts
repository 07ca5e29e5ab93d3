/**
 * Checks in the real n8n editor (headless chromium driven by playwright-core), for what a user sees
 * and what only the editor's own code does to a node's parameters.
 *
 *  - Changing the trigger's Events keeps the geofences, threshold rules and daily limits entered,
 *    even when the only event using them is removed and another picked. n8n's editor, on a parameter
 *    change, drops the value of every parameter whose displayOptions name the changed one and whose
 *    value it judges not to fit its options (removeMismatchedOptionValues; for a collection it
 *    compares the keys of the WHOLE node's parameters with the collection's options), and the value
 *    of every parameter it hides. So these lists are always shown, and a notice marks an empty one
 *    the selected events need.
 *
 *  - The nodes panel finds the package by the words users search for (codex aliases), and its entry
 *    carries a description that speaks for the action node too.
 *
 *  - The credential dialog says why a Base URL fails in the package's words, and trims it as runs do.
 *
 *  - Group → Update with an unedited JSON Patch writes nothing (its field is empty, not pre-filled).
 *
 *  - The fleet events (Idling, Trip Ended, Maintenance Due) show the settings each uses, no more,
 *    and a value typed into one survives its event being removed and added back, as do the Alert
 *    Names picked for Critical Alert.
 *
 *  - A geofence event without a geofence puts n8n's red warning on the node, on a disabled field,
 *    and the notice asking for a geofence names no event that is not selected.
 *
 *  - Values kept for events not selected survive a reload and a duplicate, and never fail or change
 *    Fetch Test Event.
 *
 * Run by scripts/e2e/run-e2e.ts on the 2.41 lane (with the lane's editor), or on its own against a
 * fresh local n8n 2.41.1 (build first):
 *
 *   npm run build && npx tsx scripts/e2e/editorChecks.ts [checkName ...]
 *
 * (only the checks named, e.g. checkAlertNamesSurviveRemoval; all without names).
 */
import * as os from 'node:os';

import type { Page } from 'playwright-core';

import { type Browser, ensureChromium, failureShot, openInEditor, openNodePanel, openSignedIn } from '../n8n/browser';
import { DEV_OWNER, type Editor, type Owner } from '../n8n/editor';
import { startLocalN8n } from '../n8n/local';
import { freePort, log, seconds } from '../n8n/processes';
import { CREDENTIAL_TYPE, PACKAGE_NAME, sandboxCredentialData, sandboxJson } from '../n8n/setup';

// How long the editor may take, on CI's shared cores, to show what a user's step brings up, and to
// show the answer of a request to n8n (a credential test, a step's run). Only a failing check waits
// them out.
const SHOWN_WITHIN_MS = 30_000;
const ANSWERED_WITHIN_MS = 90_000;

/** Checks `done` every 250 ms until it holds or ANSWERED_WITHIN_MS have passed (the caller then says what it saw). */
async function waitUntil(page: Page, done: () => Promise<boolean>): Promise<void> {
	for (const until = Date.now() + ANSWERED_WITHIN_MS; Date.now() < until && !(await done()); ) await page.waitForTimeout(250);
}

const TRIGGER = 'Geofence trigger';
const DEPOT = { name: 'Depot', latitude: 52.52, longitude: 13.405, radius: 300 };
const EMAIL_LIMIT = 120;
const RULE = { field: 'battery', direction: 'below', value: 15, hysteresis: 2 };

/** A saved, inactive workflow: the given nodes after a Manual Trigger, connected in a line. */
function manualWorkflow(name: string, nodes: Array<{ name: string } & Record<string, unknown>>): Record<string, unknown> {
	const start = { id: '5f1e2d3c-4b5a-4697-8877-665544330000', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const connections: Record<string, unknown> = {};
	[start, ...nodes].forEach((node, i, all) => {
		if (i + 1 < all.length) connections[node.name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	});
	return { name, nodes: [start, ...nodes], connections, settings: { executionOrder: 'v1' }, active: false };
}

function geofenceWorkflow(credential: { id: string; name: string }): Record<string, unknown> {
	return {
		...manualWorkflow('Events change keeps settings', []),
		nodes: [
			{
				id: '5f1e2d3c-4b5a-4697-8877-665544330001',
				name: TRIGGER,
				type: `${PACKAGE_NAME}.satelliteTrackingTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					events: ['locationUpdated', 'geofenceExited', 'valueCrossed', 'dailyLimitNear'],
					geofences: { circle: [DEPOT] },
					thresholdRules: { rule: [RULE] },
					dailyLimits: { emailLimit: EMAIL_LIMIT },
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
	};
}

/**
 * Runs one check in the signed-in tab, which the checks share and move through as a user does (a
 * page load of the editor costs the browser some 10 s of CPU): what the check throws becomes a
 * problem with a screenshot of what the tab showed, and the next check gets a tab of its own, so
 * whatever that one left open cannot fail it. Logs ✔ or ✘ with the problems under `title`.
 */
async function inBrowser(
	context: CheckContext,
	title: string,
	check: (page: Page, problems: string[]) => Promise<void>,
): Promise<string[]> {
	const started = Date.now();
	const page = context.tab.page;
	const problems: string[] = [];
	try {
		await check(page, problems);
	} catch (error) {
		const shot = await failureShot(page, context.shotDir, title.replace(/[^a-z]+/gi, '-').slice(0, 40));
		problems.push(`${error instanceof Error ? error.message : String(error)} (what the browser showed: ${shot})`);
		context.tab.page = await context.browser.newPage();
		await page.close().catch(() => undefined);
	}
	log(`  ${problems.length === 0 ? '✔' : '✘'} editor: ${title} (${seconds(Date.now() - started)})${problems.length ? `\n      ${problems.join('\n      ')}` : ''}`);
	return problems;
}

function eventTag(page: Page, label: string) {
	return page.locator('[data-test-id="parameter-input-events"] .el-tag', { hasText: label });
}

/**
 * Picks an event and waits until its tag shows: on a loaded machine the editor applies a change a
 * moment later, and clicking an option it still shows selected would unselect it.
 */
async function addEvent(page: Page, label: string): Promise<void> {
	await page.locator('[data-test-id="parameter-input-events"] .el-select').click();
	await page.locator('.el-select-dropdown__item:visible:not(.is-selected)', { hasText: label }).click();
	await page.keyboard.press('Escape');
	await eventTag(page, label).waitFor({ state: 'visible' });
}

async function removeEvent(page: Page, label: string): Promise<void> {
	await eventTag(page, label).locator('.el-tag__close').click();
	await eventTag(page, label).waitFor({ state: 'detached' });
}

async function savedParameters(editor: Editor, workflowId: string, nodeName = TRIGGER): Promise<Record<string, unknown>> {
	const workflow = (await editor.rest('GET', `/workflows/${workflowId}`)).data as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
	return workflow.nodes.find((node) => node.name === nodeName)?.parameters ?? {};
}

/**
 * Adds "Device Silent" and removes "Location Updated"; then removes the only event using each list
 * (Geofence Exited, Telemetry Threshold, Daily Limit Near) and picks Geofence Entered and the other
 * two again, as a user swapping events does; saves. The geofence, the rule and the limit remain.
 */
export async function checkEventsChangeKeepsSettings(context: CheckContext): Promise<string[]> {
	const { editor, credential } = context;
	const workflowId = await editor.createWorkflow(geofenceWorkflow(credential));
	return await inBrowser(context, "changing the trigger's Events keeps its geofence, rule and daily limit", async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, TRIGGER);
		await addEvent(page, 'Device Silent');
		await removeEvent(page, 'Location Updated');
		for (const label of ['Geofence Exited', 'Telemetry Threshold', 'Daily Limit Near']) await removeEvent(page, label);
		for (const label of ['Geofence Entered', 'Telemetry Threshold', 'Daily Limit Near']) await addEvent(page, label);
		const shownName = await ndv
			.locator('[data-test-id="fixed-collection-geofences"] [data-test-id="parameter-input-name"] input')
			.inputValue({ timeout: SHOWN_WITHIN_MS })
			.catch(() => '(no geofence shown)');
		if (shownName !== DEPOT.name) problems.push(`after changing Events the panel shows geofence "${shownName}", expected "${DEPOT.name}"`);

		await page.locator('[data-test-id="ndv-close-button"]').click();
		await page.keyboard.press('ControlOrMeta+s');
		const expectedEvents = ['dailyLimitNear', 'deviceSilent', 'geofenceEntered', 'valueCrossed'].join(', ');
		const savedEvents = (parameters: Record<string, unknown>) => [...((parameters.events as string[] | undefined) ?? [])].sort().join(', ');
		let saved: Record<string, unknown> = {};
		await waitUntil(page, async () => {
			saved = await savedParameters(editor, workflowId);
			return savedEvents(saved) === expectedEvents;
		});
		if (savedEvents(saved) !== expectedEvents) {
			problems.push(`saved events are ${JSON.stringify(saved.events)}, expected ${expectedEvents} (was the workflow saved?)`);
		}
		const circle = (saved.geofences as { circle?: unknown[] } | undefined)?.circle;
		if (JSON.stringify(circle) !== JSON.stringify([DEPOT])) problems.push(`saved geofences are ${JSON.stringify(saved.geofences)}, expected the circle ${JSON.stringify(DEPOT)}`);
		const rules = (saved.thresholdRules as { rule?: Array<Record<string, unknown>> } | undefined)?.rule;
		if (rules?.length !== 1 || Object.entries(RULE).some(([key, value]) => rules[0][key] !== value)) {
			problems.push(`saved threshold rules are ${JSON.stringify(saved.thresholdRules)}, expected the rule ${JSON.stringify(RULE)}`);
		}
		const limits = saved.dailyLimits as { emailLimit?: number } | undefined;
		if (limits?.emailLimit !== EMAIL_LIMIT) problems.push(`saved daily limits are ${JSON.stringify(limits)}, expected emailLimit ${EMAIL_LIMIT}`);
	});
}

/** Words users type into the nodes panel (codex aliases), each of which must find the package's entry. */
const SEARCH_WORDS = ['location', 'vehicle', 'fleet', 'geofence', 'tracker'];

/**
 * The nodes panel finds the package by the words users type. n8n shows the action node and its
 * trigger as one entry, with the trigger's description, which must speak for both.
 */
export async function checkNodesPanelSearch(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await editor.createWorkflow(manualWorkflow('Nodes panel search', []));
	return await inBrowser(context, `the nodes panel finds the package by ${SEARCH_WORDS.join(', ')}`, async (page, problems) => {
		await openInEditor(page, editor.base, `/workflow/${workflowId}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ state: 'visible' });
		for (const word of SEARCH_WORDS) {
			// The canvas "+" opens the nodes panel with its search field focused, as for a user.
			await page.locator('[data-test-id="canvas-plus-button"], [data-test-id="node-creator-plus-button"]').first().click();
			await page.waitForTimeout(1_000);
			await page.keyboard.type(word);
			const panel = page.locator('[data-test-id="node-creator"]');
			const found = await panel.getByText('Satellite Tracking', { exact: true }).first().waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS }).then(() => true, () => false);
			if (!found) problems.push(`searching "${word}" in the nodes panel does not find Satellite Tracking`);
			else if (!(await panel.innerText()).includes('read devices, locations and alerts')) problems.push(`the nodes panel entry found by "${word}" does not describe the action node`);
			await page.keyboard.press('Escape');
			await page.waitForTimeout(500);
		}
	});
}

/**
 * The credential dialog, as a user fills it in: a Base URL nobody answers at says so in the
 * package's words (n8n's own test would show a bare ECONNREFUSED), and one with a trailing space
 * passes, as it works in runs. Then, with the token that test stored, a Base URL changed to one
 * nobody answers at: n8n 2.41 tests an edited credential with its stored token, which the
 * credential's `authenticate` refuses for values it was not fetched with, so a fresh exchange says
 * what went wrong. On a credential of its own, so the lane's stays untouched.
 */
export async function checkCredentialDialog(context: CheckContext): Promise<string[]> {
	const { editor, sandboxUrl } = context;
	const credentialId = await editor.createCredential({
		name: 'Dialog check',
		type: CREDENTIAL_TYPE,
		// Not the first case's Base URL: the test the dialog runs on opening must not show the answer
		// the first case waits for.
		data: sandboxCredentialData(sandboxUrl),
	});
	const refused = { baseUrl: 'http://127.0.0.1:9', expect: 'Could not get an answer from the tracking API at http://127.0.0.1:9/api/Auth/Token: the connection was refused' };
	const cases = [
		refused,
		{ baseUrl: 'http://no-such-host.invalid', expect: 'Could not get an answer from the tracking API at http://no-such-host.invalid/api/Auth/Token: the host name was not found' },
		{ baseUrl: `${sandboxUrl}  `, expect: 'Connection tested successfully' },
		refused,
	];
	return await inBrowser(context, 'the credential dialog says why a Base URL fails, and trims it', async (page, problems) => {
		// One dialog for all four, as a user edits the field again after each test.
		await openInEditor(page, editor.base, `/home/credentials/${credentialId}`);
		const modal = page.locator('[data-test-id="editCredential-modal"]');
		// The dialog tests a saved credential as it opens. Two credential tests at once can fail in
		// n8n itself: its credential tester keeps the node it tests with in one module-wide map, keyed
		// by the testing node's type, and deletes it when a test ends ("Node not found" in the other,
		// n8n 2.41.1 dist/services/credentials-tester.service.js). A user waits for the first answer.
		const opened = await modal
			.getByText(/Couldn’t connect with these settings|Connection tested successfully/)
			.first()
			.waitFor({ state: 'visible', timeout: ANSWERED_WITHIN_MS })
			.then(() => true, () => false);
		if (!opened) log(`  the credential dialog showed no test answer within ${seconds(ANSWERED_WITHIN_MS)} of opening`);
		for (const { baseUrl, expect } of cases) {
			await modal.locator('[data-test-id="parameter-input-baseUrl"] input').fill(baseUrl);
			await modal.locator('[data-test-id="credential-save-button"]').click();
			// The banner of the test before stays until this one ends; a failed test folds its message
			// under "More details".
			let shown = '';
			for (const until = Date.now() + ANSWERED_WITHIN_MS; Date.now() < until && !shown.includes(expect); await page.waitForTimeout(500)) {
				const details = modal.getByText('More details');
				// The banner may change between the look and the click.
				if (await details.isVisible()) await details.click({ timeout: 2_000 }).catch(() => undefined);
				shown = await modal.innerText();
			}
			if (!shown.includes(expect)) problems.push(`Base URL ${JSON.stringify(baseUrl)}: the dialog shows ${JSON.stringify(shown.split('\n').slice(0, 14).join(' | '))}, expected "${expect}"`);
		}
	});
}

const GROUP_UPDATE = 'Update group';

/**
 * Group → Update with "As JSON Patch (Expert)" chosen and nothing typed, then Execute step, as a
 * new user tries it: nothing is written (a pre-filled example patch once renamed the group), and
 * the panel says what is missing.
 */
export async function checkUneditedJsonPatch(context: CheckContext): Promise<string[]> {
	const { editor, credential, sandboxUrl } = context;
	const workflowId = await editor.createWorkflow(
		manualWorkflow('Unedited JSON Patch', [
			{
				id: '5f1e2d3c-4b5a-4697-8877-665544330004',
				name: GROUP_UPDATE,
				type: `${PACKAGE_NAME}.satelliteTracking`,
				typeVersion: 2.2,
				position: [240, 0],
				parameters: { resource: 'group', operation: 'update', groupId: { __rl: true, mode: 'id', value: 'grp-1' }, patchMode: 'jsonPatch' },
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		]),
	);
	return await inBrowser(context, 'an unedited JSON Patch writes nothing', async (page, problems) => {
		const writesBefore = ((await sandboxJson(sandboxUrl, '/__sandbox/writes')) as unknown[]).length;
		const ndv = await openNodePanel(page, editor.base, workflowId, GROUP_UPDATE);
		const patchText = (await ndv.locator('[data-test-id="parameter-input-jsonPatch"] .cm-content').innerText()).trim();
		if (patchText !== '') problems.push(`the JSON Patch field is pre-filled with ${JSON.stringify(patchText)}`);
		await ndv.locator('[data-test-id="node-execute-button"]').click();
		// The step's outcome: n8n's error view, or a write reaching the sandbox.
		const error = ndv.locator('[data-test-id="node-error-message"]');
		let writes: unknown[] = [];
		await waitUntil(page, async () => {
			writes = (await sandboxJson(sandboxUrl, '/__sandbox/writes')) as unknown[];
			return writes.length !== writesBefore || (await error.isVisible());
		});
		const said = (await error.isVisible()) ? await error.innerText() : '(no error shown)';
		if (!/JSON Patch/.test(said)) problems.push(`Execute step should say the JSON Patch is missing; it showed ${JSON.stringify(said)}`);
		if (writes.length !== writesBefore) problems.push(`Execute step wrote to the service: ${JSON.stringify(writes.slice(writesBefore))}`);
	});
}

const FLEET_TRIGGER = 'Fleet trigger';
const PRIORITY_TRIGGER = 'Fleet under a budget';

/** A workflow of one trigger node with the sandbox's credential; its id. */
async function triggerAlone(context: CheckContext, workflowName: string, node: { id: string; name: string; typeVersion: number; parameters: Record<string, unknown> }): Promise<string> {
	return await context.editor.createWorkflow({
		...manualWorkflow(workflowName, []),
		nodes: [{ ...node, type: `${PACKAGE_NAME}.satelliteTrackingTrigger`, position: [0, 0], credentials: { [CREDENTIAL_TYPE]: context.credential } }],
	});
}

/**
 * The fleet events' settings as a user meets them: with Idling alone, Moving Speed and Idle Minutes
 * show and the trip-cutting settings do not; picking Trip Ended brings Min Stop Minutes and Min
 * Trip Distance, and Maintenance Due its service interval. One detector shows its parameters for
 * some of its events only, which n8n's editor decides from the description as sent.
 */
export async function checkFleetEventSettings(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Fleet event settings', { id: '5f1e2d3c-4b5a-4697-8877-665544330005', name: FLEET_TRIGGER, typeVersion: 2, parameters: { events: ['idling'] } });
	return await inBrowser(context, 'the fleet events show the settings they use', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, FLEET_TRIGGER);
		const shown = async (names: string[]) => {
			const visible: string[] = [];
			for (const name of names) if (await ndv.locator(`[data-test-id="parameter-input-${name}"]`).first().isVisible()) visible.push(name);
			return visible;
		};
		const all = ['movingSpeed', 'idleMinutes', 'minStopMinutes', 'minTripDistanceMeters', 'serviceIntervalKm', 'serviceStartKm'];
		await ndv.locator('[data-test-id="parameter-input-idleMinutes"]').first().waitFor({ state: 'visible' });
		const idling = await shown(all);
		if (idling.join() !== 'movingSpeed,idleMinutes') problems.push(`with Idling alone the panel shows ${idling.join(', ')}, expected movingSpeed, idleMinutes`);
		await addEvent(page, 'Trip Ended');
		await addEvent(page, 'Maintenance Due');
		await ndv.locator('[data-test-id="parameter-input-serviceIntervalKm"]').first().waitFor({ state: 'visible' });
		const everything = await shown(all);
		if (everything.join() !== all.join()) problems.push(`with Idling, Trip Ended and Maintenance Due the panel shows ${everything.join(', ')}, expected ${all.join(', ')}`);
	});
}

/** What a user types into the fleet events' settings, none of them a default. */
const TYPED_FLEET_SETTINGS = { movingSpeed: '8', idleMinutes: '7', minTripDistanceMeters: '350', serviceIntervalKm: '5000' };

/**
 * Typed settings as a user changes events: Idle Minutes 7, Service Interval 5000, Moving Speed 8 and
 * Min Trip Distance 350, then Idling, Maintenance Due and Trip Started removed, Location Updated
 * picked, and the three added back. Every value is the one typed (they once came back as their
 * defaults: n8n's editor drops a hidden parameter's value).
 */
export async function checkEventSettingsSurviveRemoval(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Event settings survive removal', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330008',
		name: FLEET_TRIGGER,
		typeVersion: 2,
		parameters: { events: ['tripStarted', 'idling', 'maintenanceDue'] },
	});
	return await inBrowser(context, 'an event removed and added back keeps its typed settings', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, FLEET_TRIGGER);
		const input = (name: string) => ndv.locator(`[data-test-id="parameter-input-${name}"] input`).first();
		for (const [name, value] of Object.entries(TYPED_FLEET_SETTINGS)) {
			await input(name).fill(value);
			await input(name).press('Tab');
		}
		for (const label of ['Idling', 'Maintenance Due', 'Trip Started']) await removeEvent(page, label);
		await addEvent(page, 'Location Updated');
		for (const label of ['Idling', 'Maintenance Due', 'Trip Started']) await addEvent(page, label);
		for (const [name, value] of Object.entries(TYPED_FLEET_SETTINGS)) {
			const shown = await input(name).inputValue({ timeout: SHOWN_WITHIN_MS }).catch(() => '(not shown)');
			if (shown !== value) problems.push(`after removing and adding back its event, ${name} shows ${shown}, expected the typed ${value}`);
		}
	});
}

const ALERT_TRIGGER = 'Alert trigger';
/** Alert Names a user picks, as the list shows them. */
const PICKED_ALERT_NAMES = ['SOSButton', 'SpeedLimit'];

/**
 * Alert Names (a list of Critical Alert's) as a user changes events: two names picked, Critical
 * Alert removed, the names still shown labelled with their event, Critical Alert added back, the
 * names still picked, and saved so. They once came back empty: n8n's editor drops a hidden
 * parameter's value.
 */
export async function checkAlertNamesSurviveRemoval(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Alert names survive removal', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330009',
		name: ALERT_TRIGGER,
		typeVersion: 3,
		parameters: { events: ['criticalAlert', 'locationUpdated'] },
	});
	return await inBrowser(context, 'Critical Alert removed and added back keeps its Alert Names', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, ALERT_TRIGGER);
		const alertNames = ndv.locator('[data-test-id="parameter-input-alertNames"]').first();
		const picked = async () => (await alertNames.locator('.el-tag').allInnerTexts().catch(() => [])).map((text) => text.trim()).filter(Boolean);
		await alertNames.locator('.el-select').click();
		for (const name of PICKED_ALERT_NAMES) await page.locator('.el-select-dropdown__item:visible:not(.is-selected)', { hasText: name }).first().click();
		await page.keyboard.press('Escape');
		await alertNames.locator('.el-tag', { hasText: PICKED_ALERT_NAMES[1] }).waitFor({ state: 'visible' });
		await removeEvent(page, 'Critical Alert');
		const meanwhile = (await alertNames.isVisible()) ? await picked() : [];
		if (meanwhile.join() !== PICKED_ALERT_NAMES.join()) problems.push(`with Critical Alert removed the panel shows Alert Names ${JSON.stringify(meanwhile)}, expected the picked ${JSON.stringify(PICKED_ALERT_NAMES)}`);
		if (!(await ndv.innerText()).includes('Alert Names (Only for Critical Alert)')) problems.push('with Critical Alert removed the panel does not say the Alert Names kept are only for Critical Alert');
		await addEvent(page, 'Critical Alert');
		const after = await picked();
		if (after.join() !== PICKED_ALERT_NAMES.join()) problems.push(`after adding Critical Alert back the panel shows Alert Names ${JSON.stringify(after)}, expected the picked ${JSON.stringify(PICKED_ALERT_NAMES)}`);

		await page.locator('[data-test-id="ndv-close-button"]').click();
		await page.keyboard.press('ControlOrMeta+s');
		let saved: unknown;
		await waitUntil(page, async () => {
			saved = (await savedParameters(editor, workflowId, ALERT_TRIGGER)).alertNames;
			return JSON.stringify(saved) === JSON.stringify(PICKED_ALERT_NAMES);
		});
		if (JSON.stringify(saved) !== JSON.stringify(PICKED_ALERT_NAMES)) problems.push(`saved Alert Names are ${JSON.stringify(saved)}, expected ${JSON.stringify(PICKED_ALERT_NAMES)} (was the workflow saved?)`);
	});
}

const NO_GEOFENCE = 'Geofence trigger without a geofence';
const WITH_GEOFENCE = 'Geofence trigger with a geofence';

/**
 * A trigger watching for a geofence event with no geofence gets n8n's red warning on the canvas as
 * soon as it is configured so (it once only failed at Fetch Test Event); one with a geofence does not.
 */
export async function checkGeofenceIssue(context: CheckContext): Promise<string[]> {
	const { editor, credential } = context;
	const trigger = (name: string, id: string, position: number[], parameters: Record<string, unknown>) => ({
		id,
		name,
		type: `${PACKAGE_NAME}.satelliteTrackingTrigger`,
		typeVersion: 2,
		position,
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credential },
	});
	const workflowId = await editor.createWorkflow({
		...manualWorkflow('Geofence event without a geofence', []),
		nodes: [
			trigger(NO_GEOFENCE, '5f1e2d3c-4b5a-4697-8877-665544330006', [0, 0], { events: ['geofenceEntered'] }),
			trigger(WITH_GEOFENCE, '5f1e2d3c-4b5a-4697-8877-665544330007', [0, 300], { events: ['geofenceEntered'], geofences: { circle: [DEPOT] } }),
		],
	});
	return await inBrowser(context, 'a geofence event without a geofence marks the node on the canvas', async (page, problems) => {
		await openInEditor(page, editor.base, `/workflow/${workflowId}`);
		const issues = (name: string) => page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"] [data-test-id="node-issues"]`);
		const marked = await issues(NO_GEOFENCE).waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS }).then(() => true, () => false);
		if (!marked) problems.push(`"${NO_GEOFENCE}" shows no parameter issue on the canvas`);
		if (await issues(WITH_GEOFENCE).isVisible()) problems.push(`"${WITH_GEOFENCE}" shows a parameter issue on the canvas`);
	});
}

const ONE_GEOFENCE_EVENT = 'Entered only';

/**
 * Geofence Entered alone and no geofence yet, as a new user starts: the notice asks for a geofence in
 * the name of the event selected, not of Geofence Dwell and Exited too, and the field that carries
 * n8n's red warning cannot be typed into (it looked like the place to name a geofence; nothing typed
 * there is read).
 */
export async function checkGeofenceHintsForOneEvent(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Geofence hints for one event', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330010',
		name: ONE_GEOFENCE_EVENT,
		typeVersion: 3,
		parameters: { events: ['geofenceEntered'] },
	});
	return await inBrowser(context, 'Geofence Entered alone: the hints name no other event, the warning field takes no text', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, ONE_GEOFENCE_EVENT);
		const needed = ndv.locator('[data-test-id="parameter-input-geofenceNeeded"]').first();
		await needed.waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });
		await page.screenshot({ path: `${context.shotDir}/rt47-geofence-hints.png` });
		const notice = ndv.getByText(/at least one entry in Geofences/).first();
		const said = (await notice.isVisible()) ? await notice.innerText() : '(no notice)';
		if (!said.includes('at least one entry')) problems.push(`no notice asks for a geofence; the panel shows ${JSON.stringify(said)}`);
		if (/Geofence Dwell|Geofence Exited/.test(said)) problems.push(`with Geofence Entered alone the notice names events not selected: ${JSON.stringify(said)}`);
		if (await needed.locator('input').first().isEditable()) problems.push('the field carrying the red warning takes typed text, as if a geofence were named there');
		// The Geofences list's label, naming its events, is read whole at the panel's width.
		const label = ndv.getByText(/^Geofences \(Only for/).first();
		const cut = await label.evaluate((element) => {
			type Box = { scrollWidth: number; clientWidth: number; parentElement: Box | null; textContent: string | null };
			const browser = globalThis as unknown as { getComputedStyle(box: Box): { overflowX: string } };
			for (let at: Box | null = element as unknown as Box; at !== null; at = at.parentElement) {
				if (browser.getComputedStyle(at).overflowX !== 'visible' && at.scrollWidth > at.clientWidth + 1) return `${(element as unknown as Box).textContent} (${at.scrollWidth} px in ${at.clientWidth})`;
			}
			return '';
		});
		if (cut !== '') problems.push(`the Geofences label is cut off at the panel's width: ${cut}`);
	});
}

const KEPT_GEOFENCE = 'Location with a kept geofence';

/**
 * A geofence left half drawn (two points) while the geofence events were removed, saved and reopened:
 * Fetch Test Event for Location Updated returns events. Unselected events' settings are never read
 * (they failed the poll: "Invalid Geofence").
 */
export async function checkKeptSettingsDoNotFailFetch(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Kept settings do not fail Fetch Test Event', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330011',
		name: KEPT_GEOFENCE,
		typeVersion: 3,
		parameters: { events: ['locationUpdated'], geofences: { polygon: [{ name: 'Half drawn', format: 'points', points: '1, 1\n1, 2' }] }, silentAfterMinutes: null },
	});
	return await inBrowser(context, 'a half-drawn geofence kept for removed geofence events does not fail Fetch Test Event', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, KEPT_GEOFENCE);
		await ndv.locator('[data-test-id="node-execute-button"]').click();
		const error = ndv.locator('[data-test-id="node-error-message"]');
		const items = ndv.locator('[data-test-id="ndv-items-count"], [data-test-id="run-data-schema-item"]');
		await waitUntil(page, async () => (await error.isVisible()) || (await items.first().isVisible()));
		await page.screenshot({ path: `${context.shotDir}/rt47-kept-geofence-fetch.png` });
		if (await error.isVisible()) problems.push(`Fetch Test Event failed: ${JSON.stringify(await error.innerText())}`);
		else if (!(await items.first().isVisible())) problems.push('Fetch Test Event showed neither events nor an error');
	});
}

const KEPT_TRIGGER = 'Alerts and idling';
/** Typed settings of two events removed at once, each no default. */
const KEPT_SETTINGS = { alertNames: ['SOSButton'], alertFilter: 'power cut', idleMinutes: 7 };

/**
 * Critical Alert and Idling removed at once with Alert Names, Alert Text Filter and Idle Minutes set,
 * Location Updated picked, saved, the page reloaded and the node duplicated: both nodes keep all three
 * values, and Fetch Test Event on the copy reports Location Updated only.
 */
export async function checkKeptValuesThroughReloadAndDuplicate(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Kept values through reload and duplicate', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330012',
		name: KEPT_TRIGGER,
		typeVersion: 3,
		parameters: { events: ['criticalAlert', 'idling'], ...KEPT_SETTINGS },
	});
	return await inBrowser(context, 'kept values survive removing two events at once, a reload and a duplicate', async (page, problems) => {
		await openNodePanel(page, editor.base, workflowId, KEPT_TRIGGER);
		await addEvent(page, 'Location Updated');
		await removeEvent(page, 'Critical Alert');
		await removeEvent(page, 'Idling');
		await page.locator('[data-test-id="ndv-close-button"]').click();
		await page.keyboard.press('ControlOrMeta+s');
		await page.waitForTimeout(1500);
		await page.reload();
		const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${KEPT_TRIGGER}"]`);
		await node.waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });
		await node.click();
		await page.keyboard.press('ControlOrMeta+d');
		const copy = `${KEPT_TRIGGER}1`;
		await page.locator(`[data-test-id="canvas-node"][data-node-name="${copy}"]`).waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });
		await page.keyboard.press('ControlOrMeta+s');
		// n8n saves no parameter at its default: Location Updated alone, Events' default, is saved as no events.
		const watchesLocationOnly = (parameters: Record<string, unknown>) => parameters.events === undefined || JSON.stringify(parameters.events) === '["locationUpdated"]';
		let nodes: Record<string, unknown>[] = [];
		await waitUntil(page, async () => {
			nodes = [await savedParameters(editor, workflowId, KEPT_TRIGGER), await savedParameters(editor, workflowId, copy)];
			return nodes.every(watchesLocationOnly);
		});
		for (const [index, parameters] of nodes.entries()) {
			const { events, ...kept } = parameters;
			const expected = { ...KEPT_SETTINGS };
			if (!watchesLocationOnly({ events }) || JSON.stringify(kept, Object.keys(expected)) !== JSON.stringify(expected)) {
				problems.push(`${index === 0 ? 'the node' : 'its duplicate'} saved ${JSON.stringify(parameters)}, expected Location Updated alone and ${JSON.stringify(expected)}`);
			}
		}
		const ndv = await openNodePanel(page, editor.base, workflowId, copy);
		await page.screenshot({ path: `${context.shotDir}/rt47-kept-duplicate.png` });
		await ndv.locator('[data-test-id="node-execute-button"]').click();
		const error = ndv.locator('[data-test-id="node-error-message"]');
		const count = ndv.locator('[data-test-id="ndv-items-count"]');
		await waitUntil(page, async () => (await error.isVisible()) || (await count.isVisible()));
		if (await error.isVisible()) problems.push(`Fetch Test Event on the duplicate failed: ${JSON.stringify(await error.innerText())}`);
		else if (!(await count.isVisible())) problems.push('Fetch Test Event on the duplicate showed neither events nor an error');
		const shownEvents = await ndv.getByText(/^(criticalAlert|idling)$/).count();
		if (shownEvents > 0) problems.push(`Fetch Test Event on the duplicate shows ${shownEvents} Critical Alert or Idling events, with only Location Updated selected`);
	});
}

/**
 * Read Priority and Max Stale Minutes (issue 50) as a version-3 trigger shows them under Request
 * Settings: both inputs render, the choice reads "Active First", the minutes 14.
 */
export async function checkReadPrioritySettings(context: CheckContext): Promise<string[]> {
	const { editor } = context;
	const workflowId = await triggerAlone(context, 'Read priority settings', {
		id: '5f1e2d3c-4b5a-4697-8877-665544330050',
		name: PRIORITY_TRIGGER,
		typeVersion: 3,
		parameters: { events: ['locationUpdated'], requestSettings: { maxRequestsPerPoll: 100, readPriority: 'activeFirst', maxStaleMinutes: 14 } },
	});
	return await inBrowser(context, 'Read Priority and Max Stale Minutes show under Request Settings', async (page, problems) => {
		const ndv = await openNodePanel(page, editor.base, workflowId, PRIORITY_TRIGGER);
		const priority = ndv.locator('[data-test-id="parameter-input-readPriority"]').first();
		await priority.waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });
		const chosen = await priority.locator('input').first().inputValue();
		if (chosen !== 'Active First') problems.push(`Read Priority shows "${chosen}", expected "Active First"`);
		const minutes = ndv.locator('[data-test-id="parameter-input-maxStaleMinutes"]').first();
		await minutes.waitFor({ state: 'visible', timeout: SHOWN_WITHIN_MS });
		const value = await minutes.locator('input').first().inputValue();
		if (value !== '14') problems.push(`Max Stale Minutes shows "${value}", expected "14"`);
	});
}

/**
 * What every check gets: the running editor, the browser signed in to it and its tab the checks
 * share, the sandbox behind it and its credential.
 */
export interface CheckContext {
	editor: Editor;
	browser: Browser;
	tab: { page: Page };
	credential: { id: string; name: string };
	sandboxUrl: string;
	shotDir: string;
}

/**
 * Every check of this file, against one running editor, one after another, in the tab of one
 * browser signed in as `owner`. A browser and sign-in per check cost some 10 s each on 2 cores, and
 * a tab per check loaded the editor anew. The credential dialog goes last: it leaves its dialog open
 * over whatever page comes next.
 */
const CHECKS = [
	checkEventsChangeKeepsSettings,
	checkFleetEventSettings,
	checkEventSettingsSurviveRemoval,
	checkAlertNamesSurviveRemoval,
	checkGeofenceIssue,
	checkGeofenceHintsForOneEvent,
	checkKeptSettingsDoNotFailFetch,
	checkKeptValuesThroughReloadAndDuplicate,
	checkReadPrioritySettings,
	checkNodesPanelSearch,
	checkUneditedJsonPatch,
	checkCredentialDialog,
];

export async function runEditorChecks(
	context: Omit<CheckContext, 'shotDir' | 'browser' | 'tab'> & { owner: Owner; shotDir?: string; only?: string[] },
): Promise<string[]> {
	const { owner, only = [], ...rest } = context;
	const unknown = only.filter((name) => !CHECKS.some((check) => check.name === name));
	if (unknown.length > 0) throw new Error(`no editor check named ${unknown.join(', ')} (known: ${CHECKS.map((check) => check.name).join(', ')})`);
	ensureChromium();
	const browser = await openSignedIn(context.editor.base, owner);
	const full: CheckContext = { ...rest, browser, tab: { page: browser.page }, shotDir: context.shotDir ?? os.tmpdir() };
	const problems: string[] = [];
	try {
		for (const check of CHECKS.filter((candidate) => only.length === 0 || only.includes(candidate.name))) {
			problems.push(...(await check(full)));
		}
	} finally {
		await browser.close();
	}
	return problems;
}

async function main(): Promise<number> {
	const local = await startLocalN8n({ port: await freePort(), owner: DEV_OWNER, tmpPrefix: 'satellite-editor-check-' });
	try {
		const only = process.argv.slice(2);
		return (await runEditorChecks({ editor: local.editor, owner: DEV_OWNER, credential: local.credential, sandboxUrl: local.sandbox.url, only })).length === 0 ? 0 : 1;
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
