import { ABSENT_RETENTION_MS, advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { sampleEvents } from '../../nodes/SatelliteTrackingTrigger/detection/samples';
import { nextCursor, pickDevices, planReads, type FixRead, type ReadPlan } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { selectDevices } from '../../nodes/SatelliteTrackingTrigger/detection/selection';
import { emptyState, readState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type { DetectionSettings, TriggerState } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Device, Location } from '../../nodes/shared/wire';
import { circleGeofence } from '../../nodes/shared/geo/geofence';
import { accountLimitWatch, REFUSALS_OF_THE_ACCOUNT } from '../../nodes/SatelliteTrackingTrigger/readFixes';
import { declare } from '../../nodes/shared/transport/failure';
import { detectionSettings, frozen } from '../support/trigger';

const now = new Date('2026-03-01T12:00:00Z');
const iso = (minute: number) => new Date(now.getTime() + minute * 60_000).toISOString();
// Longitude 1, not 0: a fix at (0, 0) is no position (a tracker without a lock); a latitude step is
// 1.1 km, a drive (a larger jump within minutes would be an impossible speed).
const fix = (minute: number, latitude = 0): Location => ({ dateTime: iso(minute), latitude: latitude / 100, longitude: 1 });
const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(2, '0')}`);
const devices: Device[] = ids(4).map((id, i) => ({ id, name: `Device ${i}`, tags: { fleet: i % 2 ? 'north' : 'south' } }));

const settings = detectionSettings();
const last = (deviceId: string): FixRead => ({ deviceId, kind: 'last', recent: { from: iso(-60), to: iso(60) } });
/** A plan whose reads are the round robin's turn (none given: every device fits, in this order). */
const planOf = (reads: FixRead[], rotation = reads.map((read) => read.deviceId), complete = false): ReadPlan => ({ reads, rotation, complete });

describe('selectDevices', () => {
	const shuffled = [devices[2], devices[0], devices[3], devices[1]];
	it('selects all, by id, by group and by tag, ordered by id, ignoring ids the account does not list', () => {
		expect(selectDevices(shuffled, { by: 'all' }).map((d) => d.id)).toEqual(['d00', 'd01', 'd02', 'd03']);
		expect(selectDevices(shuffled, { by: 'ids', ids: ['d03', 'gone', 'd01', 'd03'] }).map((d) => d.id)).toEqual(['d01', 'd03']);
		expect(selectDevices(shuffled, { by: 'group', groupId: 'g' }, ['d02', 'd00']).map((d) => d.id)).toEqual(['d00', 'd02']);
		expect(selectDevices(shuffled, { by: 'tag', key: 'fleet', value: 'north' }).map((d) => d.id)).toEqual(['d01', 'd03']);
		expect(selectDevices(shuffled, { by: 'tag', key: 'fleet', value: '' })).toHaveLength(4);
	});
});

describe('readState', () => {
	it('starts empty from nothing or from data of another shape', () => {
		expect(readState(undefined)).toEqual(emptyState());
		expect(readState({ version: 99, devices: {} })).toEqual(emptyState());
		expect(readState({ version: 1, devices: [] })).toEqual(emptyState());
	});
	it('returns the stored state itself, which advance reads without changing it', () => {
		const stored = frozen({ version: 1, devices: { a: { fix: { at: iso(0), lat: 1, lon: 2 } }, gone: { since: iso(0) } }, cursor: 'a', retry: ['a'] });
		const state = readState(stored);
		expect(state).toBe(stored);
		const result = advance(state, devices.slice(0, 1).map((d) => ({ ...d, id: 'a' })), planOf([last('a')]), new Map([['a', { ok: true, fixes: [fix(1, 1)] }]]), settings, now);
		expect(result.state.devices.a.fix).toEqual({ at: iso(1), lat: 0.01, lon: 1 });
		expect(result.state.devices.gone).toEqual({ since: iso(0), absentSince: now.toISOString() });
		expect(stored.devices.a.fix.at).toBe(iso(0));
	});
});

describe('pickDevices (round robin)', () => {
	const all = ids(10);
	const picked = (result: { retried: string[]; rotation: string[] }) => [...result.retried, ...result.rotation];
	it('reads every device when they fit, from after the cursor a poll cut short left', () => {
		expect(pickDevices(all, undefined, [], Infinity)).toEqual({ retried: [], rotation: all });
		expect(pickDevices(all, 'd03', ['d01'], 10)).toEqual({ retried: [], rotation: [...all.slice(4), ...all.slice(0, 4)] });
	});

	it('goes round from where the last poll stopped, so every device is read once per cycle', () => {
		let cursor: string | undefined;
		const cycles: string[][] = [];
		for (let poll = 0; poll < 5; poll++) {
			const result = pickDevices(all, cursor, [], 4);
			cycles.push(picked(result));
			cursor = result.rotation[result.rotation.length - 1];
		}
		expect(cycles).toEqual([
			['d00', 'd01', 'd02', 'd03'],
			['d04', 'd05', 'd06', 'd07'],
			['d08', 'd09', 'd00', 'd01'],
			['d02', 'd03', 'd04', 'd05'],
			['d06', 'd07', 'd08', 'd09'],
		]);
	});

	it('continues after a cursor device that has since vanished', () => {
		expect(pickDevices(['a', 'c', 'e', 'g'], 'd', [], 2)).toEqual({ retried: [], rotation: ['e', 'g'] });
		expect(pickDevices(['a', 'c', 'e', 'g'], 'z', [], 2)).toEqual({ retried: [], rotation: ['a', 'c'] });
	});

	it('reads failed devices first, with at most half the budget rounded down: a budget of one is pure round robin', () => {
		expect(pickDevices(all, 'd03', ['d09', 'gone'], 4)).toEqual({ retried: ['d09'], rotation: ['d04', 'd05', 'd06'] });
		expect(picked(pickDevices(all, undefined, ['d07', 'd08', 'd09'], 4))).toEqual(['d07', 'd08', 'd00', 'd01']);
		expect(pickDevices(all, 'd03', ['d00', 'd01'], 1)).toEqual({ retried: [], rotation: ['d04'] });
		expect(pickDevices(all, 'd03', ['d00', 'd01'], 3)).toEqual({ retried: ['d00'], rotation: ['d04', 'd05'] });
	});
});

describe('nextCursor', () => {
	const plan = (rotation: string[], complete = false) => ({ reads: [], rotation, complete });
	it('stops after the last device whose read ended with all before it, so a poll cut short is continued', () => {
		const ended = (done: string[]) => (id: string) => done.includes(id);
		expect(nextCursor(plan(['d04', 'd05', 'd06']), ended(['d04', 'd05', 'd06']), 'd03')).toBe('d06');
		expect(nextCursor(plan(['d04', 'd05', 'd06']), ended(['d04', 'd06']), 'd03')).toBe('d04');
		expect(nextCursor(plan(['d04', 'd05', 'd06']), ended(['d05']), 'd03')).toBe('d03');
		expect(nextCursor(plan(['d00', 'd01'], true), ended(['d00', 'd01']), 'd01')).toBeUndefined();
		expect(nextCursor(plan(['d00', 'd01'], true), ended(['d00']), undefined)).toBe('d00');
	});
});

describe('accountLimitWatch', () => {
	const refused: ReadOutcome = { ok: false, error: declare(new Error('429'), { cause: 'rate-limited', retryAfterMs: 45_000 }) };
	const read: ReadOutcome = { ok: true, fixes: [] };
	const failed: ReadOutcome = { ok: false, error: declare(new Error('503'), { cause: 'temporarily-unavailable' }) };
	const answers = (watch: ReturnType<typeof accountLimitWatch>, outcomes: Array<[string, ReadOutcome]>) =>
		outcomes.map(([deviceId, outcome]) => watch(deviceId, outcome));

	it(`tells the account's limit after ${REFUSALS_OF_THE_ACCOUNT} rate-limited reads in a row, and keeps saying so`, () => {
		expect(answers(accountLimitWatch(new Set()), [['a', refused], ['b', refused], ['c', refused], ['d', read]])).toEqual([false, false, true, false]);
		expect(answers(accountLimitWatch(new Set()), [['a', refused], ['b', refused], ['c', refused], ['d', refused]])).toEqual([false, false, true, true]);
	});

	it('starts counting again after a read the service answered', () => {
		expect(answers(accountLimitWatch(new Set()), [['a', refused], ['b', refused], ['c', read], ['d', refused], ['e', refused]])).toEqual([false, false, false, false, false]);
	});

	it('does not count the devices retried after a failure, nor failures of another cause, and neither breaks the count', () => {
		const watch = accountLimitWatch(new Set(['r1', 'r2', 'r3']));
		expect(answers(watch, [['r1', refused], ['r2', refused], ['r3', refused], ['a', refused], ['b', failed], ['c', refused]])).toEqual([false, false, false, false, false, false]);
		expect(watch('d', refused)).toBe(true);
	});
});

describe('planReads', () => {
	const state: TriggerState = {
		version: 1,
		devices: { d00: { fix: { at: iso(-5), lat: 0, lon: 1 } }, d01: { since: iso(-3) }, d03: { fix: { at: iso(5), lat: 0, lon: 1 } } },
	};
	const dayAhead = iso(24 * 60);
	it('reads the last fix per device in Latest-fix mode, with the recent range to fall back on', () => {
		expect(planReads(ids(3), state, 'latestFix', Infinity, now).reads).toEqual([
			{ deviceId: 'd00', kind: 'last', recent: { from: iso(-5), to: dayAhead } },
			{ deviceId: 'd01', kind: 'last', recent: { from: iso(-3), to: dayAhead } },
			{ deviceId: 'd02', kind: 'last', recent: { from: iso(-24 * 60), to: dayAhead } },
		]);
	});
	it('reads from the late window before the newest fix seen to a day ahead in Every-fix mode; a new device gets its baseline from its last fix', () => {
		expect(planReads(ids(4), state, 'everyFix', Infinity, now).reads).toEqual([
			{ deviceId: 'd00', kind: 'range', from: iso(-5 - 30), to: dayAhead },
			// Not reported at the last poll: a day back from it, as late as a fix may arrive (a batch uploaded late, a clock behind).
			{ deviceId: 'd01', kind: 'range', from: iso(-3 - 24 * 60), to: dayAhead },
			{ deviceId: 'd02', kind: 'last', recent: { from: iso(-24 * 60), to: dayAhead } },
			// A device whose clock runs ahead is read up to its newest fixes, not held back until real time catches up.
			{ deviceId: 'd03', kind: 'range', from: iso(5 - 30), to: dayAhead },
		]);
	});
});

describe('advance', () => {
	const plan = planOf(devices.map((d) => last(d.id)));
	const ok = (...fixes: Location[]): ReadOutcome => ({ ok: true, fixes });

	it('keeps the state of failed devices and retries them, while the others advance', () => {
		const first = advance(emptyState(), devices, plan, new Map(devices.map((d) => [d.id, ok(fix(0))])), settings, now);
		expect(first.events).toEqual([]);
		const outcomes = new Map<string, ReadOutcome>([
			['d00', ok(fix(1, 1))],
			['d01', { ok: false, error: new Error('boom') }],
			['d02', ok(fix(1, 1))],
			['d03', ok(fix(0))],
		]);
		const second = advance(frozen(first.state), devices, plan, outcomes, settings, now);
		expect(second.events.map((e) => e.deviceId)).toEqual(['d00', 'd02']);
		expect(second.failures).toEqual([{ deviceId: 'd01', error: new Error('boom') }]);
		expect(second.state.retry).toEqual(['d01']);
		expect(second.state.devices.d01).toEqual(first.state.devices.d01);
		const retried = new Map(outcomes).set('d01', ok(fix(1, 1)));
		const third = advance(frozen(second.state), devices, plan, retried, settings, now);
		expect(third.events.map((e) => e.deviceId)).toEqual(['d01']);
		expect(third.state.retry).toBeUndefined();
	});

	it('keeps unread devices as they were, and a device the listing leaves out marked absent until ABSENT_RETENTION_MS has passed', () => {
		const stored: TriggerState = {
			version: 1,
			devices: { d00: { fix: { at: iso(0), lat: 0, lon: 1 } }, d01: { since: iso(0) }, gone: { since: iso(0) } },
			cursor: 'd00',
		};
		const listed = devices.slice(0, 2);
		const readD00 = (state: TriggerState, at: Date) =>
			advance(frozen(state), listed, planOf([last('d00')], ['d00']), new Map([['d00', ok(fix(0))]]), settings, at);
		const result = readD00(stored, now);
		expect(Object.keys(result.state.devices)).toEqual(['d00', 'd01', 'gone']);
		expect(result.state.devices.d01).toEqual({ since: iso(0) });
		expect(result.state.devices.gone).toEqual({ since: iso(0), absentSince: now.toISOString() });
		expect(result.state.cursor).toBe('d00');
		// Still absent: the first absence counts, not the latest poll.
		const later = new Date(now.getTime() + ABSENT_RETENTION_MS - 1);
		expect(readD00(result.state, later).state.devices.gone).toEqual({ since: iso(0), absentSince: now.toISOString() });
		const expired = new Date(now.getTime() + ABSENT_RETENTION_MS);
		expect(Object.keys(readD00(readD00(result.state, later).state, expired).state.devices)).toEqual(['d00', 'd01']);
	});

	it('reads a device that was left out of a listing on from its newest fix seen when it is listed again', () => {
		const plan = planOf([{ deviceId: 'd00', kind: 'range' as const, from: iso(0), to: iso(30) }]);
		const first = advance(emptyState(), devices.slice(0, 1), planOf([last('d00')]), new Map([['d00', ok(fix(0))]]), settings, now);
		const missing = advance(frozen(first.state), [], planOf([]), new Map(), settings, new Date(now.getTime() + 10 * 60_000));
		expect(missing.events).toEqual([]);
		expect(missing.state.devices.d00).toMatchObject({ fix: first.state.devices.d00.fix, absentSince: iso(10) });
		const back = advance(frozen(missing.state), devices.slice(0, 1), plan, new Map([['d00', ok(fix(0), fix(12, 1), fix(15, 2), fix(20, 3))]]), settings, new Date(now.getTime() + 30 * 60_000));
		expect(back.events.map((e) => e.location?.dateTime)).toEqual([iso(12), iso(15), iso(20)]);
		expect(back.state.devices.d00).not.toHaveProperty('absentSince');
		// A device the listing left out and that was not read since its return is no longer marked absent either.
		const unread = advance(frozen(missing.state), devices.slice(0, 1), planOf([]), new Map(), settings, now);
		expect(unread.state.devices.d00).toEqual(first.state.devices.d00);
	});

	it('remembers since when a device that never reported was read, so Every-fix mode reads from there', () => {
		const result = advance(
			emptyState(),
			devices.slice(0, 1),
			planOf([{ deviceId: 'd00', kind: 'range', from: iso(-9), to: iso(0) }]),
			new Map([['d00', ok()]]),
			settings,
			now,
		);
		expect(result.state.devices.d00).toEqual({ since: iso(0) });
	});
});

describe('sampleEvents', () => {
	const outcomes = new Map<string, ReadOutcome>([
		['d00', { ok: true, fixes: [fix(-90)] }],
		['d01', { ok: true, fixes: [fix(-20, 0.001)] }],
		['d02', { ok: true, fixes: [] }],
	]);
	// Version 1's samples: triggerSamples.test.ts holds version 2's to their consistency.
	const sample = (extra: Partial<DetectionSettings>) => sampleEvents(devices.slice(0, 3), outcomes, detectionSettings(extra), now, false);

	it('shows the current state of the selected events as it is', () => {
		const silent = sample({ events: ['deviceSilent'] });
		expect(silent.map((e) => [e.event, e.deviceId, e.silentForMinutes, e.sample])).toEqual([['deviceSilent', 'd00', 90, undefined]]);
	});

	it('shows a selected event that did not happen by a sample of its kind, from the device with the newest fix', () => {
		const depot = circleGeofence('Depot', 0, 1, 1000);
		const far = circleGeofence('Far', 40, 40, 1000);
		if (!depot.ok || !far.ok) throw new Error('geofence');
		const [exit] = sample({ events: ['geofenceExited'], geofences: [depot.value, far.value] });
		// The fix lies inside Depot and outside Far: an exit from Far is what the sample shows.
		expect(exit).toEqual({
			event: 'geofenceExited',
			eventId: expect.stringMatching(/^sample-/),
			deviceId: 'd01',
			deviceName: 'Device 1',
			location: fix(-20, 0.001),
			geofence: 'Far',
			sample: true,
		});
		// d00 and d01 are inside Depot: those entries are real current state, no samples.
		const entries = sample({ events: ['geofenceEntered'], geofences: [depot.value, far.value] });
		expect(entries.map((e) => [e.event, e.deviceId, e.geofence, e.sample])).toEqual([
			['geofenceEntered', 'd00', 'Depot', undefined],
			['geofenceEntered', 'd01', 'Depot', undefined],
		]);
		const [alert] = sample({ events: ['criticalAlert'], alertFilter: ['sos'] });
		expect(alert).toMatchObject({ event: 'criticalAlert', deviceId: 'd01', alerts: ['sos'], sample: true });
		const [expiring] = sample({ events: ['deviceExpiring'], expiringWithinDays: 3 });
		expect(expiring).toMatchObject({ event: 'deviceExpiring', expires: new Date(now.getTime() + 3 * 86_400_000).toISOString(), sample: true });
		const [silent] = sample({ events: ['deviceSilent'], silentAfterMinutes: 120 });
		expect(silent).toMatchObject({ event: 'deviceSilent', deviceId: 'd01', silentForMinutes: 20, sample: true });
	});

	it('gives a sample an id no real event has', () => {
		const [real] = sample({ events: ['deviceSilent'] });
		const [fake] = sample({ events: ['deviceSilent'], silentAfterMinutes: 120 });
		expect(fake.eventId).not.toBe(real.eventId);
		const [again] = sample({ events: ['deviceSilent'], silentAfterMinutes: 120 });
		expect(again.eventId).toBe(fake.eventId);
	});

	it('returns nothing when no device was read', () => {
		expect(sampleEvents([], new Map(), detectionSettings({ events: ['geofenceExited'] }), now, true)).toEqual([]);
	});
});
