/**
 * `npm run bench [-- --smoke] [-- --only P2,P3] [-- --core 2.8]`: what this package costs its
 * users — requests against the account's quota, and time an n8n worker spends — measured against
 * the sandbox side by side with a raw HTTP client (the ceiling), the same calls through n8n's own
 * request helper (the n8n helper loop) and n8n's HTTP Request node (the DIY way), with P2–P4 on
 * both n8n-cores (bench/cores.ts). Prints a table and writes bench/results.json. It reports; it
 * never fails on speed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { BenchContext } from './context';
import type { CoreName } from './cores';

const SCENARIOS = ['P1', 'P2', 'P2Q', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'P10'] as const;
/** The scenarios whose cost is n8n's HTTP path: they run on both cores (bench/cores.ts). */
const ON_BOTH_CORES = ['P2', 'P3', 'P4'];
const CORES: CoreName[] = ['2.8', '2.41'];
const USAGE = 'Usage: tsx bench/run.ts [--smoke] [--only P1,P2,P2q,P3,P4,P5,P6,P7,P8,P9,P10] [--core 2.8,2.41] [--rounds N] [--fleet devices,hours] [--out file.json]';

interface Arguments {
	smoke: boolean;
	out: string;
	only: Set<string>;
	cores: Set<CoreName>;
	/** Run on the one core in --core here, in this process: how the `2.41` child is started. */
	thisProcess: boolean;
	/** Rounds of the side-by-side scenarios, instead of the size's default. */
	rounds?: number;
	/** P10's fleet and hours, instead of the size's (a tenth of the fleet read a poll). */
	fleet?: { devices: number; readsPerPoll: number; hours: number };
}

function parseArguments(argv: string[]): Arguments {
	const parsed: Arguments = { smoke: false, out: join(__dirname, 'results.json'), only: new Set(SCENARIOS), cores: new Set(CORES), thisProcess: false };
	const list = (value: string | undefined) => (value ?? '').split(',').map((name) => name.trim().toUpperCase());
	for (let index = 0; index < argv.length; index++) {
		const flag = argv[index];
		if (flag === '--smoke') parsed.smoke = true;
		else if (flag === '--out') parsed.out = argv[++index];
		else if (flag === '--only') parsed.only = new Set(list(argv[++index]));
		else if (flag === '--core') parsed.cores = new Set(list(argv[++index]) as CoreName[]);
		else if (flag === '--this-process') parsed.thisProcess = true;
		else if (flag === '--rounds') parsed.rounds = Number(argv[++index]);
		else if (flag === '--fleet') {
			const [devices, hours] = (argv[++index] ?? '').split(',').map(Number);
			parsed.fleet = { devices, readsPerPoll: Math.max(1, Math.round(devices / 10)), hours };
		}
		else {
			console.error(`Unknown option ${flag}. ${USAGE}`);
			process.exit(2);
		}
	}
	const unknown = [...parsed.only].filter((name) => !(SCENARIOS as readonly string[]).includes(name));
	const unknownCores = [...parsed.cores].filter((core) => !CORES.includes(core));
	const badRounds = parsed.rounds !== undefined && !(Number.isInteger(parsed.rounds) && parsed.rounds > 0);
	const badFleet = parsed.fleet !== undefined && !(Number.isInteger(parsed.fleet.devices) && parsed.fleet.devices > 0 && parsed.fleet.hours >= 2);
	if (unknown.length > 0 || unknownCores.length > 0 || badRounds || badFleet || (parsed.thisProcess && parsed.cores.size !== 1)) {
		console.error(`Bad --only, --core, --fleet or --this-process. ${USAGE}`);
		process.exit(2);
	}
	return parsed;
}

function exposeGc(): () => void {
	setFlagsFromString('--expose_gc');
	return runInNewContext('gc') as () => void;
}

async function main(): Promise<void> {
	const args = parseArguments(process.argv.slice(2));
	// n8n-core's InstanceSettings writes <N8N_USER_FOLDER>/.n8n/config on first use.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'satellite-tracking-bench-'));
	// n8n's logger writes to stdout, where the table goes; failures the bench cares about are in its figures.
	process.env.N8N_LOG_LEVEL ??= 'silent';
	const { currentCoreInstall, loadedCoreVersion, N8N_OF_CORE, resolveCoreFrom, runOnCurrentCore } = await import('./cores');
	// This process runs the dev dependency's core, or in the `2.41` child, the one of n8n 2.41.1.
	const here: CoreName = args.thisProcess ? [...args.cores][0] : '2.8';
	if (here === '2.41') {
		const install = currentCoreInstall();
		if ('reason' in install) throw new Error(install.reason);
		resolveCoreFrom(install.installDir);
	}
	const { FULL, SMOKE } = await import('./context');
	const { loadHttpRequestNode } = await import('./diy');
	const { machine, renderNotes, renderTable, saveReport } = await import('./report');
	const { throughputScenarios } = await import('./scenarios/throughput');
	const { triggerScenarios } = await import('./scenarios/trigger');
	const { upsertScenario } = await import('./scenarios/upsert');
	const { syncScenario } = await import('./scenarios/sync');
	const { capScenarios, sharedQuotaScenario } = await import('./scenarios/cap');
	const { fairnessScenario } = await import('./scenarios/fairness');
	const { tripsScenario } = await import('./scenarios/trips');
	const { fleetScenario } = await import('./scenarios/fleet');

	// Stopped from outside, still run the 'exit' handlers that stop the sandboxes and the 2.41 child.
	for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
	// A hung sandbox or request must not hang CI: give up well past any honest run's length (the
	// full run takes ~6 minutes alone, several times that on a machine shared with other jobs; the
	// smoke takes 2 alone, and 5 in CI beside the real-n8n lanes).
	const limitMinutes = args.smoke ? 10 : 30;
	setTimeout(() => {
		console.error(`Bench: still running after ${limitMinutes} minutes; giving up.`);
		process.exit(1);
	}, limitMinutes * 60_000).unref();

	const started = new Date();
	const startedMs = performance.now();
	const core = loadedCoreVersion();
	const diy = loadHttpRequestNode(N8N_OF_CORE[here]);
	const ctx: BenchContext = {
		sizes: { ...(args.smoke ? SMOKE : FULL), ...(args.rounds === undefined ? {} : { rounds: args.rounds }), ...(args.fleet && { fleet: args.fleet }) },
		figures: [],
		details: {},
		diy: diy.loaded ? { loaded: true } : diy,
		log: (message) => console.error(`[bench core ${core} ${((performance.now() - startedMs) / 1000).toFixed(0).padStart(3)} s] ${message}`),
		gc: exposeGc(),
	};
	const host = machine();
	ctx.log(`${args.smoke ? 'smoke' : 'full'} run on ${host.cpus} × ${host.cpuModel}, Node ${process.version}, load average ${host.loadAverageAtStart.map((load) => load.toFixed(1)).join(' ')}`);
	if (!diy.loaded) console.log(diy.reason);

	const runsHere = args.cores.has(here);
	const selected = (scenario: string) => runsHere && args.only.has(scenario);
	if (selected('P1') || selected('P2') || selected('P2Q')) {
		await throughputScenarios(ctx, { p1: selected('P1'), p2: selected('P2'), p2q: selected('P2Q') });
	}
	if (selected('P3')) await triggerScenarios(ctx);
	if (selected('P4')) await upsertScenario(ctx);
	if (selected('P8')) await syncScenario(ctx);
	if (selected('P9')) await tripsScenario(ctx);
	if (selected('P10')) fleetScenario(ctx);
	for (const figure of ctx.figures) figure.core = core;

	const onCurrentCore = ON_BOTH_CORES.filter((scenario) => args.only.has(scenario));
	if (!args.thisProcess && args.cores.has('2.41') && onCurrentCore.length > 0) {
		ctx.log(`${onCurrentCore.join(', ')} on the core of n8n ${N8N_OF_CORE['2.41']}, in a child process`);
		const other = await runOnCurrentCore(onCurrentCore, args.smoke, args.rounds);
		if (other.report) {
			ctx.figures.push(...other.report.figures);
			ctx.details[`core ${other.report.machine.core}`] = { machine: other.report.machine, details: other.report.details };
		} else {
			ctx.figures.push({ id: 'core2.41', figure: `${onCurrentCore.join(', ')} on n8n ${N8N_OF_CORE['2.41']}'s core`, value: null, unit: '', verdict: 'skipped', note: other.skipped });
		}
	}
	if (selected('P5') || selected('P6') || selected('P7')) {
		const before = ctx.figures.length;
		if (selected('P5')) await capScenarios(ctx);
		if (selected('P6')) await sharedQuotaScenario(ctx);
		if (selected('P7')) await fairnessScenario(ctx);
		for (const figure of ctx.figures.slice(before)) figure.core = core;
	}

	const report = {
		startedAt: started.toISOString(),
		finishedAt: new Date().toISOString(),
		wallSeconds: Math.round((performance.now() - startedMs) / 1000),
		mode: args.smoke ? ('smoke' as const) : ('full' as const),
		machine: { ...host, core },
		sizes: { ...ctx.sizes },
		figures: ctx.figures,
		details: ctx.details,
	};
	saveReport(args.out, report);
	// The child's table would go nowhere: its parent prints the figures with its own.
	if (args.thisProcess) return;
	console.log(`\n${renderTable(ctx.figures)}\n`);
	const notes = renderNotes(ctx.figures);
	if (notes) console.log(`Notes:\n${notes}\n`);
	const missed = ctx.figures.filter((figure) => figure.verdict === 'MISSED').map((figure) => `${figure.id}${figure.core ? ` (${figure.core})` : ''}`);
	console.log(
		`${args.smoke ? 'Smoke sizes: the figures only show the script works. ' : ''}Missed targets: ${missed.length === 0 ? 'none' : missed.join(', ')}. ` +
			`${report.wallSeconds} s in all. Results: ${args.out}`,
	);
	// Missed targets do not fail the run: a bench reports, CI only checks that it runs.
}

main()
	.then(() => process.exit(0))
	.catch((error: Error) => {
		console.error(`Bench failed: ${error.stack ?? error.message}`);
		// n8n-core keeps a housekeeping interval alive, and sandboxes may still be up: exit either way.
		process.exit(1);
	});
