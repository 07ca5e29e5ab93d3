/**
 * Helpers for the real-n8n end-to-end run (scripts/e2e/run-e2e.ts).
 *
 * Each workflow `test/e2e/workflows/<name>.json` has a sibling `<name>.expect.ts` whose default export
 * is a {@link WorkflowExpectation}. The runner imports the workflow into a throw-away n8n, runs it (with
 * `n8n execute --id=<id> --rawOutput`, or from a trigger in a running n8n, see `run`), and hands the
 * run (an IRun) to `check`.
 * `check` throws (use {@link ensure}) when n8n's output is not what users should get.
 *
 * Not a jest suite: nothing here matches `*.test.ts`.
 */

export interface RunItem {
	json: Record<string, unknown>;
	pairedItem?: unknown;
	[key: string]: unknown;
}

/** The parts of n8n's IRun (what `execute --rawOutput` prints) that the checks read. */
export interface N8nRun {
	finished?: boolean;
	status?: string;
	mode?: string;
	data: {
		resultData: {
			error?: unknown;
			lastNodeExecuted?: string;
			runData: Record<
				string,
				Array<{
					error?: unknown;
					executionStatus?: string;
					data?: { main?: Array<RunItem[] | null> };
				}>
			>;
		};
	};
}

export interface SandboxStats {
	tokenCalls: number;
	[key: string]: unknown;
}

export interface CheckContext {
	/** Base URL of the sandbox this lane runs against (also substituted for `{{SANDBOX_URL}}` in workflows). */
	sandboxUrl: string;
	/** n8n version of the lane, e.g. `2.8.4`. */
	n8nVersion: string;
	/** Sandbox `/__sandbox/stats` right after this workflow ran. */
	stats: SandboxStats;
	/** GET a sandbox path (e.g. `/__sandbox/sink`) and parse its JSON. */
	sandboxJson(path: string): Promise<unknown>;
}

export interface WorkflowExpectation {
	/** One line for the report. */
	description: string;
	/**
	 * How the workflow is run (default: in the lane's `n8n start`, from its Manual Trigger):
	 * - `execute`: `n8n execute --id=<id> --rawOutput`, in a process of its own, before the others; the
	 *   workflow starts at a Manual Trigger. The CLI run, and a second n8n process that must reuse the
	 *   token this one stored.
	 * - `editor`: in the lane's running `n8n start`, the way the editor runs it from `trigger` (its
	 *   "Execute workflow" / "Fetch Test Event" button): `POST /rest/workflows/<id>/run` with
	 *   `triggerToStartFrom`, then the saved execution is read back. Needed for polling triggers: n8n
	 *   only calls `poll()` in manual mode, and `n8n execute` runs in `cli` mode and only starts at a
	 *   Manual Trigger.
	 */
	run?: { via: 'execute' } | { via: 'editor'; trigger: string };
	/** Throws when the output is wrong. */
	check(run: N8nRun, ctx: CheckContext): void | Promise<void>;
}

/**
 * An `examples/<name>.json` workflow (what users import), run by the e2e like the test workflows. Its
 * expectation lives in `test/e2e/examples/<name>.expect.ts`. The example files run as users get them:
 * their chat/e-mail nodes post to the sink of the sandbox at its default address
 * (`http://127.0.0.1:8787/__sink/<sink name>`, where it records what arrives: `GET /__sandbox/sink`,
 * see {@link sinkEntries}). At import the runner only:
 * - gives the workflow the `id` below (n8n's `execute --id` needs one; at most 21 characters);
 * - points every Satellite Tracking node at the e2e's sandbox credential, and the sink URLs at the
 *   lane's sandbox, which listens on a port of its own; no other URL may leave the machine.
 */
export interface ExampleExpectation extends WorkflowExpectation {
	id: string;
	/** HTTP Request node name → sink name; the node's URL as shipped is `http://127.0.0.1:8787/__sink/<sink name>`. */
	sinks: Record<string, string>;
}

/** What the sandbox's sink recorded (sandbox/recorder.ts SinkEntry). */
export interface SinkEntry {
	method: string;
	/** The path after `/__sink`, e.g. `/chat`. */
	path: string;
	headers: Record<string, unknown>;
	body: unknown;
}

/** The requests that arrived at `<sandbox>/__sink/<name>`, oldest first. */
export async function sinkEntries(ctx: CheckContext, name: string): Promise<SinkEntry[]> {
	const all = (await ctx.sandboxJson('/__sandbox/sink')) as SinkEntry[];
	ensure(Array.isArray(all), `GET /__sandbox/sink did not answer a list: ${JSON.stringify(all)}`);
	return all.filter((entry) => entry.path === `/${name}`);
}

export class E2eAssertionError extends Error {}

export function ensure(condition: unknown, message: string): asserts condition {
	if (!condition) throw new E2eAssertionError(message);
}

/** Output items (json only) of the first run of `nodeName`, output `output` (default 0). */
export function nodeItems(run: N8nRun, nodeName: string, output = 0): Array<Record<string, unknown>> {
	return nodeRunItems(run, nodeName, output).map((item) => item.json);
}

/** Full output items (json + pairedItem …) of the first run of `nodeName`. */
export function nodeRunItems(run: N8nRun, nodeName: string, output = 0): RunItem[] {
	const runs = run.data?.resultData?.runData?.[nodeName];
	ensure(
		Array.isArray(runs) && runs.length > 0,
		`node "${nodeName}" did not run (nodes that ran: ${Object.keys(run.data?.resultData?.runData ?? {}).join(', ') || 'none'})`,
	);
	const first = runs[0];
	ensure(!first.error, `node "${nodeName}" failed: ${describeError(first.error)}`);
	const items = first.data?.main?.[output];
	ensure(Array.isArray(items), `node "${nodeName}" has no items on output ${output}`);
	return items;
}

export function isFiniteNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

export function describeError(error: unknown): string {
	if (error && typeof error === 'object') {
		const e = error as Record<string, unknown>;
		return [e.message, e.description].filter((x) => typeof x === 'string' && x !== '').join(' — ') || JSON.stringify(e);
	}
	return String(error);
}

/** The run as a whole succeeded (no workflow-level error, every node run without error). */
export function ensureRunSucceeded(run: N8nRun): void {
	const resultData = run.data?.resultData;
	ensure(resultData && typeof resultData === 'object', 'n8n output has no data.resultData');
	ensure(!resultData.error, `workflow error: ${describeError(resultData.error)}`);
	// A crashed or canceled execution may carry no error at all.
	ensure(run.status === undefined || run.status === 'success', `n8n says the run ended "${run.status}"`);
	for (const [name, runs] of Object.entries(resultData.runData ?? {})) {
		for (const r of runs) ensure(!r.error, `node "${name}" failed: ${describeError(r.error)}`);
	}
}
