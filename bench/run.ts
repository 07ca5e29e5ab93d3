/**
 * `npm run bench [-- --smoke] [-- --only P2,P3]`: what this package costs its users — requests
 * against the account's quota, and time an n8n worker spends — measured against the sandbox side
 * by side with a raw HTTP client (the ceiling) and n8n's own HTTP Request node (the DIY way).
 * Prints a table and writes bench/results.json. It reports; it never fails on speed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { BenchContext } from './context';

const SCENARIOS = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const;

interface Arguments {
	smoke: boolean;
	out: string;
	only: Set<string>;
}

function parseArguments(argv: string[]): Arguments {
	const parsed: Arguments = { smoke: false, out: join(__dirname, 'results.json'), only: new Set(SCENARIOS) };
	for (let index = 0; index < argv.length; index++) {
		const flag = argv[index];
		if (flag === '--smoke') parsed.smoke = true;
		else if (flag === '--out') parsed.out = argv[++index];
		else if (flag === '--only') parsed.only = new Set(argv[++index].split(',').map((name) => name.trim().toUpperCase()));
		else {
			console.error(`Unknown option ${flag}. Usage: tsx bench/run.ts [--smoke] [--only P1,P2,P3,P4,P5,P6] [--out file.json]`);
			process.exit(2);
		}
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
	const { FULL, SMOKE } = await import('./context');
	const { loadHttpRequestNode } = await import('./diy');
	const { machine, renderNotes, renderTable, saveReport } = await import('./report');
	const { throughputScenarios } = await import('./scenarios/throughput');
	const { triggerScenarios } = await import('./scenarios/trigger');
	const { upsertScenario } = await import('./scenarios/upsert');
	const { capScenarios, sharedQuotaScenario } = await import('./scenarios/cap');

	// A hung sandbox or request must not hang CI: give up well past any honest run's length.
	const limitMinutes = args.smoke ? 3 : 20;
	setTimeout(() => {
		console.error(`Bench: still running after ${limitMinutes} minutes; giving up.`);
		process.exit(1);
	}, limitMinutes * 60_000).unref();

	const started = new Date();
	const startedMs = performance.now();
	const diy = loadHttpRequestNode();
	const ctx: BenchContext = {
		sizes: args.smoke ? SMOKE : FULL,
		figures: [],
		details: {},
		diy: diy.loaded ? { loaded: true } : diy,
		log: (message) => console.error(`[bench ${((performance.now() - startedMs) / 1000).toFixed(0).padStart(3)} s] ${message}`),
		gc: exposeGc(),
	};
	const host = machine();
	ctx.log(`${args.smoke ? 'smoke' : 'full'} run on ${host.cpus} × ${host.cpuModel}, load average ${host.loadAverageAtStart.map((load) => load.toFixed(1)).join(' ')}`);
	if (!diy.loaded) console.log(diy.reason);

	if (args.only.has('P1') || args.only.has('P2')) await throughputScenarios(ctx);
	if (args.only.has('P3')) await triggerScenarios(ctx);
	if (args.only.has('P4')) await upsertScenario(ctx);
	if (args.only.has('P5')) await capScenarios(ctx);
	if (args.only.has('P6')) await sharedQuotaScenario(ctx);

	const report = {
		startedAt: started.toISOString(),
		finishedAt: new Date().toISOString(),
		wallSeconds: Math.round((performance.now() - startedMs) / 1000),
		mode: args.smoke ? ('smoke' as const) : ('full' as const),
		machine: host,
		sizes: { ...ctx.sizes },
		figures: ctx.figures,
		details: ctx.details,
	};
	console.log(`\n${renderTable(ctx.figures)}\n`);
	const notes = renderNotes(ctx.figures);
	if (notes) console.log(`Notes:\n${notes}\n`);
	const missed = ctx.figures.filter((figure) => figure.verdict === 'MISSED').map((figure) => figure.id);
	console.log(
		`${args.smoke ? 'Smoke sizes: the figures only show the script works. ' : ''}Missed targets: ${missed.length === 0 ? 'none' : missed.join(', ')}. ` +
			`${report.wallSeconds} s in all. Results: ${args.out}`,
	);
	saveReport(args.out, report);
	// Missed targets do not fail the run: a bench reports, CI only checks that it runs.
}

main()
	.then(() => process.exit(0))
	.catch((error: Error) => {
		console.error(`Bench failed: ${error.stack ?? error.message}`);
		// n8n-core keeps a housekeeping interval alive, and sandboxes may still be up: exit either way.
		process.exit(1);
	});
