/**
 * The real n8n editor in headless Debian `chromium`, driven by playwright-core (a dev dependency
 * installed with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1): no browser is ever downloaded. Used by
 * scripts/screenshot.ts and by the e2e's editor checks (scripts/e2e/editorChecks.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import type { Owner } from './editor';
import { fail, log } from './processes';

export const CHROMIUM = '/usr/bin/chromium';
// Generous: they only cost time when a check fails, and CI's 2 cores are shared. On one starved
// core, the first load of the editor's page took over 60 s.
const UI_TIMEOUT_MS = 90_000;
const PAGE_LOAD_TIMEOUT_MS = 180_000;

/** Debian's chromium, installed when missing (scripts/e2e/install-chromium.sh); never a downloaded browser build. */
export function ensureChromium(): void {
	if (fs.existsSync(CHROMIUM)) return;
	log(`${CHROMIUM} is missing: installing Debian's chromium`);
	const result = spawnSync('bash', [path.join(__dirname, '..', 'e2e', 'install-chromium.sh')], { stdio: 'inherit' });
	if (result.status !== 0 || !fs.existsSync(CHROMIUM)) fail(`installing chromium failed (exit ${result.status})`);
}

export interface Browser {
	page: Page;
	/** Another tab of the same signed-in profile (its cookie, its cache of the editor's scripts). */
	newPage(): Promise<Page>;
	close(): Promise<void>;
}

/**
 * A fresh profile, signed in as `owner` through the sign-in form: n8n ties its session cookie to
 * the browser's own id (browser-id header), so a cookie obtained over REST is not accepted by the page.
 */
export async function openSignedIn(base: string, owner: Owner, viewport = { width: 1440, height: 900 }): Promise<Browser> {
	// Loaded here so `npm run dev` and the e2e's CLI part never need it.
	const { chromium } = await import('playwright-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'satellite-chromium-'));
	let context: BrowserContext | undefined;
	const close = async () => {
		await context?.close().catch(() => undefined);
		fs.rmSync(profile, { recursive: true, force: true });
	};
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			viewport,
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
		// For every tab, the first one and those of newPage alike.
		context.setDefaultTimeout(UI_TIMEOUT_MS);
		context.setDefaultNavigationTimeout(PAGE_LOAD_TIMEOUT_MS);
		const signedIn = context;
		const page = context.pages()[0] ?? (await context.newPage());
		await page.goto(`${base}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
		await page.locator('input[name="password"]').fill(owner.password);
		await page.locator('input[name="password"]').press('Enter');
		// Where the editor lands after signing in; its redirects there are over by then.
		await page.waitForURL((url) => url.pathname.startsWith('/home/'));
		return { page, newPage: () => signedIn.newPage(), close };
	} catch (error) {
		await close();
		throw error;
	}
}

/** What the page's side of `openInEditor` reads: the editor's root element, where Vue keeps its app. */
type EditorWindow = {
	document: { querySelector(selector: string): { __vue_app__?: { config: { globalProperties: { $router?: { push(to: string): Promise<unknown> } } } } } | null };
};

const LEAVE_WITHOUT_SAVING = 'Leave without saving';
const PUSH_WINDOWS_MS = [5_000, 10_000, 20_000];

/**
 * Opens `route` (e.g. `/workflow/<id>`) in the tab as the editor's own links do, through its router,
 * when the tab shows the editor already: a page load costs the browser some 10 s of CPU on 2 cores.
 * Leaving a workflow with unsaved changes asks first, as it asks a user: the answer is "Leave without
 * saving". A tab without the editor loads the page.
 */
export async function openInEditor(page: Page, base: string, route: string): Promise<void> {
	const arrived = (url: URL) => url.pathname === route;
	const leave = page.getByRole('button', { name: LEAVE_WITHOUT_SAVING });
	// The editor's own pages move its router too (the workflows list writes its sort order into the
	// URL once it has loaded), which cancels a push made meanwhile: a push that has not arrived is
	// made again, waiting longer each time.
	let tried = false;
	for (const withinMs of page.url().startsWith(`${base}/`) ? PUSH_WINDOWS_MS : []) {
		const pushed = await page.evaluate((to) => {
			const router = (globalThis as unknown as EditorWindow).document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router;
			if (router) void router.push(to);
			return router !== undefined;
		}, route);
		if (!pushed) break;
		tried = true;
		const outcome = await Promise.race([
			page.waitForURL(arrived, { timeout: withinMs }).then(() => 'arrived' as const, () => 'not yet' as const),
			leave.waitFor({ state: 'visible', timeout: withinMs }).then(() => 'asked' as const, () => 'not yet' as const),
		]);
		if (outcome === 'arrived') return;
		// Also a question slower than the window: answered, not asked twice by another push.
		if (outcome === 'asked' || (await leave.isVisible())) {
			await leave.click();
			await page.waitForURL(arrived);
			return;
		}
	}
	if (tried) log(`  the editor's router did not open ${route} in ${PUSH_WINDOWS_MS.length} pushes: loading the page`);
	await page.goto(`${base}${route}`);
}

/** Opens a workflow and double-clicks a node on the canvas; resolves with the node's panel (NDV). */
export async function openNodePanel(page: Page, base: string, workflowId: string, nodeName: string) {
	await openInEditor(page, base, `/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.waitFor({ state: 'visible' });
	await node.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor({ state: 'visible' });
	return ndv;
}

/** What the browser showed when a step failed, saved beside the temp folder for whoever has to fix it. */
export async function failureShot(page: Page, dir: string, label: string): Promise<string> {
	const file = path.join(dir, `satellite-${label}-failed-${Date.now()}.png`);
	await page.screenshot({ path: file }).catch(() => undefined);
	return file;
}
