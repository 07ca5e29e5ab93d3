/**
 * R4: the trigger polled as n8n polls it, through faults. Polls fail outright (the device list
 * cannot be read), single devices fail for several polls, answers come malformed, slow or not at
 * all, tokens are revoked, and n8n restarts with the static data it saved (a JSON copy). Ground
 * truth is every fix the test added: each must be reported exactly once, and nothing else.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Location } from '../../nodes/shared/wire';
import { Rng } from '../../sandbox/random';
import type { FaultSpec } from '../../sandbox/server';
import { areaWallClock, secretWatch, sized, summary } from './support';
import { fakeDateFrom } from '../support/clock';
import { withTriggerSandbox, type TriggerHarness } from '../support/trigger';

const MINUTE = 60_000;
const POLL_MINUTES = 5;


interface Scenario {
	name: string;
	devices: number;
	polls: number;
	/** Max Requests per Poll; 0 for none. */
	budget: number;
	seed: number;
}

interface Totals {
	polls: number;
	failedPolls: number;
	restarts: number;
	deviceFailures: number;
	fixes: number;
	expected: number;
	emitted: number;
	lost: number;
	duplicated: number;
	unexpected: number;
}

const totals: Totals = {
	polls: 0,
	failedPolls: 0,
	restarts: 0,
	deviceFailures: 0,
	fixes: 0,
	expected: 0,
	emitted: 0,
	lost: 0,
	duplicated: 0,
	unexpected: 0,
};

const eventKey = (event: string, deviceId: string, fix: { dateTime: string; latitude: number; longitude: number }) =>
	`${event}|${deviceId}|${fix.dateTime}|${fix.latitude}|${fix.longitude}`;

/** One fault for one poll, drawn from the mix a flaky service and its proxies produce. */
function drawDeviceFault(rng: Rng, path: string): FaultSpec {
	const match = { path };
	const times = rng.int(1, 3);
	const kinds: FaultSpec[] = [
		{ match, kind: 'status', status: 500, message: 'Internal failure.', times },
		{ match, kind: 'status', status: 503, retryAfter: 0, times },
		{ match, kind: 'status', status: 429, retryAfter: 0, times },
		{ match, kind: 'reset', times },
		{ match, kind: 'html', status: 502, times },
		{ match, kind: 'slow', delayMs: 1_500, times: 1 },
		{ match, kind: 'nonJson200', times },
		{ match, kind: 'arrayBody', times },
		{ match, kind: 'successFalse200', message: 'Device temporarily locked.', times },
		{ match, kind: 'missingPayload', times },
		{ match, kind: 'hugeBody', sizeBytes: 512 * 1024, times },
	];
	return kinds[rng.int(0, kinds.length - 1)];
}

async function runScenario(scenario: Scenario): Promise<void> {
	const T0 = Date.parse('2026-06-01T06:00:00Z');
	fakeDateFrom(T0);
	try {
		await withTriggerSandbox({ deviceCount: 1, tokenLifetimeSeconds: 3 * 3600 }, (harness) => pollThroughFaults(harness, scenario, T0));
	} finally {
		jest.useRealTimers();
	}
}

async function pollThroughFaults(harness: TriggerHarness, scenario: Scenario, T0: number): Promise<void> {
	const { sandbox } = harness;
	secretWatch.watchSandbox(sandbox);
	const rng = new Rng(scenario.seed);
	const ids = Array.from({ length: scenario.devices }, (_, index) => `r4-${String(index).padStart(3, '0')}`);
	const position = new Map<string, { latitude: number; longitude: number }>();
	ids.forEach((id, index) => {
		sandbox.store.addDevice({ id, name: `R4 ${index}`, tags: { r4: 'yes' }, expires: null });
		position.set(id, { latitude: 10 + index / 100, longitude: 20 });
		// A few devices have never reported when the trigger starts: their first fixes come later.
		if (index % 5 !== 4) sandbox.store.addFix(id, { dateTime: new Date(T0 - MINUTE).toISOString(), ...position.get(id)! });
	});
	const parameters: INodeParameters = {
		events: ['locationUpdated', 'criticalAlert'],
		readMode: 'everyFix',
		deviceSelection: 'tag',
		tagKey: 'r4',
		minDistanceMeters: 0,
		requestSettings: { maxRetries: 1, timeoutSeconds: 1, maxConcurrency: 4, maxRequestsPerPoll: scenario.budget },
	};

	const expected = new Map<string, number>();
	const emitted = new Map<string, number>();
	let saved: IDataObject = {};
	let now = T0;

	const addFixes = (from: number, to: number) => {
		for (const id of ids) {
			if (!rng.chance(0.6)) continue;
			const count = rng.int(1, 3);
			const times = Array.from({ length: count }, () => Math.floor(from + 1000 + rng.next() * (to - from - 1000)));
			// Now and then two fixes share a timestamp: both are real and both must be reported.
			if (count > 1 && rng.chance(0.2)) times[1] = times[0];
			for (const time of times) {
				const here = position.get(id)!;
				// Steps of up to about 150 m: fixes seconds apart are a drive, not a jump the trigger takes for a bad fix.
				const next = { latitude: here.latitude + rng.between(-0.001, 0.001), longitude: here.longitude + rng.between(-0.001, 0.001) };
				position.set(id, next);
				const critical = rng.chance(0.1);
				const fix: Location = sandbox.store.addFix(id, {
					dateTime: new Date(time).toISOString(),
					...next,
					...(critical ? { hasCriticalAlert: true, alertTexts: ['SOS'] } : {}),
				});
				totals.fixes++;
				const keys = [eventKey('locationUpdated', id, fix), ...(critical ? [eventKey('criticalAlert', id, fix)] : [])];
				for (const key of keys) expected.set(key, (expected.get(key) ?? 0) + 1);
			}
		}
	};

	const poll = async (faulty: boolean) => {
		totals.polls++;
		const before = JSON.parse(JSON.stringify(saved)) as IDataObject;
		const staticData = JSON.parse(JSON.stringify(saved)) as IDataObject;
		if (faulty) {
			// The device list fails for the whole poll now and then (more often than retries cover).
			if (rng.chance(0.15)) sandbox.faults.inject({ match: { path: '/api/devices' }, kind: 'status', status: 503, times: 2 });
			for (const id of ids) if (rng.chance(0.15)) sandbox.faults.inject(drawDeviceFault(rng, `/api/devices/${id}/locations`));
			for (const id of ids) if (rng.chance(0.05)) sandbox.faults.inject(drawDeviceFault(rng, `/api/devices/${id}/lastLocation`));
			if (rng.chance(0.2)) sandbox.revokeTokens();
		}
		const failedBefore = sandbox.requestLog.length;
		try {
			const events = await harness.poll(parameters, staticData);
			secretWatch.scan('R4 trigger output', events);
			secretWatch.scan('R4 trigger state', staticData);
			for (const event of events) {
				const key = eventKey(event.event, event.deviceId, event.location as Location);
				emitted.set(key, (emitted.get(key) ?? 0) + 1);
			}
			totals.emitted += events.length;
			saved = staticData;
		} catch (error) {
			secretWatch.scanError('R4 trigger error', error);
			totals.failedPolls++;
			// A failed poll leaves the saved state as it was: n8n keeps what it had.
			expect(staticData).toEqual(before);
		}
		totals.deviceFailures += sandbox.requestLog
			.slice(failedBefore)
			.filter((entry) => entry.fault !== undefined && entry.route !== 'GET /api/devices').length;
		// Slow answers still pending belong to this poll; let them finish before the next one.
		while (sandbox.requestLog.some((entry) => entry.fault === 'slow' && entry.status === 0)) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		sandbox.faults.clear();
	};

	// The baseline: nothing reported. Under a budget it takes polls to read every device once, and a
	// device first read later takes its baseline from its newest fix then, so no fix comes before.
	const perPoll = scenario.budget > 0 ? scenario.budget - 1 : scenario.devices;
	for (let round = 0; round < Math.ceil(scenario.devices / perPoll); round++) await poll(false);
	const stubborn = ids[1];
	for (let round = 1; round <= scenario.polls; round++) {
		const previous = now;
		now = T0 + round * POLL_MINUTES * MINUTE;
		addFixes(previous, now);
		jest.setSystemTime(now);
		// One device fails every read for several polls in a row.
		const stubbornFault =
			round >= 3 && round <= 7 ? sandbox.faults.inject({ match: { path: `/api/devices/${stubborn}/locations` }, kind: 'status', status: 403, message: 'Access to this device is suspended.' }) : undefined;
		await poll(true);
		if (stubbornFault) sandbox.faults.remove(stubbornFault.id);
		// n8n restarts now and then: a new node instance and engine, the static data as JSON.
		if (rng.chance(0.2)) {
			totals.restarts++;
			harness.restart();
		}
	}
	// Fault-free polls until the round robin has read every device since the last fixes.
	const drainPolls = Math.ceil(scenario.devices / perPoll) + 2;
	for (let round = 1; round <= drainPolls; round++) {
		now += POLL_MINUTES * MINUTE;
		jest.setSystemTime(now);
		await poll(false);
	}

	const lost = [...expected.keys()].filter((key) => !emitted.has(key));
	const duplicated = [...emitted.entries()].filter(([key, count]) => count > (expected.get(key) ?? 0) && expected.has(key));
	const unexpected = [...emitted.keys()].filter((key) => !expected.has(key));
	totals.expected += [...expected.values()].reduce((sum, count) => sum + count, 0);
	totals.lost += lost.length;
	totals.duplicated += duplicated.length;
	totals.unexpected += unexpected.length;

	expect(lost).toEqual([]);
	expect(duplicated).toEqual([]);
	expect(unexpected).toEqual([]);
	expect(expected.size).toBeGreaterThan(scenario.devices);
}

export function describeTrigger(): void {
	describe('R4 trigger: faults, failed polls, restarts — every fix reported once', () => {
		const wall = areaWallClock();
		afterAll(() => {
			summary(
				`R4 trigger: polls=${totals.polls} failed-polls=${totals.failedPolls} restarts=${totals.restarts} ` +
					`faulted-device-reads=${totals.deviceFailures} fixes-added=${totals.fixes} expected-events=${totals.expected} ` +
					`emitted=${totals.emitted} lost=${totals.lost} duplicated=${totals.duplicated} unexpected=${totals.unexpected} ` +
					`wall=${wall()} s`,
			);
		});

		it(
			'Every-fix mode, no request budget',
			async () => {
				await runScenario({ name: 'unlimited', devices: sized(8, 40), polls: sized(16, 80), budget: 0, seed: 7 });
			},
			sized(60_000, 600_000),
		);

		it(
			'Every-fix mode with Max Requests per Poll: round robin and retries first',
			async () => {
				const devices = sized(9, 40);
				await runScenario({ name: 'budget', devices, polls: sized(16, 80), budget: 1 + Math.ceil(devices / 3), seed: 11 });
			},
			sized(60_000, 600_000),
		);
	});
}
