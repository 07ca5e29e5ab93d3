/**
 * Queue-mode end-to-end lane (`npm run test:e2e:queue`): the packed package in n8n 2.41.1 running as
 * teams scale it out — one main (`n8n start`), Redis as the job queue, PostgreSQL as the shared
 * database, and two `n8n worker` processes — against the sandbox.
 *
 * Everything runs in a throw-away temp folder: Redis and PostgreSQL (scripts/e2e/queue/services.ts),
 * the sandbox, and one N8N_USER_FOLDER per n8n process, each with the package installed as n8n
 * installs community packages. Every process has its own process group and is stopped by its PID,
 * on success, failure or Ctrl-C.
 *
 * Checks, each printed with ✔/✘ (any ✘ makes the exit code 1), run in the order (a)'s first
 * workflow (it makes the token exchange that (b) follows), (c), (a)'s other workflows, the quota
 * measurement, (b), (d) (it kills a worker):
 *  (a) manual runs started on the main (`POST /rest/workflows/<id>/run`, with
 *      OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true) execute on the workers — the worker is read from
 *      its own log ("Worker started execution <id>") — and pass the single-process lane's checks
 *      (test/e2e/workflows/<name>.expect.ts);
 *  (b) one token exchange for the lane's account (the quota measurement has its own): the token a
 *      worker obtained is stored in PostgreSQL (`n8n export:credentials --decrypted` against it) and
 *      every other request of both workers and of the main's polls carries it;
 *  (c) the polling trigger, active on the main, starts executions that run on the workers, and its
 *      state survives a restart of the main: the events equal the sandbox's moves, none lost, none
 *      twice; once deactivated, it polls no more (checked after the quota measurement);
 *  (d) a worker SIGKILLed in the middle of a read-only batch: n8n reports the execution failed (or
 *      retries it), and the write before the batch reaches the sandbox once.
 * And it measures (docs/reliability.md, "Running in queue mode"): both workers running the same workflow against
 * a sandbox quota, with Max Requests per Minute set to each worker's share of it, and without. On a
 * second sandbox, an account of its own: nothing else of the lane takes from its quota, and what the
 * pacer learns from its 429 answers slows no other check.
 *
 * Env: SATELLITE_E2E_CACHE (n8n cache root), E2E_KEEP_TMP=1 (keep the temp folder even on success),
 * E2E_N8N_LOG_LEVEL (default `info`; the worker attribution needs at least `info`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { describeError, ensure, nodeItems } from '../../../test/e2e/lib';
import { E2E_OWNER, startEditor, type Editor } from '../../n8n/editor';
import {
	delay,
	fail,
	freePort,
	log,
	runCommand,
	seconds,
	startLogged,
	stopProcess,
	tail,
	type Started,
} from '../../n8n/processes';
import {
	CREDENTIAL_TYPE,
	ensureLaneInstalled,
	installIntoUserFolder,
	laneConfig,
	n8nBinary,
	n8nEnv,
	packageLoadProblems,
	packPackage,
	REPO,
	sandboxCredentialData,
	sandboxJson,
	startSandbox,
	WITHOUT_EDITOR_UI,
	type Packed,
	type Sandbox,
} from '../../n8n/setup';
import {
	apiRequests,
	checkContext,
	loadWorkflowFiles,
	sandboxPost,
	sandboxStats,
	stopAllOnSignals,
	workflowFromFile,
	type E2eWorkflow,
} from '../../n8n/workflows';
import { queueModeEnv, startServices, type Services } from './services';

const LANE = laneConfig('2.41');
const QUEUE_WORKFLOW_DIR = path.join(REPO, 'test', 'e2e', 'queue');
const WORKER_NAMES = ['worker-1', 'worker-2'] as const;
const TRIGGER = 'Satellite Tracking Trigger';
const COUNT_NODE = 'Count notifications';
/**
 * The trigger polls at these seconds of every minute (minute-granular poll times, as a user may
 * set them): the polls the checks wait for come every 20 s rather than every minute.
 */
const TRIGGER_POLL_SECONDS = 20;

/**
 * The account quota of the measurement, and each worker's share of it. Small enough that one
 * 60-second window is all it takes: each run makes 25 requests (one device listing, one alerts
 * call per device of the sandbox's 24), so the two runs together need 50 against a quota of 30.
 */
const QUOTA_PER_MINUTE = 30;
const PER_WORKER_SHARE = QUOTA_PER_MINUTE / WORKER_NAMES.length;
const QUOTA_RUN_TIMEOUT_MS = 240_000;

/**
 * Bull's lock on a running job (n8n's defaults: held 60 s, checked every 30 s). Shorter here so a
 * killed worker's job is found stalled within seconds rather than a minute; long enough that a busy
 * worker on this shared machine renews it in time.
 */
const QUEUE_LOCK_ENV = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};
/** Sandbox answer delay while the batch to be killed runs, so it is still under way when the kill lands. */
const SLOW_BATCH_LATENCY_MS = 600;

// Ctrl-C: stop every process group started (n8n, sandbox, PostgreSQL, Redis), then exit.
stopAllOnSignals();

// ---------------------------------------------------------------------------------------------------
// Reporting

const failures: string[] = [];
const timings: Array<{ name: string; ms: number }> = [];

function pass(label: string, detail: string): void {
	log(`  ✔ ${label}: ${detail}`);
}

function failed(label: string, message: string): void {
	failures.push(`${label}: ${message.split('\n')[0]}`);
	log(`  ✘ ${label}: ${message.split('\n').join('\n      ')}`);
}

/** Runs one check; an exception fails it (and is reported) without stopping the lane. */
async function check(label: string, body: () => Promise<string>): Promise<void> {
	try {
		pass(label, await body());
	} catch (error) {
		failed(label, error instanceof Error ? error.message : String(error));
	}
}

async function step<T>(name: string, body: () => Promise<T>): Promise<T> {
	const t0 = Date.now();
	log(`\n--- ${name}`);
	try {
		return await body();
	} finally {
		const ms = Date.now() - t0;
		timings.push({ name, ms });
		log(`--- ${name}: ${seconds(ms)}`);
	}
}

// ---------------------------------------------------------------------------------------------------
// The cluster: main + two workers, sharing PostgreSQL and Redis

interface Worker extends Started {
	name: string;
}

interface Cluster {
	main: Editor;
	workers: Worker[];
	credentialId: string;
	/** Stops the main, runs `whileStopped`, and starts the main again on the same database (log in only, no owner set-up). */
	restartMain(whileStopped?: () => Promise<void>): Promise<void>;
	/** Names of the workers whose log says they started this execution. */
	workersOf(executionId: string): string[];
	/** Every n8n output so far (main, every main restart, workers). */
	outputs(): string[];
	stop(): Promise<void>;
}

interface Ports {
	n8n: number;
	broker: number;
}

/** Starts `n8n worker` (added to `workers` at once, so it is stopped whatever happens) and waits until it is ready. */
async function startWorker(workers: Worker[], name: string, env: NodeJS.ProcessEnv, cwd: string, logFile: string, healthPort: number): Promise<void> {
	// Concurrency 1: two runs started together go to two different workers, so both are seen working.
	const worker = { ...startLogged(LANE.node, [n8nBinary(LANE), 'worker', '--concurrency=1'], { env, cwd, logFile }), name };
	workers.push(worker);
	const t0 = Date.now();
	for (;;) {
		const { exitCode, signalCode } = worker.child;
		if (exitCode !== null || signalCode !== null) fail(`${name} exited (code ${exitCode}, signal ${signalCode}) before it was ready\n${tail(worker.output())}`);
		if (worker.output().includes('n8n worker is now ready')) {
			const health = await fetch(`http://127.0.0.1:${healthPort}/healthz/readiness`).catch(() => undefined);
			if (health?.ok) break;
		}
		if (Date.now() - t0 > 180_000) fail(`${name} not ready within 180 s\n${tail(worker.output())}`);
		await delay(300);
	}
	log(`  ${name} ready in ${seconds(Date.now() - t0)} (pid ${worker.child.pid}, health port ${healthPort})`);
}

async function startCluster(packed: Packed, services: Services, sandbox: Sandbox, tmpDir: string, logDir: string): Promise<Cluster> {
	const queueEnv = { ...queueModeEnv(services), ...QUEUE_LOCK_ENV, ...WITHOUT_EDITOR_UI };
	const processEnv = async (name: string, extra: NodeJS.ProcessEnv) => {
		const userFolder = path.join(tmpDir, name);
		installIntoUserFolder(packed, userFolder);
		const ports: Ports = { n8n: await freePort(), broker: await freePort() };
		return n8nEnv(LANE, userFolder, ports, { ...queueEnv, ...extra });
	};

	// Manual runs (the editor's button, POST /rest/workflows/<id>/run) go to the workers too.
	const mainEnv = await processEnv('main', { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' });
	const mainPort = Number(mainEnv.N8N_PORT);
	let mainStarts = 0;
	const mainOutputs: Array<() => string> = [];
	const workers: Worker[] = [];
	let main: Editor | undefined;

	const launchMain = async (setUpOwner: boolean) => {
		mainStarts += 1;
		const logFile = path.join(logDir, `main-${mainStarts}.log`);
		const editor = await startEditor(LANE, mainEnv, tmpDir, mainPort, logFile, E2E_OWNER, setUpOwner);
		mainOutputs.push(editor.output);
		return editor;
	};
	// All at once: each may take its graceful-shutdown time, and nothing depends on the order.
	const stop = async () => {
		await Promise.all([
			...(main ? [stopProcess(main.child, 'n8n main', 20_000)] : []),
			...workers.map((worker) => stopProcess(worker.child, worker.name, 20_000)),
		]);
	};

	try {
		// All three at once: n8n takes a lock in the database before migrating, so only one of them
		// creates the schema and the others wait for it.
		const workerEnvs = await Promise.all(
			WORKER_NAMES.map(async (name) => {
				const healthPort = await freePort();
				const env = await processEnv(name, {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(healthPort),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				});
				return { name, env, healthPort };
			}),
		);
		const starts = await Promise.allSettled([
			launchMain(true).then((editor) => void (main = editor)),
			...workerEnvs.map(({ name, env, healthPort }) => startWorker(workers, name, env, tmpDir, path.join(logDir, `${name}.log`), healthPort)),
		]);
		for (const start of starts) if (start.status === 'rejected') throw start.reason;
		if (!main) fail('n8n main did not start');
		const credentialId = await main.createCredential({ name: 'Sandbox', type: CREDENTIAL_TYPE, data: sandboxCredentialData(sandbox.url) });
		const cluster: Cluster = {
			get main() {
				return main!;
			},
			workers,
			credentialId,
			async restartMain(whileStopped) {
				await stopProcess(main!.child, 'n8n main', 30_000);
				await whileStopped?.();
				main = await launchMain(false);
			},
			workersOf: (executionId) =>
				workers.filter((worker) => worker.output().includes(`Worker started execution ${executionId} (job`)).map((worker) => worker.name),
			outputs: () => [...mainOutputs.map((output) => output()), ...workers.map((worker) => worker.output())],
			stop,
		};
		return cluster;
	} catch (error) {
		await stop();
		throw error;
	}
}

// ---------------------------------------------------------------------------------------------------
// Workflows

interface WorkflowFile {
	name: string;
	json: Record<string, unknown> & { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
}

function readWorkflow(file: string, sandboxUrl: string, credentialId: string): WorkflowFile['json'] {
	const { id: _fixedId, pinData: _pinData, active: _active, ...workflow } = workflowFromFile(fs.readFileSync(file, 'utf8'), sandboxUrl, credentialId);
	return workflow as WorkflowFile['json'];
}

/** The single-process lane's workflows, each with the trigger it starts from and its checks. */
function singleProcessCases(): Array<E2eWorkflow & { trigger: string }> {
	return loadWorkflowFiles().map((c) => {
		if (!c.trigger) throw new Error(`${path.basename(c.file)}: no Manual Trigger to start it from`);
		return { ...c, trigger: c.trigger };
	});
}

// ---------------------------------------------------------------------------------------------------
// Sandbox ground truth

/** Most requests the sandbox admitted in any 60-second window. */
function busiestMinute(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let start = 0, end = 0; end < sorted.length; end++) {
		while (sorted[end] - sorted[start] >= 60_000) start++;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

// ---------------------------------------------------------------------------------------------------
// The checks

interface Context {
	cluster: Cluster;
	sandbox: Sandbox;
	/** The quota measurement's account: its own sandbox, and a credential for it. */
	quotaAccount: { sandbox: Sandbox; credentialId: string };
	services: Services;
	tmpDir: string;
	logDir: string;
	mainEnvForCli: NodeJS.ProcessEnv;
}

async function createWorkflow(
	cluster: Cluster,
	sandboxUrl: string,
	file: string,
	edit?: (workflow: WorkflowFile['json']) => void,
	credentialId = cluster.credentialId,
): Promise<string> {
	const workflow = readWorkflow(file, sandboxUrl, credentialId);
	edit?.(workflow);
	return await cluster.main.createWorkflow(workflow);
}

/**
 * (a) manual runs from the main execute on the workers and pass the single-process lane's checks.
 * In two parts: the first workflow alone, before anything else reaches the sandbox (a worker makes
 * the account's one token exchange, which (b) follows into PostgreSQL), and the others later.
 */
async function workflowsOnWorkers({ cluster, sandbox }: Context): Promise<{ first(): Promise<void>; others(): Promise<void> }> {
	const [firstCase, ...otherCases] = singleProcessCases();
	const ids = new Map<string, string>();
	for (const c of [firstCase, ...otherCases]) ids.set(c.name, await createWorkflow(cluster, sandbox.url, c.file));
	const ran = new Set<string>();

	const runCase = async (c: typeof firstCase) => {
		const label = `(a) ${c.name}`;
		const t0 = Date.now();
		let executionId = '?';
		await check(label, async () => {
			const result = await cluster.main.runFromTrigger(ids.get(c.name)!, c.trigger);
			executionId = result.executionId;
			const workers = cluster.workersOf(executionId);
			ensure(workers.length === 1, `execution ${executionId} should have run on exactly one worker, ran on [${workers.join(', ')}]`);
			ensure(cluster.main.output().includes(`Enqueued execution ${executionId} `), `the main did not log enqueuing execution ${executionId}`);
			await c.expectation.check(result.run, await checkContext(sandbox.url, LANE.n8nVersion));
			ran.add(workers[0]);
			return `execution ${executionId} enqueued by the main, ran on ${workers[0]} (${seconds(Date.now() - t0)}); single-process lane's checks pass — ${c.expectation.description}`;
		});
	};

	return {
		async first() {
			await runCase(firstCase);
			log(`    token exchanges after the first workflow: ${(await sandboxStats(sandbox.url)).tokenCalls}`);
		},
		async others() {
			// All enqueued at once: each worker takes one at a time (--concurrency=1).
			await Promise.all(otherCases.map(runCase));
			await check('(a) both workers executed', async () => {
				ensure(ran.size === WORKER_NAMES.length, `only [${[...ran].join(', ')}] ran executions`);
				return `executions ran on ${[...ran].sort().join(' and ')}; none on the main`;
			});
		},
	};
}

interface TriggerEvent {
	deviceId: string;
	eventId?: string;
	location?: { dateTime?: string };
}

interface TriggerExecution {
	id: string;
	workers: string[];
	events: TriggerEvent[];
}

/** The trigger workflow's executions so far, each with its events and the worker that ran it. */
async function triggerExecutions(cluster: Cluster, workflowId: string): Promise<TriggerExecution[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = (await cluster.main.rest('GET', `/executions?filter=${filter}&limit=100`)).data as { results?: Array<{ id: string; status: string }> };
	const list = answer.results ?? [];
	const result: TriggerExecution[] = [];
	for (const { id, status } of list) {
		ensure(status !== 'error' && status !== 'crashed', `trigger execution ${id} ended "${status}"`);
		if (status !== 'success') continue;
		const run = await cluster.main.waitForExecution(id);
		result.push({ id, workers: cluster.workersOf(id), events: nodeItems(run, TRIGGER) as unknown as TriggerEvent[] });
	}
	return result.sort((a, b) => Number(a.id) - Number(b.id));
}

async function waitForEvents(cluster: Cluster, workflowId: string, expected: number, timeoutMs: number): Promise<TriggerExecution[]> {
	const t0 = Date.now();
	for (;;) {
		const executions = await triggerExecutions(cluster, workflowId);
		const count = executions.reduce((sum, e) => sum + e.events.length, 0);
		if (count >= expected) return executions;
		if (Date.now() - t0 > timeoutMs) return executions;
		await delay(1_000);
	}
}

/**
 * The number of devices in the trigger's static data as PostgreSQL holds it (where every main reads
 * it from), once there is some; fails after `timeoutMs`.
 */
async function waitForTriggerState(services: Services, workflowId: string, timeoutMs: number): Promise<number> {
	const t0 = Date.now();
	for (;;) {
		const text = await services.sql(`SELECT "staticData"::text FROM workflow_entity WHERE id = '${workflowId.replace(/'/g, "''")}'`);
		const staticData = (text === '' ? {} : JSON.parse(text)) as Record<string, { state?: { devices?: Record<string, unknown> } }>;
		const devices = Object.keys(staticData[`node:${TRIGGER}`]?.state?.devices ?? {}).length;
		if (devices > 0) return devices;
		if (Date.now() - t0 >= timeoutMs) fail(`no trigger state in PostgreSQL after ${seconds(Date.now() - t0)}: ${text.slice(0, 200) || '(null)'}`);
		await delay(500);
	}
}

const eventKey = (event: TriggerEvent) => `${event.deviceId}@${event.location?.dateTime ?? '?'}`;

/** (c) the trigger on the main: executions on workers, state kept across a restart of the main. */
async function checkTriggerAcrossRestart(ctx: Context): Promise<{ mainPollRequests: number; deactivatedAt: number }> {
	const { cluster, sandbox } = ctx;
	const workflowId = await createWorkflow(cluster, sandbox.url, path.join(QUEUE_WORKFLOW_DIR, 'trigger-location-updates.json'), (workflow) => {
		const trigger = workflow.nodes.find((n) => n.name === TRIGGER)!;
		trigger.parameters.pollTimes = { item: Array.from({ length: 60 / TRIGGER_POLL_SECONDS }, (_, i) => ({ mode: 'custom', cronExpression: `${i * TRIGGER_POLL_SECONDS} * * * * *` })) };
	});
	const versionId = ((await cluster.main.rest('GET', `/workflows/${workflowId}`)).data as { versionId: string }).versionId;
	const moves: Array<Record<string, number>> = [];
	let mainPollRequests = 0;
	const countMainPolls = async (from: number, to: number) => {
		mainPollRequests += (await apiRequests(sandbox.url)).filter((r) => r.at >= from && r.at <= to).length;
	};

	await check('(c) activation on the main', async () => {
		const t0 = Date.now();
		await cluster.main.rest('POST', `/workflows/${workflowId}/activate`, { versionId });
		// n8n 2.41 activates through its publication outbox (polled every 15 s): the first poll runs
		// some seconds after the answer. It is done when its baseline is in the database.
		const devices = await waitForTriggerState(ctx.services, workflowId, 90_000);
		await countMainPolls(t0, Date.now());
		const executions = await triggerExecutions(cluster, workflowId);
		ensure(executions.length === 0, `the first poll should only record the baseline, yet started ${executions.length} execution(s)`);
		return `the first poll (${seconds(Date.now() - t0)} after the activate call) saved its baseline of ${devices} devices in PostgreSQL and started nothing`;
	});

	const move = async (label: string) => {
		const answer = await sandboxPost(sandbox.url, '/__sandbox/move', { minutes: 10 });
		const moved = answer.moved as Record<string, number>;
		moves.push(moved);
		const total = Object.values(moved).reduce((a, b) => a + b, 0);
		log(`    sandbox move ${label}: ${total} new fixes over ${Object.keys(moved).length} devices`);
		return total;
	};
	const expectedTotal = () => moves.flatMap((m) => Object.values(m)).reduce((a, b) => a + b, 0);

	await check('(c) scheduled poll on the main → execution on a worker', async () => {
		await move('A');
		const t0 = Date.now();
		const executions = await waitForEvents(cluster, workflowId, expectedTotal(), 90_000);
		const count = executions.reduce((sum, e) => sum + e.events.length, 0);
		ensure(count === expectedTotal(), `expected ${expectedTotal()} events from move A within 90 s, got ${count}`);
		for (const e of executions) ensure(e.workers.length === 1, `trigger execution ${e.id} ran on [${e.workers.join(', ')}]`);
		return `the scheduled poll (every ${TRIGGER_POLL_SECONDS} s) reported all ${count} fixes after ${seconds(Date.now() - t0)} in execution(s) ${executions.map((e) => `${e.id} on ${e.workers[0]}`).join(', ')}`;
	});

	await check('(c) restart of the main between polls', async () => {
		const before = (await triggerExecutions(cluster, workflowId)).length;
		const t0 = Date.now();
		// Move B while the main is down: only the restarted main can find it, from the state it
		// reads back from PostgreSQL.
		await cluster.restartMain(async () => {
			const devicesKept = await waitForTriggerState(ctx.services, workflowId, 0);
			log(`    the trigger's state in PostgreSQL with the main stopped: ${devicesKept} devices`);
			await move('B (main stopped)');
		});
		// On start the main re-activates the trigger, which polls at once.
		await countMainPolls(t0, Date.now());
		const executions = await waitForEvents(cluster, workflowId, expectedTotal(), 90_000);
		const all = executions.flatMap((e) => e.events);
		const keys = all.map(eventKey);
		const duplicates = keys.filter((key, i) => keys.indexOf(key) !== i);
		ensure(duplicates.length === 0, `${duplicates.length} event(s) reported twice, e.g. ${duplicates.slice(0, 3).join(', ')}`);
		// What downstream deduplication keys on: present on every item, one per event.
		const eventIds = new Set(all.map((event) => event.eventId));
		ensure(all.every((event) => typeof event.eventId === 'string' && event.eventId !== ''), 'a trigger item has no eventId');
		ensure(eventIds.size === all.length, `${all.length} events carry only ${eventIds.size} distinct eventIds`);
		const perDevice = new Map<string, number>();
		for (const event of all) perDevice.set(event.deviceId, (perDevice.get(event.deviceId) ?? 0) + 1);
		const movedPerDevice = new Map<string, number>();
		for (const m of moves) for (const [id, n] of Object.entries(m)) movedPerDevice.set(id, (movedPerDevice.get(id) ?? 0) + n);
		const wrong = [...movedPerDevice].filter(([id, n]) => perDevice.get(id) !== n).map(([id, n]) => `${id}: moved ${n}, reported ${perDevice.get(id) ?? 0}`);
		const unexpected = [...perDevice.keys()].filter((id) => !movedPerDevice.has(id));
		ensure(wrong.length === 0 && unexpected.length === 0, `events differ from the moves: ${[...wrong, ...unexpected.map((id) => `${id}: reported but never moved`)].slice(0, 5).join('; ')}`);
		const after = executions.slice(before);
		ensure(after.length >= 1, 'no execution after the restart');
		for (const e of after) ensure(e.workers.length === 1, `trigger execution ${e.id} ran on [${e.workers.join(', ')}]`);
		return (
			`after the restart (${seconds(Date.now() - t0)}) the first poll reported move B's fixes in execution(s) ${after.map((e) => `${e.id} on ${e.workers[0]}`).join(', ')}; ` +
			`over both moves ${all.length} events = ${expectedTotal()} fixes moved, per device equal, none twice, ${eventIds.size} distinct eventIds`
		);
	});

	const deactivatedAt = Date.now();
	await cluster.main.rest('POST', `/workflows/${workflowId}/deactivate`, {});
	return { mainPollRequests, deactivatedAt };
}

/**
 * Deactivation reaches the trigger through n8n's publication outbox: drained at once on a single
 * main, polled every 15 s as a fallback. A poll under way may still finish. Generous: a late poll
 * fails the check, a slow deactivation must not.
 */
const DEACTIVATION_GRACE_MS = 15_000 + TRIGGER_POLL_SECONDS * 1000 + 5_000;

/**
 * (c) after the quota measurement, long after the deactivation: no poll since. Counted from the
 * grace's end or from when (a)'s other workflows ended, whichever is later: theirs are the only
 * other requests the lane's sandbox gets meanwhile.
 */
async function checkTriggerStopped({ sandbox }: Context, deactivatedAt: number, othersEndedAt: number): Promise<void> {
	await check('(c) deactivation stops the polls', async () => {
		const from = Math.max(deactivatedAt + DEACTIVATION_GRACE_MS, othersEndedAt);
		const watched = Date.now() - from;
		ensure(watched > 2 * TRIGGER_POLL_SECONDS * 1000, `only ${seconds(watched)} watched: too short to tell`);
		const late = (await apiRequests(sandbox.url)).filter((r) => r.at > from);
		ensure(late.length === 0, `${late.length} request(s) reached the sandbox ${seconds(from - deactivatedAt)} or more after the deactivation, e.g. ${late[0]?.route}`);
		return `no request reached the sandbox from ${seconds(from - deactivatedAt)} after the deactivation to now, ${seconds(Date.now() - deactivatedAt)} after it`;
	});
}

/**
 * (b) what PostgreSQL holds: the credential, decrypted by n8n's own CLI from the shared database,
 * carries the token the sandbox issued (compared, never printed).
 */
async function tokenInDatabase(ctx: Context): Promise<string> {
	const file = path.join(ctx.tmpDir, 'credentials-export.json');
	const r = await runCommand(LANE.node, [n8nBinary(LANE), 'export:credentials', '--decrypted', `--id=${ctx.cluster.credentialId}`, `--output=${file}`], {
		env: ctx.mainEnvForCli,
		cwd: ctx.tmpDir,
		logFile: path.join(ctx.logDir, 'export-credentials.log'),
	});
	if (r.code !== 0) fail(`n8n export:credentials failed (exit ${r.code})\n${tail(r.stdout + r.stderr, 10)}`);
	const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ data: { token?: string } }>;
	fs.rmSync(file);
	return exported[0]?.data?.token ?? '';
}

async function checkOneToken(ctx: Context, storedToken: string, mainPollRequests: number): Promise<void> {
	const { sandbox } = ctx;
	await check('(b) one token exchange for the account', async () => {
		const tokens = (await sandboxJson(sandbox.url, '/__sandbox/tokens')) as string[];
		const { tokenCalls } = await sandboxStats(sandbox.url);
		ensure(tokenCalls === 1 && tokens.length === 1, `the sandbox counted ${tokenCalls} token exchange(s), issued ${tokens.length} token(s)`);
		ensure(storedToken === tokens[0], 'the credential in PostgreSQL does not hold the token the sandbox issued');
		const requests = await apiRequests(sandbox.url);
		const other = requests.filter((r) => r.headers.authorization !== `Bearer ${tokens[0]}`);
		ensure(other.length === 0, `${other.length} of ${requests.length} API requests did not carry the stored token (e.g. ${other[0]?.route})`);
		ensure(mainPollRequests > 0, 'the main made no requests of its own (trigger polls)');
		return (
			`tokenCalls 1; the credential in PostgreSQL (n8n export:credentials --decrypted from the shared database) holds the token the sandbox issued; ` +
			`all ${requests.length} API requests so far carried it — both workers' executions and ${mainPollRequests} from the main's trigger polls`
		);
	});
}

interface QuotaResult {
	label: string;
	cap: number;
	wallMs: number;
	admitted: number;
	refused: number;
	busiestMinute: number;
	items: number;
	workers: string[];
}

/** Item 3: both workers run the same workflow at once against the quota account's sandbox. */
async function measureQuota({ cluster, quotaAccount }: Context, cap: number): Promise<QuotaResult> {
	const { sandbox } = quotaAccount;
	const label = cap > 0 ? `Max Requests per Minute ${cap} on each worker` : 'no Max Requests per Minute';
	const edit = (workflow: WorkflowFile['json']) => {
		const node = workflow.nodes.find((n) => n.name === COUNT_NODE)!;
		node.parameters.requestSettings = cap > 0 ? { requestsPerMinute: cap } : {};
	};
	const workflowId = await createWorkflow(cluster, sandbox.url, path.join(QUEUE_WORKFLOW_DIR, 'notification-counters.json'), edit, quotaAccount.credentialId);
	// Setting the rate limit empties the sandbox's window: each measurement starts with the full quota.
	await sandboxPost(sandbox.url, '/__sandbox/options', { rateLimit: { requests: QUOTA_PER_MINUTE, windowMs: 60_000 } });
	const t0 = Date.now();
	const runs = await Promise.all(WORKER_NAMES.map(() => cluster.main.runFromTrigger(workflowId, 'Start', QUOTA_RUN_TIMEOUT_MS)));
	const wallMs = Date.now() - t0;
	await sandboxPost(sandbox.url, '/__sandbox/options', { rateLimit: null });
	const requests = (await apiRequests(sandbox.url)).filter((r) => r.at >= t0);
	const admitted = requests.filter((r) => r.status !== 429);
	let items = 0;
	for (const { run, executionId } of runs) {
		ensure(run.status === 'success', `execution ${executionId} ended "${run.status}": ${describeError(run.data?.resultData?.error)}`);
		const counted = nodeItems(run, COUNT_NODE);
		ensure(counted.every((item) => typeof item.deviceId === 'string' && typeof item.emailsToday === 'number'), `execution ${executionId}: an item has no counters`);
		items += counted.length;
	}
	return {
		label,
		cap,
		wallMs,
		admitted: admitted.length,
		refused: requests.length - admitted.length,
		busiestMinute: busiestMinute(admitted.map((r) => r.at)),
		items,
		workers: runs.map((r) => cluster.workersOf(r.executionId).join('+') || '?'),
	};
}

/** One setting of the quota measurement, checked; its result joins `results` for the table. */
async function checkQuota(ctx: Context, cap: number, results: QuotaResult[]): Promise<void> {
	await check(`(quota) ${cap > 0 ? `Max Requests per Minute ${cap} per worker` : 'no Max Requests per Minute'}`, async () => {
		const r = await measureQuota(ctx, cap);
		results.push(r);
		ensure(new Set(r.workers).size === WORKER_NAMES.length, `the two runs should run on the two workers, ran on [${r.workers.join(', ')}]`);
		ensure(r.busiestMinute <= QUOTA_PER_MINUTE, `the sandbox admitted ${r.busiestMinute} requests in one minute, over its quota ${QUOTA_PER_MINUTE}`);
		if (cap > 0) ensure(r.refused === 0, `${r.refused} requests drew a 429 although each worker kept to its share`);
		return `quota ${QUOTA_PER_MINUTE}/min, runs on ${r.workers.join(' and ')}: ${r.items} items (none lost) in ${seconds(r.wallMs)}; ${r.admitted} requests admitted, ${r.refused} × 429 absorbed; busiest minute ${r.busiestMinute}`;
	});
}

function logQuotaTable(results: QuotaResult[]): void {
	if (results.length === 0) return;
	log(`\n    quota ${QUOTA_PER_MINUTE}/min, two workers, one run of ${COUNT_NODE} (all devices) each:`);
	log('    | setting | items | wall time | 429 answers | busiest minute |');
	for (const r of results) log(`    | ${r.label} | ${r.items} | ${seconds(r.wallMs)} | ${r.refused} | ${r.busiestMinute} |`);
}

/** (d) SIGKILL the worker running a read-only batch: n8n fails (or retries) it; the write stays single. */
async function checkWorkerKilled({ cluster, sandbox }: Context): Promise<void> {
	await check('(d) worker killed mid-batch', async () => {
		const workflowId = await createWorkflow(cluster, sandbox.url, path.join(QUEUE_WORKFLOW_DIR, 'write-then-read-batch.json'));
		const groupName = 'Queue lane: written once before the batch';
		const writesOfGroup = async () =>
			((await sandboxJson(sandbox.url, '/__sandbox/writes')) as Array<{ kind: string; resource: string; body: { name?: string } }>).filter(
				(w) => w.kind === 'create' && w.resource === 'group' && w.body?.name === groupName,
			).length;
		ensure((await writesOfGroup()) === 0, 'the group existed before the run');
		await sandboxPost(sandbox.url, '/__sandbox/options', { latencyMs: SLOW_BATCH_LATENCY_MS });
		try {
			const t0 = Date.now();
			const answer = (await cluster.main.rest('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom: { name: 'Start' } })).data as { executionId?: string };
			const executionId = String(answer.executionId);
			// Wait until the worker is inside the batch: the write done and a few reads answered.
			let worker: Worker | undefined;
			let readsAtKill = 0;
			for (;;) {
				worker = cluster.workers.find((w) => cluster.workersOf(executionId).includes(w.name));
				readsAtKill = (await apiRequests(sandbox.url)).filter((r) => r.at >= t0 && r.route?.endsWith('/alerts')).length;
				if (worker && readsAtKill >= 4) break;
				if (Date.now() - t0 > 60_000) fail(`execution ${executionId} did not reach the batch within 60 s (worker ${worker?.name ?? 'none'}, ${readsAtKill} reads)`);
				await delay(100);
			}
			process.kill(-worker.child.pid!, 'SIGKILL');
			const killedAt = Date.now();
			log(`    SIGKILL to ${worker.name} (pid ${worker.child.pid}) during execution ${executionId}, after ${readsAtKill} of the batch's 25 reads`);
			const run = await cluster.main.waitForExecution(executionId, 120_000);
			const survivor = cluster.workers.find((w) => w !== worker)!;
			const rerun = survivor.output().includes(`Worker started execution ${executionId} (job`);
			const writes = await writesOfGroup();
			ensure(writes === 1, `the group was created ${writes} times`);
			ensure(
				run.status === 'error' || run.status === 'crashed' || (rerun && run.status === 'success'),
				`execution ${executionId} ended "${run.status}"${rerun ? ` after a retry on ${survivor.name}` : ''}`,
			);
			const readsAfter = (await apiRequests(sandbox.url)).filter((r) => r.at > killedAt && r.route?.endsWith('/alerts')).length;
			const reason = describeError(run.data?.resultData?.error);
			return (
				`n8n reported execution ${executionId} "${run.status}" ${seconds(Date.now() - killedAt)} after the kill` +
				`${rerun ? ` (re-run on ${survivor.name})` : ', not re-run'}${reason ? ` — "${reason.slice(0, 120)}"` : ''}; ` +
				`the write before the batch reached the sandbox once; ${readsAfter} reads after the kill`
			);
		} finally {
			await sandboxPost(sandbox.url, '/__sandbox/options', { latencyMs: 0 });
		}
	});
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const started = Date.now();
	const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'satellite-queue-'));
	const logDir = path.join(tmpDir, 'logs');
	fs.mkdirSync(logDir);
	log(`queue lane: n8n ${LANE.n8nVersion}, main + ${WORKER_NAMES.length} workers, Redis, PostgreSQL; temp ${tmpDir}`);

	let services: Services | undefined;
	const sandboxes: Sandbox[] = [];
	let cluster: Cluster | undefined;
	try {
		ensureLaneInstalled(LANE);
		services = await step('Redis + PostgreSQL (throw-away, loopback)', async () => {
			const s = await startServices(tmpDir, logDir);
			log(`  redis-server on 127.0.0.1:${s.redisPort}; postgres on 127.0.0.1:${s.pgPort} (data in ${tmpDir})`);
			return s;
		});
		const packed = packPackage(tmpDir);
		for (const name of ['sandbox', 'quota sandbox']) {
			const started = await startSandbox(await freePort(), path.join(logDir, `${name.replace(' ', '-')}.log`));
			sandboxes.push(started);
			log(`  ${name} ${started.url} (pid ${started.child.pid})`);
		}
		const [sandbox, quotaSandbox] = sandboxes;
		const servicesNow = services;
		cluster = await step('n8n main + 2 workers (EXECUTIONS_MODE=queue)', async () => await startCluster(packed, servicesNow, sandbox, tmpDir, logDir));
		const quotaCredential = { name: 'Quota sandbox', type: CREDENTIAL_TYPE, data: sandboxCredentialData(quotaSandbox.url) };
		const ctx: Context = {
			cluster,
			sandbox,
			quotaAccount: { sandbox: quotaSandbox, credentialId: await cluster.main.createCredential(quotaCredential) },
			services,
			tmpDir,
			logDir,
			mainEnvForCli: n8nEnv(LANE, path.join(tmpDir, 'main'), { n8n: await freePort(), broker: await freePort() }, queueModeEnv(services)),
		};
		for (const { url } of sandboxes) ensure((await sandboxStats(url)).tokenCalls === 0, `the sandbox at ${url} counted token exchanges before any workflow ran`);

		const onWorkers = await workflowsOnWorkers(ctx);
		await step("(a) the first workflow, alone: a worker makes the account's one token exchange", onWorkers.first);
		const { mainPollRequests, deactivatedAt } = await step('(c) trigger on the main, restart of the main between polls', async () => await checkTriggerAcrossRestart(ctx));
		// After the restart of the main: (b) then also covers the workers' requests since.
		await step('(a) the other workflows, started on the main, run on the workers', onWorkers.others);
		const othersEndedAt = Date.now();
		// (b)'s look into PostgreSQL needs an n8n CLI process of its own: beside the quota measurement,
		// which mostly waits.
		let storedToken = '';
		const tokenCheck = tokenInDatabase(ctx).then(
			(token) => void (storedToken = token),
			(error: unknown) => failed('(b) token in PostgreSQL', error instanceof Error ? error.message : String(error)),
		);
		// The capped runs first: the rate a worker learns from the uncapped runs' 429 answers would slow
		// them.
		const quota: QuotaResult[] = [];
		await step(`(quota) capped, two workers against a quota of ${QUOTA_PER_MINUTE}/min`, async () => await checkQuota(ctx, PER_WORKER_SHARE, quota));
		await step(`(quota) uncapped, two workers against a quota of ${QUOTA_PER_MINUTE}/min`, async () => await checkQuota(ctx, 0, quota));
		logQuotaTable(quota);
		await tokenCheck;
		await step('(c) the trigger deactivated', async () => await checkTriggerStopped(ctx, deactivatedAt, othersEndedAt));
		await step('(b) one token exchange, stored in PostgreSQL, shared by all', async () => await checkOneToken(ctx, storedToken, mainPollRequests));
		await step('(d) a worker killed mid-batch', async () => await checkWorkerKilled(ctx));

		const problems = new Set(cluster.outputs().flatMap((output) => packageLoadProblems(output).map((line) => line.trim())));
		if (problems.size > 0) failed('package load', `n8n logged ${problems.size} warning/error line(s) about the package:\n${[...problems].join('\n')}`);
	} catch (error) {
		failed('lane aborted', error instanceof Error ? (error.stack ?? error.message) : String(error));
	} finally {
		await step('stop n8n, sandbox, PostgreSQL, Redis', async () => {
			// n8n first (it still talks to PostgreSQL and Redis), then the rest at once.
			if (cluster) await cluster.stop();
			await Promise.all([...sandboxes.map((sandbox) => stopProcess(sandbox.child, `sandbox ${sandbox.url}`)), services?.stop()]);
		});
	}

	log('\n=== queue lane summary ===');
	for (const t of timings) log(`  ${seconds(t.ms).padStart(8)}  ${t.name}`);
	for (const f of failures) log(`  ✘ ${f}`);
	const passed = failures.length === 0;
	const keep = process.env.E2E_KEEP_TMP === '1' || !passed;
	if (!keep) fs.rmSync(tmpDir, { recursive: true, force: true });
	log(`queue lane ${passed ? 'PASSED' : 'FAILED'} in ${seconds(Date.now() - started)}${keep ? ` (logs kept in ${logDir})` : ''}`);
	return passed ? 0 : 1;
}

main().then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		log(`queue lane crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
		process.exitCode = 1;
	},
);
