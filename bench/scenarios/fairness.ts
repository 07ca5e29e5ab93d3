/**
 * P7: one account, several workflows at once, as an ops team runs them. A single Get Device from
 * one workflow while a trigger's poll reads hundreds of devices on the same account; and an
 * uncapped run while a capped run on the account waits for its 60 s window. Both are times on
 * the account busy beside times on the account idle, measured in the same run.
 */
import { deviceId } from '../../sandbox/seed';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { DEFAULT_CONCURRENCY } from '../../nodes/shared/requestSettings';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { median, sleepMs, timed } from '../measure';
import { verdict } from '../report';
import { startSandboxProcess, type SandboxProcess } from '../sandboxProcess';
import { answered, lastLocationParameters } from './throughput';
import { latestFixParameters } from './trigger';

const LAST_LOCATION = 'GET /api/devices/{deviceId}/lastLocation';
/** Single reads timed per condition; the median is the figure, min–max its spread. */
const SAMPLES = 5;

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;

/** Wall times of single Get Device runs, one after another, while `busy()` says the account is busy. */
async function singleReads(engine: Engine, busy: () => boolean = () => true, samples = SAMPLES): Promise<number[]> {
	const times: number[] = [];
	for (let sample = 0; sample < samples && busy(); sample++) {
		const { result, wallMs } = await timed(() => engine.runNode(lastLocationParameters(), { items: [{ deviceId: deviceId(1) }] }));
		if (answered(result.items) !== 1) throw new Error(`P7: a single Get Device failed: ${result.error?.message ?? JSON.stringify(result.items[0]?.json)}`);
		// Only reads that ended while the account was still busy measure what it did to them.
		if (busy()) times.push(wallMs);
	}
	return times;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
	while (!(await condition())) await sleepMs(5);
}

export async function fairnessScenario(ctx: BenchContext): Promise<void> {
	const { fairnessDevices: devices, quotaLatencyMs: latencyMs, rounds } = ctx.sizes;
	ctx.log(`P7: a single Get Device beside a ${devices}-device poll, and beside a capped run waiting for its window (${latencyMs} ms latency)`);
	const [pollSandbox, capSandbox] = await Promise.all([
		startSandboxProcess({ devices, latencyMs }),
		startSandboxProcess({ devices: DEFAULT_CONCURRENCY * 2, latencyMs }),
	]);
	const engineFor = (sandbox: SandboxProcess) => new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	try {
		// A capped run that sends its cap, then waits a minute with DEFAULT_CONCURRENCY items to go.
		const capEngine = engineFor(capSandbox);
		await singleReads(capEngine, undefined, 1); // the token exchange
		const capIdle = await singleReads(capEngine);
		const inWindow = 1 + SAMPLES;
		// The window then holds the idle reads and the capped run's first sends, the cap reached
		// with as many items waiting as the account runs at once: before, they held every slot.
		const cap = 2 * SAMPLES + 2;
		const cappedItems = Array.from({ length: cap - inWindow + DEFAULT_CONCURRENCY }, (_, index) => ({ deviceId: deviceId(index + 1) }));
		let cappedDone = false;
		const capped = timed(() => capEngine.runNode(lastLocationParameters({ requestsPerMinute: cap }), { items: cappedItems })).finally(
			() => (cappedDone = true),
		);
		await until(async () => ((await capSandbox.stats()).byRoute[LAST_LOCATION] ?? 0) >= cap);
		await sleepMs(100);
		const beside = await singleReads(capEngine, () => !cappedDone);

		// The poll: each round, single reads while a poll of every device runs on the same account.
		const engine = engineFor(pollSandbox);
		await engine.poll(latestFixParameters(), {});
		const idle = await singleReads(engine);
		const busy: number[] = [];
		const pollMs: number[] = [];
		for (let round = 0; round < rounds; round++) {
			let polling = true;
			const poll = timed(() => engine.poll(latestFixParameters(), {})).finally(() => (polling = false));
			await sleepMs(latencyMs * 3);
			busy.push(...(await singleReads(engine, () => polling)));
			pollMs.push((await poll).wallMs);
		}
		const cappedRun = await capped;

		// A slot comes free every (poll time ÷ reads × concurrency) on average: one request's time.
		const requestMs = (median(pollMs) / devices) * DEFAULT_CONCURRENCY;
		const bound = (idleMs: number) => 1.5 * idleMs + requestMs;
		const busyTarget = bound(median(idle));
		const capTarget = bound(median(capIdle));
		ctx.figures.push(
			{
				id: 'P7.besidePoll',
				figure: `P7 single Get Device beside a ${devices}-device poll on the account, ms`,
				value: busy.length > 0 ? Math.round(median(busy)) : null,
				unit: 'ms',
				target: `≤ 1.5 × idle + one request = ${busyTarget.toFixed(0)} ms`,
				verdict: verdict(busy.length > 0 && median(busy) <= busyTarget),
				note: `idle ${median(idle).toFixed(0)} ms (${spread(idle)}); beside the poll ${busy.length > 0 ? spread(busy) : 'none ended during a poll'}, ${busy.length} reads over ${rounds} polls of ${(median(pollMs) / 1000).toFixed(2)} s; one request ${requestMs.toFixed(0)} ms`,
			},
			{
				id: 'P7.besideCap',
				figure: 'P7 uncapped Get Device while a capped run waits for its window, ms',
				value: beside.length > 0 ? Math.round(median(beside)) : null,
				unit: 'ms',
				target: `≤ 1.5 × idle + one request = ${capTarget.toFixed(0)} ms`,
				verdict: verdict(beside.length > 0 && median(beside) <= capTarget && !cappedRun.result.error),
				note: `idle ${median(capIdle).toFixed(0)} ms (${spread(capIdle)}); beside ${beside.length > 0 ? spread(beside) : 'none ended while it waited'}; the capped run (${cap}/min, ${cappedItems.length} items) took ${(cappedRun.wallMs / 1000).toFixed(1)} s${cappedRun.result.error ? `, failed: ${cappedRun.result.error.message}` : ''}`,
			},
		);
		ctx.details.P7 = { devices, latencyMs, idle, busy, pollMs, capIdle, beside, cap, cappedWallMs: cappedRun.wallMs };
	} finally {
		await Promise.all([pollSandbox.close(), capSandbox.close()]);
	}
}
