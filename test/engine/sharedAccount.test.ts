/**
 * Several workflows on one account in one n8n process, as an ops team runs them: a trigger
 * polling hundreds of devices, a capped sync, a chat bot asking for one position.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { latestFixParameters } from '../../bench/scenarios/trigger';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { fakeDateFrom } from '../support/clock';
import { Engine } from '../support/engine';
import { byId, fromItem, useSandbox } from '../support/sandboxed';

const LAST_LOCATION = 'GET /api/devices/{deviceId}/lastLocation';

const lastLocation = (deviceId: string, requestSettings: INodeParameters = {}): INodeParameters => ({
	resource: 'device',
	operation: 'getLastLocation',
	deviceId: byId(deviceId),
	requestSettings,
});

/** Real time, while fake timers let a test skip a 60 s rate window. */
const realWait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one account, many workflows', () => {
	const ctx = useSandbox({ deviceCount: 400 });
	beforeEach(() => {
		ctx.sandbox.faults.clear();
		ctx.sandbox.setOptions({ rateLimit: null, latencyMs: 0 });
		ctx.sandbox.resetStats();
	});
	afterEach(() => jest.useRealTimers());

	const reads = () => ctx.sandbox.stats.byRoute[LAST_LOCATION] ?? 0;

	async function until(condition: () => boolean): Promise<void> {
		while (!condition()) await realWait(5);
	}

	it('answers a single read from another workflow in its turn while a 400-device poll runs', async () => {
		ctx.sandbox.setOptions({ latencyMs: 10 });
		// The whole round, however loaded the machine: the default 30 s budget stopped it at 361 reads beside a busy CI.
		const poll = ctx.engine.poll(latestFixParameters({ maxPollSeconds: 3600 }), {});
		await until(() => reads() >= 8);
		const single = await ctx.engine.runNode(lastLocation('device001'));
		// First come, first served, the read waited for the poll's whole queue (about 400 reads).
		const readsBeforeIt = reads();
		await poll;
		expect(single.items[0].json).toMatchObject({ deviceId: 'device001' });
		expect(readsBeforeIt).toBeLessThan(100);
		expect(reads()).toBe(401);
	});

	it.each([
		['sending together', {}, 0],
		// One request at a time on the account: the others read the credential before n8n stored the
		// token, and send only after the exchange is over (bench P6 made a second exchange so).
		['sending one after another', { maxConcurrency: 1 }, 0],
		['sending one after another, the system clock set back an hour during the exchange', { maxConcurrency: 1 }, -3_600_000],
	])('makes one token exchange for four executions starting together on one account, %s', async (_, settings, clockStepMs) => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.setOptions({ latencyMs: 100 });
		if (clockStepMs !== 0) {
			const setNow = fakeDateFrom(Date.now());
			setTimeout(() => setNow(Date.now() + clockStepMs), 50);
		}
		const runs = await Promise.all([1, 2, 3, 4].map((n) => ctx.engine.runNode(lastLocation(`device00${n}`, settings))));
		expect(runs.map((run) => run.items[0].json.deviceId)).toEqual(['device001', 'device002', 'device003', 'device004']);
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
	});

	it('never hands one credential the token fetched with another key', async () => {
		const other = new Engine({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: 'not-the-key' });
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.setOptions({ latencyMs: 20 });
		const [good, bad] = await Promise.all([
			ctx.engine.runNode(lastLocation('device001')),
			other.runNode(lastLocation('device002'), { continueOnFail: true }),
		]);
		expect(good.items[0].json).toMatchObject({ deviceId: 'device001' });
		expect(bad.items[0].json.error).toEqual(expect.any(String));
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
	});

	it.each([
		['Max Requests per Minute', { requestsPerMinute: 0.5 }, 'Invalid "Max Requests per Minute"'],
		// 30 days overflows Node's timers: every call then timed out at once.
		['Timeout (Seconds)', { timeoutSeconds: 30 * 24 * 3600 }, 'Invalid "Timeout (Seconds)"'],
	])('refuses a %s it cannot honour, naming it', async (_, settings, message) => {
		const run = await ctx.engine.runNode(lastLocation('device001', settings));
		expect(run.error?.message).toContain(message);
		expect(reads()).toBe(0);
	});

	// Last: fake timers move `performance` on, and real time is behind it afterwards for what the process
	// remembers a moment of (the account's quota, the newest token exchange).
	it('lets an uncapped run through while a capped run waits for its 60 s window', async () => {
		// A minute on from now: the account's window is past the reads of the tests before (the poll's
		// 401), which the cap counts too and would hold the first eight behind for a real minute. The
		// pacer counts time on `performance`, which fake timers start again at 0.
		const pacerTimeBefore = performance.now();
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime'], advanceTimers: true });
		jest.advanceTimersByTime(pacerTimeBefore + 61_000);
		// Eight requests per minute, sixteen items, eight at once: eight sent, eight waiting for the window.
		// A Timeout far beyond the minutes skipped, so skipping them times out no request under way.
		const ids = Array.from({ length: 16 }, (_, index) => ({ id: `device${String(index + 10).padStart(3, '0')}` }));
		let cappedDone = false;
		const capped = ctx.engine
			.runNode({ ...lastLocation('x', { requestsPerMinute: 8, timeoutSeconds: 1_000_000 }), deviceId: fromItem('id') }, { items: ids as IDataObject[] })
			.finally(() => (cappedDone = true));
		await until(() => reads() >= 8);
		await realWait(50);

		const uncapped = await ctx.engine.runNode(lastLocation('device001'));
		const readsWhenAnswered = reads();

		while (!cappedDone) {
			await jest.advanceTimersByTimeAsync(61_000);
			await realWait(20);
		}
		const cappedRun = await capped;
		expect(uncapped.items[0].json).toMatchObject({ deviceId: 'device001' });
		// Holding the account's slots while it slept, the capped run kept this one waiting a minute.
		expect(readsWhenAnswered).toBe(9);
		expect(cappedRun.items).toHaveLength(16);
		expect(cappedRun.error).toBeUndefined();
	}, 120_000);
});

describe('Max Requests per Minute across a trigger and another workflow', () => {
	// A sandbox, and so an account, of its own: nothing the tests above sent is in its window.
	const ctx = useSandbox({ deviceCount: 40 });

	it('counts only the requests a poll sent, not those its Max Poll Time refused', async () => {
		const cap = { requestsPerMinute: 20 };
		// One read at a time, the first stalling past the budget: the 39 queued behind it are refused.
		ctx.sandbox.faults.inject({ match: { path: /\/lastLocation$/ }, kind: 'slow', delayMs: 5_000, times: 1 });
		await ctx.engine.poll(latestFixParameters({ ...cap, maxConcurrency: 1, maxPollSeconds: 2 }), {}).catch(() => undefined);
		const sent = ctx.sandbox.stats.requests - ctx.sandbox.stats.tokenCalls;
		expect(sent).toBe(2);
		// The listing and the stalled read are in the window; 18 more fit under the cap at once. The
		// refused reads were counted as sent for a minute: this run then waited most of it.
		const items = Array.from({ length: 18 }, (_, index) => ({ id: `device${String(index + 21).padStart(3, '0')}` }));
		const started = performance.now();
		const run = await ctx.engine.runNode({ ...lastLocation('x', cap), deviceId: fromItem('id') }, { items: items as IDataObject[] });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(18);
		expect(performance.now() - started).toBeLessThan(10_000);
		expect(ctx.sandbox.stats.requests - ctx.sandbox.stats.tokenCalls).toBe(20);
	}, 90_000);
});
