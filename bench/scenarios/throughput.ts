/**
 * P1 (token exchanges), P2 (throughput against the ceiling and DIY) and P2q (a quota with 429 +
 * Retry-After), all on one sandbox process with as many devices as items.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY } from '../../nodes/shared/requestSettings';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { deviceId } from '../../sandbox/seed';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { diyOutcome, diyWorkflow, type DiyOutcome } from '../diy';
import { executeHelperLoop, type HelperLoopRun } from '../helperLoop';
import { median, sleepMs, timed, withPeakRss } from '../measure';
import { rawCall, rawRun, type RawCall, type RawRun } from '../rawClient';
import { helperLoopFigures, verdict, type Figure } from '../report';
import { startSandboxProcess, type SandboxProcess } from '../sandboxProcess';

const MB = 1024 * 1024;

export const lastLocationParameters = (requestSettings: IDataObject = {}): INodeParameters => ({
	resource: 'device',
	operation: 'getLastLocation',
	deviceId: { __rl: true, mode: 'id', value: '={{ $json.deviceId }}' },
	requestSettings: requestSettings as INodeParameters,
});

const rowsFor = (count: number, offset = 0) => Array.from({ length: count }, (_, index) => ({ deviceId: deviceId(offset + index + 1) }));

const lastLocationCalls = (rows: Array<{ deviceId: string }>): RawCall[] =>
	rows.map((row) => rawCall('getLastLocation', { deviceId: row.deviceId }));

/** Output items that carry an answer, not a failure (the vendor's envelope has `error: null` on success). */
export const answered = (items: INodeExecutionData[]) => items.filter((item) => item.json.error === undefined || item.json.error === null).length;

interface NodeOutcome {
	completed: number;
	errorItems: number;
	error?: string;
}

function engineFor(url: string, userName = DEMO_USER_NAME): Engine {
	return new Engine({ baseUrl: url, userName, apiKey: DEMO_API_KEY });
}

export async function throughputScenarios(ctx: BenchContext, run: { p1: boolean; p2: boolean; p2q: boolean }): Promise<void> {
	const { sizes } = ctx;
	const sandbox = await startSandboxProcess({ devices: sizes.items, requestLogLimit: 200_000 });
	try {
		const engine = engineFor(sandbox.url);
		if (run.p1) await p1TokenExchanges(ctx, sandbox);
		if (run.p2) await p2Throughput(ctx, sandbox, engine);
		if (run.p2q) await p2qQuota(ctx, sandbox, engine);
	} finally {
		await sandbox.close();
	}
}

// --- P1 ------------------------------------------------------------------------------------------

async function p1TokenExchanges(ctx: BenchContext, sandbox: SandboxProcess): Promise<void> {
	const { p1Items, p1Executions } = ctx.sizes;
	ctx.log(`P1: ${p1Executions} executions × ${p1Items} items, one credential`);
	const engine = engineFor(sandbox.url);
	const rows = rowsFor(p1Items);
	await sandbox.resetStats();
	const failures: string[] = [];
	for (let run = 0; run < p1Executions; run++) {
		const { items, error } = await engine.runNode(lastLocationParameters(), { items: rows });
		if (error || answered(items) !== p1Items) failures.push(`execution ${run + 1}: ${error?.message ?? `${answered(items)} answers`}`);
	}
	const tokenCalls = (await sandbox.stats()).tokenCalls;
	await sandbox.revokeTokens();
	const { error } = await engine.runNode(lastLocationParameters(), { items: rows });
	if (error) failures.push(`after revoke: ${error.message}`);
	const afterRevoke = (await sandbox.stats()).tokenCalls - tokenCalls;

	let diyTokenCalls: number | undefined;
	if (ctx.diy.loaded) {
		const diyEngine = engineFor(sandbox.url);
		await sandbox.resetStats();
		for (let run = 0; run < p1Executions; run++) await diyEngine.runWorkflow(diyWorkflow(diyEngine, sandbox.url, rows));
		diyTokenCalls = (await sandbox.stats()).tokenCalls;
	}
	const note = failures.length > 0 ? `failed runs: ${failures.join('; ')}` : undefined;
	ctx.figures.push(
		{
			id: 'P1.tokenCalls',
			figure: `P1 token calls, ${p1Executions} executions × ${p1Items} items`,
			value: tokenCalls,
			unit: '',
			vsDiy: diyTokenCalls === undefined ? undefined : tokenCalls / diyTokenCalls,
			target: '1 in total',
			verdict: verdict(tokenCalls === 1 && failures.length === 0),
			note: [note, diyTokenCalls === undefined ? undefined : `DIY: ${diyTokenCalls} (its token node runs in every execution)`]
				.filter(Boolean)
				.join('; ') || undefined,
		},
		{
			id: 'P1.tokenCallsAfterRevoke',
			figure: 'P1 token calls after the token was revoked',
			value: afterRevoke,
			unit: '',
			target: 'exactly 1 more',
			verdict: verdict(afterRevoke === 1 && !error),
		},
	);
	ctx.details.P1 = { executions: p1Executions, items: p1Items, tokenCalls, afterRevoke, diyTokenCalls, failures };
}

// --- P2 ------------------------------------------------------------------------------------------

interface P2Round {
	ceiling: RawRun;
	helperLoop: HelperLoopRun;
	node: { wallMs: number; peakRssBytes: number; startRssBytes: number } & NodeOutcome;
	diy?: { wallMs: number; peakRssBytes: number; startRssBytes: number } & DiyOutcome;
}

async function p2Throughput(ctx: BenchContext, sandbox: SandboxProcess, engine: Engine): Promise<void> {
	const { items, rounds, warmUpItems } = ctx.sizes;
	const rows = rowsFor(items);
	const calls = lastLocationCalls(rows);

	ctx.log(`P2: warm-up (${warmUpItems} items each side)`);
	const warmRows = rowsFor(Math.min(warmUpItems, items));
	await rawRun(sandbox.url, lastLocationCalls(warmRows), DEFAULT_CONCURRENCY);
	await executeHelperLoop(engine, lastLocationCalls(warmRows), DEFAULT_CONCURRENCY, warmRows);
	await engine.runNode(lastLocationParameters(), { items: warmRows });
	if (ctx.diy.loaded) await engine.runWorkflow(diyWorkflow(engine, sandbox.url, warmRows));

	const measured: P2Round[] = [];
	for (let round = 0; round < rounds; round++) {
		ctx.log(`P2: round ${round + 1}/${rounds}, ${items} items: ceiling, n8n helper loop, node${ctx.diy.loaded ? ', DIY' : ''}`);
		// Each round runs them side by side, starting with a different one, so a burst of load on
		// the shared machine does not always land on the same side.
		const runs: Array<() => Promise<void>> = [];
		const entry = {} as P2Round;
		runs.push(async () => {
			entry.ceiling = await rawRun(sandbox.url, calls, DEFAULT_CONCURRENCY);
		});
		runs.push(async () => {
			ctx.gc();
			entry.helperLoop = await executeHelperLoop(engine, calls, DEFAULT_CONCURRENCY, rows);
		});
		runs.push(async () => {
			ctx.gc();
			const { result, peakRssBytes, startRssBytes } = await withPeakRss(() => timed(() => engine.runNode(lastLocationParameters(), { items: rows })));
			const { items: output, error } = result.result;
			entry.node = {
				wallMs: result.wallMs,
				peakRssBytes,
				startRssBytes,
				completed: error ? 0 : answered(output),
				errorItems: output.length - answered(output),
				error: error?.message,
			};
		});
		if (ctx.diy.loaded) {
			runs.push(async () => {
				ctx.gc();
				const { result, peakRssBytes, startRssBytes } = await withPeakRss(() => timed(() => engine.runWorkflow(diyWorkflow(engine, sandbox.url, rows))));
				entry.diy = { wallMs: result.wallMs, peakRssBytes, startRssBytes, ...diyOutcome(result.result) };
			});
		}
		for (let index = 0; index < runs.length; index++) await runs[(index + round) % runs.length]();
		measured.push(entry);
	}

	const perSecond = (wallMs: number) => (items * 1000) / wallMs;
	const ceilingRate = median(measured.map((entry) => perSecond(entry.ceiling.wallMs)));
	const nodeRate = median(measured.map((entry) => perSecond(entry.node.wallMs)));
	const loopRate = median(measured.map((entry) => perSecond(entry.helperLoop.wallMs)));
	const diyRuns = measured.flatMap((entry) => (entry.diy ? [entry.diy] : []));
	const diyRate = diyRuns.length > 0 ? median(diyRuns.map((run) => perSecond(run.wallMs))) : undefined;
	const nodeIncomplete = measured.find((entry) => entry.node.completed !== items);
	const diyIncomplete = diyRuns.find((run) => run.completed !== items);
	const nodePeak = Math.max(...measured.map((entry) => entry.node.peakRssBytes));
	const nodeGrowth = median(measured.map((entry) => entry.node.peakRssBytes - entry.node.startRssBytes));
	const diyPeak = diyRuns.length > 0 ? Math.max(...diyRuns.map((run) => run.peakRssBytes)) : undefined;
	const diyGrowth = diyRuns.length > 0 ? median(diyRuns.map((run) => run.peakRssBytes - run.startRssBytes)) : undefined;

	ctx.figures.push(
		{
			id: 'ceiling.itemsPerSecond',
			figure: `Ceiling: raw undici pool, ${DEFAULT_CONCURRENCY} connections, ${items} lastLocation calls`,
			value: ceilingRate,
			unit: 'calls/s',
			verdict: 'info',
			note: `median of ${rounds} round(s); one token call per run included in the time`,
		},
		{
			id: 'P2.itemsPerSecond',
			figure: `P2 node, ${items} items → device.getLastLocation`,
			value: nodeRate,
			unit: 'items/s',
			vsCeiling: nodeRate / ceilingRate,
			vsDiy: diyRate === undefined ? undefined : nodeRate / diyRate,
			verdict: nodeIncomplete ? 'MISSED' : 'info',
			note: nodeIncomplete
				? `incomplete: ${nodeIncomplete.node.completed}/${items} (${nodeIncomplete.node.error ?? 'error items'})`
				: `default settings (${DEFAULT_CONCURRENCY} concurrent requests); median of ${rounds} round(s)`,
		},
		...helperLoopFigures(
			'P2',
			{
				figure: `n8n helper loop: httpRequestWithAuthentication, ${DEFAULT_CONCURRENCY} at once, ${items} lastLocation calls`,
				value: loopRate,
				unit: 'calls/s',
				vsCeiling: loopRate / ceilingRate,
				runs: measured.map((entry) => entry.helperLoop),
				calls: items,
				note: `the same calls through n8n's own request helper, inside the same engine; median of ${rounds} round(s)`,
			},
			{ figure: `P2 node ÷ n8n helper loop, ${items} items/s`, speedRatio: nodeRate / loopRate, perRound: measured.map((entry) => entry.helperLoop.wallMs / entry.node.wallMs), note: `${nodeRate.toFixed(0)} vs ${loopRate.toFixed(0)} items/s` },
		),
		{
			id: 'P2.peakRss',
			figure: 'P2 node, peak RSS of the n8n process',
			value: nodePeak / MB,
			unit: 'MB',
			vsDiy: diyPeak === undefined ? undefined : nodePeak / diyPeak,
			verdict: 'info',
			note: `growth during the run ${(nodeGrowth / MB).toFixed(0)} MB${diyGrowth === undefined ? '' : ` (DIY ${(diyGrowth / MB).toFixed(0)} MB)`}; the sandbox runs in its own process`,
		},
	);
	if (diyRate !== undefined) {
		ctx.figures.push({
			id: 'DIY.P2.itemsPerSecond',
			figure: `DIY: HTTP Request node, ${items} items`,
			value: diyRate,
			unit: 'items/s',
			vsCeiling: diyRate / ceilingRate,
			verdict: 'info',
			note: diyIncomplete
				? `incomplete: ${diyIncomplete.completed}/${items} (${diyIncomplete.error ?? 'error items'})`
				: `peak RSS ${((diyPeak ?? 0) / MB).toFixed(0)} MB; every item's request fired at once (no batching by default)`,
		});
	} else if (!ctx.diy.loaded) {
		ctx.figures.push({ id: 'DIY.P2.itemsPerSecond', figure: 'DIY: HTTP Request node, P2', value: null, unit: '', verdict: 'skipped', note: ctx.diy.reason });
	}
	ctx.details.P2 = { items, rounds: measured, ceilingRate, helperLoopRate: loopRate, nodeRate, diyRate };
}

// --- P2q -----------------------------------------------------------------------------------------

interface QuotaRun {
	label: string;
	wallMs: number;
	completed: number;
	errorItems: number;
	error?: string;
	requests: number;
	tooManyRequests: number;
	tokenCalls: number;
}

async function p2qQuota(ctx: BenchContext, sandbox: SandboxProcess, engine: Engine): Promise<void> {
	const { items, quota, quotaLatencyMs, raisedConcurrency } = ctx.sizes;
	const rows = rowsFor(items);
	const perSecond = (quota.requests * 1000) / quota.windowMs;
	const floorMs = (items / perSecond) * 1000;
	await sandbox.setOptions({ latencyMs: quotaLatencyMs, retryAfterHeader: true });

	/** A fresh quota window and fresh counters for each run. */
	const measure = async (label: string, run: () => Promise<Omit<QuotaRun, 'label' | 'wallMs' | 'requests' | 'tooManyRequests' | 'tokenCalls'>>, shape: 'sliding' | 'fixed' = 'sliding') => {
		ctx.log(`P2q: ${label}`);
		await sleepMs(quota.windowMs);
		await sandbox.setOptions({ rateLimit: { ...quota, shape } });
		await sandbox.resetStats();
		const { result, wallMs } = await timed(run);
		const stats = await sandbox.stats();
		return { label, wallMs, ...result, requests: stats.requests - stats.tokenCalls, tooManyRequests: stats.tooManyRequests, tokenCalls: stats.tokenCalls };
	};
	// Each node run on an account of its own, as a first run on an account: the pacer keeps a rate
	// learned from a 429 for five minutes, and the second run inherited the first's (no 429, no
	// pause: 1.04× where a run of its own took 1.14×, helper-46).
	const nodeAccounts = ['p2q-default@sandbox.local', 'p2q-raised@sandbox.local', 'p2q-fixed@sandbox.local'];
	await sandbox.setOptions({ accounts: [DEMO_USER_NAME, ...nodeAccounts].map((userName) => ({ userName, apiKey: DEMO_API_KEY })) });
	const nodeRun = (userName: string, requestSettings: IDataObject) => async () => {
		const { items: output, error } = await engineFor(sandbox.url, userName).runNode(lastLocationParameters(requestSettings), { items: rows });
		return { completed: error ? 0 : answered(output), errorItems: output.length - answered(output), error: error?.message };
	};

	try {
		const raw = await measure(`raw client, ${DEFAULT_CONCURRENCY} connections, no retries`, async () => {
			const run = await rawRun(sandbox.url, lastLocationCalls(rows), DEFAULT_CONCURRENCY);
			return { completed: run.ok, errorItems: items - run.ok };
		});
		const node = await measure(`node, default settings (${DEFAULT_CONCURRENCY} concurrent)`, nodeRun(nodeAccounts[0], {}));
		const raised = await measure(`node, Max Concurrent Requests ${raisedConcurrency}`, nodeRun(nodeAccounts[1], { maxConcurrency: raisedConcurrency }));
		// The vendor does not publish its quota's shape: the same quota counted per calendar window.
		const fixed = await measure(`node, default settings, fixed ${quota.windowMs} ms windows`, nodeRun(nodeAccounts[2], {}), 'fixed');
		const diy = ctx.diy.loaded
			? await measure('DIY HTTP Request node', async () => {
					const outcome = diyOutcome(await engine.runWorkflow(diyWorkflow(engine, sandbox.url, rows)));
					return outcome;
				})
			: undefined;

		const quotaText = `${quota.requests} req/${quota.windowMs} ms, ${quotaLatencyMs} ms latency`;
		// Settled in issue 50: 1.1× the floor, plus the one Retry-After pause (a window, Retry-After: 1)
		// a client that honours it must take before it can know the quota.
		const pauseMs = Math.max(1000, quota.windowMs);
		const targetMs = 1.1 * floorMs + pauseMs;
		const nodeFigures = (run: QuotaRun, label: string, id: string): Figure[] => [
			{
				id: `${id}.completion`,
				figure: `${label}: items completed (${quotaText})`,
				value: run.completed,
				unit: `/ ${items}`,
				vsDiy: diy && diy.completed > 0 ? run.completed / diy.completed : undefined,
				target: `${items}/${items}, no error items`,
				verdict: verdict(run.completed === items && run.errorItems === 0 && !run.error),
				note: `${run.tooManyRequests} answers of 429 from ${run.requests} requests${run.error ? `; stopped: ${run.error}` : ''}`,
			},
			{
				id: `${id}.wallVsFloor`,
				figure: `${label}: wall time ÷ floor (${(floorMs / 1000).toFixed(1)} s = N / quota)`,
				value: run.wallMs / floorMs,
				unit: '×',
				vsDiy: diy && diy.completed === items ? run.wallMs / diy.wallMs : undefined,
				target: `≤ 1.1× + one Retry-After pause = ${(targetMs / floorMs).toFixed(2)}×`,
				verdict: verdict(run.completed === items && run.wallMs <= targetMs),
				note: `${(run.wallMs / 1000).toFixed(1)} s`,
			},
		];
		ctx.figures.push(
			...nodeFigures(node, `P2q node, default`, 'P2q'),
			...nodeFigures(raised, `P2q node, ${raisedConcurrency} concurrent`, 'P2q.raised'),
			...nodeFigures(fixed, `P2q node, default, fixed windows`, 'P2q.fixed'),
			{
				id: 'P2q.raw.completion',
				figure: `P2q raw client, ${DEFAULT_CONCURRENCY} connections, no retries: completed`,
				value: raw.completed,
				unit: `/ ${items}`,
				verdict: 'info',
				note: `${raw.tooManyRequests} answers of 429; ${(raw.wallMs / 1000).toFixed(1)} s (${(raw.wallMs / floorMs).toFixed(2)}× floor)`,
			},
		);
		if (diy) {
			ctx.figures.push({
				id: 'DIY.P2q.completion',
				figure: `DIY: HTTP Request node under the quota: completed`,
				value: diy.completed,
				unit: `/ ${items}`,
				verdict: 'info',
				note: `${diy.tooManyRequests} answers of 429 from ${diy.requests} requests in ${(diy.wallMs / 1000).toFixed(1)} s${diy.error ? `; the node failed: ${diy.error}` : ''}`,
			});
		} else {
			ctx.figures.push({ id: 'DIY.P2q.completion', figure: 'DIY: HTTP Request node, P2q', value: null, unit: '', verdict: 'skipped', note: ctx.diy.loaded ? undefined : ctx.diy.reason });
		}
		ctx.details.P2q = { items, quota, latencyMs: quotaLatencyMs, floorMs, runs: [raw, node, raised, fixed, diy].filter(Boolean) };
	} finally {
		await sandbox.setOptions({ latencyMs: 0, rateLimit: null });
	}
}
