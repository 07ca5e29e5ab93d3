/**
 * A running n8n (`n8n start`) driven through the editor's REST API: owner set-up, login (cookie
 * `n8n-auth`), credentials and workflows created as the editor creates them, and manual runs started
 * from a trigger as the editor's "Execute workflow" / "Fetch Test Event" buttons start them.
 * Used by scripts/e2e/run-e2e.ts (polling-trigger and schedule workflows), scripts/dev.ts and
 * scripts/screenshot.ts.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

import type { N8nRun } from '../../test/e2e/lib';
import { delay, fail, log, seconds, startLogged, stopProcess, tail, type Started } from './processes';
import { BOOT_FILES, n8nBinary, type Lane } from './setup';

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	/** 8+ characters with a digit and an uppercase letter (n8n's rule). */
	password: string;
}

export const E2E_OWNER: Owner = { email: 'e2e-owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'E2e-owner-Passw0rd' };
/** The owner `npm run dev` and `npm run screenshot` create (a throw-away local n8n: printed, not secret). */
export const DEV_OWNER: Owner = { email: 'dev@example.com', firstName: 'Dev', lastName: 'Owner', password: 'Satellite-dev-1' };
const BROWSER_ID = 'satellite-e2e-browser';
// Generous: CI machines are shared, and in queue mode three n8n processes start at once.
const EDITOR_READY_TIMEOUT_MS = 240_000;
const MANUAL_RUN_TIMEOUT_MS = 90_000;
const REST_UNAVAILABLE_RETRY_MS = 30_000;

export interface Editor extends Started {
	/** `http://127.0.0.1:<port>` */
	base: string;
	/** The logged-in owner's session cookie, `n8n-auth=…`. */
	cookie(): string;
	/** A call to `/rest<route>` as the logged-in owner; throws on a non-2xx answer. */
	rest(method: string, route: string, body?: unknown): Promise<Record<string, unknown>>;
	/** Creates a credential (plain `data`, n8n encrypts it) and returns its id. */
	createCredential(credential: { name: string; type: string; data: Record<string, unknown> }): Promise<string>;
	/** Creates a workflow (nodes, connections, settings …) and returns its id. */
	createWorkflow(workflow: Record<string, unknown>): Promise<string>;
	/** Runs the workflow from `trigger` as the editor does, and returns the saved execution as an IRun. */
	runFromTrigger(workflowId: string, trigger: string, timeoutMs?: number): Promise<{ run: N8nRun; ms: number; executionId: string }>;
	/** The saved execution as an IRun once it has ended (or `timeoutMs` passed: then it fails). */
	waitForExecution(executionId: string, timeoutMs?: number): Promise<N8nRun>;
}

/**
 * Starts `n8n start` (own process group, output to `logFile`), waits for "Editor is now accessible" and a
 * healthy `/healthz`, creates the owner and logs in as them.
 */
export async function startEditor(
	lane: Lane,
	env: NodeJS.ProcessEnv,
	cwd: string,
	port: number,
	logFile: string,
	owner: Owner = E2E_OWNER,
	/** False for an n8n whose database has its owner already (a restart): log in only. */
	setUpOwner = true,
): Promise<Editor> {
	// The first `n8n start` of an install records the files it reads, for scripts/e2e/prewarm.sh.
	const bootFiles = path.join(lane.n8nDir, BOOT_FILES);
	const recording = fs.existsSync(bootFiles) ? {} : { NODE_OPTIONS: `--require=${JSON.stringify(path.join(__dirname, 'record-boot-files.cjs'))}`, SATELLITE_BOOT_FILES: bootFiles };
	const { child, output } = startLogged(lane.node, [n8nBinary(lane), 'start'], { cwd, env: { ...env, ...recording }, logFile });
	const base = `http://127.0.0.1:${port}`;

	const started = Date.now();
	const waitUntilUp = async () => {
		for (;;) {
			if (child.exitCode !== null || child.signalCode !== null) {
				fail(`n8n start exited (code ${child.exitCode}, signal ${child.signalCode}) before the editor was up\n${tail(output())}`);
			}
			if (output().includes('Editor is now accessible')) {
				const health = await fetch(`${base}/healthz`).catch(() => undefined);
				if (health?.ok) break;
			}
			if (Date.now() - started > EDITOR_READY_TIMEOUT_MS) {
				fail(`n8n start: editor not up within ${seconds(EDITOR_READY_TIMEOUT_MS)}\n${tail(output())}`);
			}
			await delay(500);
		}
		log(`  n8n start up on ${base} in ${seconds(Date.now() - started)} (pid ${child.pid})`);
	};

	let cookie = '';
	const attempt = (method: string, route: string, body?: unknown) =>
		fetch(`${base}/rest${route}`, {
			method,
			headers: {
				'content-type': 'application/json',
				'browser-id': BROWSER_ID,
				...(cookie ? { cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	// A kept-alive socket n8n closed (its keep-alive timeout is 5 s) while this client, slowed by a
	// busy machine, still thought it open: "fetch failed", other side closed, before n8n read a byte
	// of the request. Sent again on a new socket, it is sent once.
	const send = (method: string, route: string, body?: unknown) =>
		attempt(method, route, body).catch(async (error: unknown) => {
			const code = (error as { cause?: { code?: string } }).cause?.code;
			if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
			return await attempt(method, route, body);
		});
	const rest = async (method: string, route: string, body?: unknown): Promise<Record<string, unknown>> => {
		let response = await send(method, route, body);
		// 503 "Database is not ready!": n8n's database ping timed out on a busy machine; n8n refused the
		// request without handling it, so sending it again is safe.
		for (const t0 = Date.now(); response.status === 503 && Date.now() - t0 < REST_UNAVAILABLE_RETRY_MS; ) {
			await delay(1_000);
			response = await send(method, route, body);
		}
		const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (setCookie) cookie = setCookie.split(';')[0];
		const text = await response.text();
		if (!response.ok) fail(`n8n REST ${method} /rest${route} answered ${response.status}: ${text.slice(0, 500)}`);
		return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
	};

	try {
		await waitUntilUp();
		// A fresh n8n has no owner; imported workflows and credentials belong to the owner's project.
		if (setUpOwner) await rest('POST', '/owner/setup', owner);
		await rest('POST', '/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		if (!cookie) fail('n8n login set no n8n-auth cookie');
	} catch (error) {
		// Not left running for the caller's clean-up to miss: it never got the process.
		await stopProcess(child, 'n8n start', 20_000);
		throw error;
	}

	// Execution data comes back serialized with `flatted`; use the copy n8n itself ships.
	const flatted = createRequire(path.join(lane.n8nDir, 'node_modules', 'n8n', 'package.json'))('flatted') as {
		parse(text: string): unknown;
	};

	const createdId = (answer: Record<string, unknown>, what: string): string => {
		const id = (answer.data as Record<string, unknown> | undefined)?.id;
		if (typeof id !== 'string' || id === '') fail(`n8n created no ${what} id: ${JSON.stringify(answer).slice(0, 300)}`);
		return id;
	};

	const waitForExecution = async (executionId: string, timeoutMs = MANUAL_RUN_TIMEOUT_MS): Promise<N8nRun> => {
		const t0 = Date.now();
		for (;;) {
			const execution = (await rest('GET', `/executions/${executionId}`)).data as Record<string, unknown> | undefined;
			const status = String(execution?.status ?? '');
			if (execution && (execution.finished === true || ['success', 'error', 'crashed', 'canceled'].includes(status))) {
				const data = typeof execution.data === 'string' ? flatted.parse(execution.data) : execution.data;
				return { finished: execution.finished as boolean, status, mode: String(execution.mode), data } as N8nRun;
			}
			if (Date.now() - t0 > timeoutMs) fail(`execution ${executionId} still "${status}" after ${seconds(timeoutMs)}`);
			await delay(500);
		}
	};

	return {
		child,
		output,
		base,
		cookie: () => cookie,
		rest,
		async createCredential(credential) {
			return createdId(await rest('POST', '/credentials', credential), 'credential');
		},
		async createWorkflow(workflow) {
			return createdId(await rest('POST', '/workflows', workflow), 'workflow');
		},
		async runFromTrigger(workflowId, trigger, timeoutMs) {
			const t0 = Date.now();
			const workflow = (await rest('GET', `/workflows/${workflowId}`)).data as Record<string, unknown>;
			// 2.8 reads the workflow from `workflowData`; 2.41 reads it from its database and ignores it.
			const answer = (await rest('POST', `/workflows/${workflowId}/run`, {
				workflowData: workflow,
				triggerToStartFrom: { name: trigger },
			})).data as Record<string, unknown> | undefined;
			const executionId = answer?.executionId;
			if (typeof executionId !== 'string' && typeof executionId !== 'number') {
				fail(`n8n did not start a manual execution from "${trigger}": ${JSON.stringify(answer)}`);
			}
			const run = await waitForExecution(String(executionId), timeoutMs);
			return { run, ms: Date.now() - t0, executionId: String(executionId) };
		},
		waitForExecution,
	};
}
