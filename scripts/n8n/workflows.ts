/**
 * What the real-n8n lanes share besides the processes (./processes.ts), the set-up (./setup.ts) and
 * the editor (./editor.ts): the e2e workflows with their checks, the sandbox's counters, the context
 * the checks get, and stopping everything on Ctrl-C. Used by scripts/e2e/run-e2e.ts (single process),
 * scripts/e2e/queue/run-queue.ts (queue mode) and any further lane; its exports are kept stable.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { CheckContext, SandboxStats, WorkflowExpectation } from '../../test/e2e/lib';
import { TOKEN_PATH } from '../../nodes/shared/wire';
import { delay, fail, liveCount, log, seconds, signalAll } from './processes';
import { REPO, sandboxJson } from './setup';

/** The single-process lane's workflows (`<name>.json` + `<name>.expect.ts`), which other lanes rerun. */
export const WORKFLOW_DIR = path.join(REPO, 'test', 'e2e', 'workflows');

/** The credential id the workflow files name; each lane replaces it with the id n8n gives its credential. */
const FILE_CREDENTIAL_ID = 'satTrackCred01';

/** A workflow file's text as a lane creates it: its sandbox URL and its credential's id filled in. */
export function workflowFromFile(text: string, sandboxUrl: string, credentialId: string): Record<string, unknown> {
	return JSON.parse(text.split('{{SANDBOX_URL}}').join(sandboxUrl).split(`"${FILE_CREDENTIAL_ID}"`).join(JSON.stringify(credentialId))) as Record<string, unknown>;
}

/** One e2e workflow file and its checks. */
export interface E2eWorkflow {
	/** The file name without `.json`. */
	name: string;
	/** Absolute path of the `.json`. */
	file: string;
	/** The workflow's fixed `id` (n8n's `execute --id`); every workflow file must have one. */
	id: string;
	/** The node a manual run starts from: the expectation's `run.trigger`, else the Manual Trigger. */
	trigger: string | undefined;
	expectation: WorkflowExpectation;
}

/** The default export of an `.expect.ts` file; throws when it is not an expectation. */
export function requireExpectation<T extends WorkflowExpectation = WorkflowExpectation>(expectFile: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const expectation = (require(expectFile) as { default?: T }).default;
	if (!expectation || typeof expectation.check !== 'function') {
		throw new Error(`${path.basename(expectFile)} must default-export { description, check(run, ctx) }`);
	}
	return expectation;
}

/** Every `<dir>/*.json` with its `<name>.expect.ts`, in file-name order; throws on a missing part. */
export function loadWorkflowFiles(dir = WORKFLOW_DIR): E2eWorkflow[] {
	const files = fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort();
	if (files.length === 0) throw new Error(`no workflows in ${dir}`);
	return files.map((f) => {
		const name = f.replace(/\.json$/, '');
		const file = path.join(dir, f);
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as { id?: unknown; nodes?: Array<{ name: string; type: string }> };
		if (typeof workflow.id !== 'string' || workflow.id === '') throw new Error(`${f}: the workflow needs a fixed "id"`);
		const expectFile = path.join(dir, `${name}.expect.ts`);
		if (!fs.existsSync(expectFile)) throw new Error(`${f}: missing ${name}.expect.ts`);
		const expectation = requireExpectation(expectFile);
		return { name, file, id: workflow.id, trigger: startNode(expectation, workflow.nodes), expectation };
	});
}

/** The node a manual run of the workflow starts from: the expectation's `run.trigger`, else its Manual Trigger. */
export function startNode(expectation: WorkflowExpectation, nodes: Array<{ name: string; type: string }> = []): string | undefined {
	if (expectation.run?.via === 'editor') return expectation.run.trigger;
	return nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name;
}

/** The sandbox's `/__sandbox/stats` (its token-exchange counter and more). */
export async function sandboxStats(sandboxUrl: string): Promise<SandboxStats> {
	const stats = (await sandboxJson(sandboxUrl, '/__sandbox/stats')) as SandboxStats;
	if (!stats || typeof stats.tokenCalls !== 'number') fail(`sandbox /__sandbox/stats has no numeric tokenCalls: ${JSON.stringify(stats)}`);
	return stats;
}

/** One API request in the sandbox's log (`/__sandbox/requests`). */
export interface LoggedRequest {
	path: string;
	route: string | null;
	status: number;
	at: number;
	headers: Record<string, string | undefined>;
}

/** The sandbox's API requests so far, token exchanges left out. */
export async function apiRequests(sandboxUrl: string): Promise<LoggedRequest[]> {
	return ((await sandboxJson(sandboxUrl, '/__sandbox/requests')) as LoggedRequest[]).filter((entry) => entry.path !== TOKEN_PATH);
}

/** A request to the sandbox's control routes (`/__sandbox/...`), its JSON answer. */
export async function sandboxPost(sandboxUrl: string, route: string, body: unknown, method = 'POST'): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandboxUrl}${route}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	const text = await response.text();
	if (!response.ok) fail(`sandbox ${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Waits until the sandbox has seen no API request for `quietMs` (with `atLeastOne`, only once it
 * has seen one since `since`); returns the requests since `since`.
 */
export async function waitForQuiet(
	sandboxUrl: string,
	{ since, quietMs, timeoutMs, atLeastOne }: { since: number; quietMs: number; timeoutMs: number; atLeastOne: boolean },
): Promise<LoggedRequest[]> {
	const t0 = Date.now();
	for (;;) {
		const requests = (await apiRequests(sandboxUrl)).filter((r) => r.at >= since);
		const last = requests.length > 0 ? requests[requests.length - 1].at : atLeastOne ? undefined : since;
		if (last !== undefined && Date.now() - last >= quietMs) return requests;
		if (Date.now() - t0 > timeoutMs) fail(`the sandbox saw ${requests.length} API requests in ${seconds(timeoutMs)} and never a quiet ${seconds(quietMs)}`);
		await delay(250);
	}
}

/** What an expectation's `check` gets, with the sandbox's counters read now. */
export async function checkContext(sandboxUrl: string, n8nVersion: string): Promise<CheckContext> {
	return { sandboxUrl, n8nVersion, stats: await sandboxStats(sandboxUrl), sandboxJson: (route) => sandboxJson(sandboxUrl, route) };
}

/** Ctrl-C (and SIGTERM, SIGHUP): stop every process group started (./processes.ts), then exit 130. */
export function stopAllOnSignals(): void {
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			log(`\n${signal}: stopping ${liveCount()} process group(s)`);
			signalAll('SIGTERM');
			setTimeout(() => process.exit(130), 1_500);
		});
	}
}
