/** Read Priority (issue 50): the order a poll cut short reads in, and the bound on how long a device goes unread. */
import { advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { planReads } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { likelyActive, markReads, pickByPriority, withReadMarks, type PrioritySettings } from '../../nodes/SatelliteTrackingTrigger/detection/priority';
import { emptyState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type { DeviceState, TriggerState } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings, frozen } from '../support/trigger';

const MINUTE = 60_000;
const T0 = Date.parse('2026-03-02T08:00:00Z');
const at = (minute: number) => new Date(T0 + minute * MINUTE);
const seconds = (minute: number) => Math.floor(at(minute).getTime() / 1000);
const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i).padStart(3, '0')}`);
const activeFirst = (maxStaleMinutes: number): PrioritySettings => ({ readPriority: 'activeFirst', maxStaleMs: maxStaleMinutes * MINUTE });
const stateOf = (devices: Record<string, DeviceState>, extra: Partial<TriggerState> = {}): TriggerState =>
	frozen({ ...emptyState(), started: true, devices, ...extra });
const seen = { at: at(-1).toISOString(), lat: 10, lon: 1 };

describe('pickByPriority', () => {
	it('reads the devices due under the bound first, then the likely active, then the longest unread; ties in id order', () => {
		const state = stateOf(
			{
				a: { fix: seen, readAt: seconds(-3) },
				b: { fix: seen, readAt: seconds(-9), moving: true },
				c: { fix: seen, readAt: seconds(-14) },
				d: { fix: seen, readAt: seconds(-5) },
				e: { fix: seen, readAt: seconds(-2), trips: { mode: 'trip', count: 3, reach: 0, lastMovingAt: 0 } },
				f: { fix: seen, readAt: seconds(-5) },
			},
			{ polledAt: seconds(-1) },
		);
		// Bound 14 minutes, polls a minute apart: c (14) would be 15 by the next poll; g was never read.
		const { picked, overdue } = pickByPriority(['a', 'b', 'c', 'd', 'e', 'f', 'g'], state, 7, at(0), 14 * MINUTE);
		expect(picked).toEqual(['g', 'c', 'b', 'e', 'd', 'f', 'a']);
		expect(overdue).toBe(0);
		expect(pickByPriority(['a', 'b', 'c', 'd', 'e', 'f', 'g'], state, 3, at(0), 14 * MINUTE).picked).toEqual(['g', 'c', 'b']);
	});

	it('counts the devices past the bound that it has no room for', () => {
		const state = stateOf({ a: { readAt: seconds(-20) }, b: { readAt: seconds(-30) }, c: { readAt: seconds(-1) } }, { polledAt: seconds(-1) });
		expect(pickByPriority(['a', 'b', 'c'], state, 1, at(0), 10 * MINUTE)).toEqual({ picked: ['b'], overdue: 1 });
	});
});

describe('likelyActive', () => {
	const active = (device: DeviceState | undefined) => likelyActive(device, at(0), 15 * MINUTE);
	const trip = { mode: 'trip', count: 3, reach: 0, lastMovingAt: 0 } as const;

	it('moving, in a trip or about to confirm one, a geofence side, stay or idling pending; not a parked device', () => {
		expect(active(undefined)).toBe(false);
		expect(active({ fix: seen })).toBe(false);
		expect(active({ fix: seen, moving: true })).toBe(true);
		expect(active({ fix: seen, trips: { ...trip, mode: 'stop' } })).toBe(false);
		expect(active({ fix: seen, trips: trip })).toBe(true);
		expect(active({ fix: seen, trips: { ...trip, mode: 'stop', candidate: { from: 0, to: 0 } as never } })).toBe(true);
		expect(active({ fix: seen, turning: { depot: at(0).toISOString() } })).toBe(true);
		expect(active({ fix: seen, turning: {} })).toBe(false);
		expect(active({ fix: seen, stays: { depot: '' } })).toBe(false);
		expect(active({ fix: seen, stays: { depot: at(0).toISOString() } })).toBe(true);
		expect(active({ fix: seen, idleSince: '' })).toBe(false);
		expect(active({ fix: seen, idleSince: at(0).toISOString() })).toBe(true);
	});

	it('not a device silent longer than the bound, whatever state it was left in (switched off mid-trip)', () => {
		const silent = { ...seen, at: at(-16).toISOString() };
		expect(active({ fix: silent, trips: trip, turning: { depot: at(-20).toISOString() }, idleSince: at(-30).toISOString() })).toBe(false);
		expect(active({ fix: { ...seen, at: at(-15).toISOString() }, trips: trip })).toBe(true);
	});
});

describe('planReads with Read Priority', () => {
	const state = stateOf({ d000: { fix: seen, readAt: seconds(-1) }, d001: { fix: seen, readAt: seconds(-1), moving: true } }, { cursor: 'd001', retry: ['d003'] });

	it('reads exactly what rotate reads when the budget covers the fleet', () => {
		const rotate = planReads(ids(4), state, 'latestFix', 4, at(0));
		expect(planReads(ids(4), state, 'latestFix', 4, at(0), undefined, activeFirst(15))).toEqual(rotate);
		expect(rotate.complete).toBe(true);
	});

	it('keeps the failed devices first, then its own order, and leaves the round robin where it was', () => {
		const plan = planReads(ids(4), state, 'latestFix', 3, at(0), undefined, activeFirst(15));
		// d003 retried; d002 never read (longest unread); then the moving d001 ahead of the parked d000.
		expect(plan.reads.map((read) => read.deviceId)).toEqual(['d003', 'd002', 'd001']);
		expect(plan.rotation).toEqual([]);
		expect(plan.overdue).toBe(0);
	});
});

describe('markReads', () => {
	const before = stateOf({ p: { fix: seen, readAt: seconds(-10) }, m: { fix: seen, moving: true }, f: { fix: seen, readAt: seconds(-4) } });
	const wander: Location = { dateTime: at(0).toISOString(), latitude: 10.0003, longitude: 1 };
	const drive: Location = { dateTime: at(0).toISOString(), latitude: 10.01, longitude: 1 };

	it('stamps the devices read or sent, and whether their fixes show them moving; a failed read keeps its stamp', () => {
		const outcomes = new Map<string, ReadOutcome>([
			['p', { ok: true, fixes: [wander] }],
			['m', { ok: true, fixes: [{ ...wander, speed: 40 }] }],
			['f', { ok: false, error: new Error('503') }],
		]);
		const marked = markReads(before, before, outcomes, new Set(), at(0));
		expect(marked.polledAt).toBe(seconds(0));
		expect(marked.devices).toEqual({
			p: { fix: seen, readAt: seconds(0) },
			m: { fix: seen, readAt: seconds(0), moving: true },
			f: { fix: seen, readAt: seconds(-4) },
		});
		// Far from the fix before, without a speed; a device that stops loses the mark.
		const next = markReads(before, before, new Map<string, ReadOutcome>([['p', { ok: true, fixes: [drive] }], ['m', { ok: true, fixes: [] }]]), new Set(['f']), at(0));
		expect([next.devices.p.moving, next.devices.m.moving, next.devices.f.readAt]).toEqual([true, undefined, seconds(0)]);
	});

	it('only when activeFirst had to choose: a poll that read every device, or rotate, saves the state as detection left it', () => {
		const outcomes = new Map<string, ReadOutcome>([['p', { ok: true, fixes: [wander] }]]);
		expect(withReadMarks(before, before, { complete: true }, outcomes, new Set(), at(0), activeFirst(15))).toBe(before);
		expect(withReadMarks(before, before, { complete: false }, outcomes, new Set(), at(0), { readPriority: 'rotate', maxStaleMs: MINUTE })).toBe(before);
		expect(withReadMarks(before, before, { complete: false }, outcomes, new Set(), at(0), activeFirst(15)).devices.p.readAt).toBe(seconds(0));
	});

	it('not moving for the fixes of the late window read again: only fixes newer than the newest processed count', () => {
		// A range read starts half an hour before the newest fix processed: a drive that ended then is in it.
		const parked = stateOf({ p: { fix: { ...seen, at: at(-2).toISOString() } } });
		const drove: Location = { dateTime: at(-20).toISOString(), latitude: 10.2, longitude: 1, speed: 60 };
		const standing: Location = { dateTime: at(0).toISOString(), latitude: 10, longitude: 1, speed: 0 };
		const marked = markReads(parked, parked, new Map<string, ReadOutcome>([['p', { ok: true, fixes: [drove, standing] }]]), new Set(), at(0));
		expect(marked.devices.p.moving).toBeUndefined();
	});
});

/**
 * A pure fleet: `n` devices, the ones `driving(minute)` names report a fix a minute at driving speed
 * (`silent` ones none), the rest stand; polled every minute with `budget` reads, trips watched.
 * Returns the longest any device went unread (minutes) and, for each device, the polls that read it.
 */
function simulate(
	n: number,
	budget: number,
	minutes: number,
	maxStaleMinutes: number,
	driving: (device: number, minute: number) => boolean,
	listed = (_minute: number) => ids(n),
	silent = (_device: number, _minute: number) => false,
) {
	const settings = detectionSettings({ events: ['locationUpdated', 'tripStarted'], trip: TRIP_DEFAULTS });
	let state: TriggerState = emptyState();
	const lastRead = new Map<string, number>();
	const travelled = new Map<number, number>();
	let longest = 0;
	const readsOf = new Map<string, number[]>();
	for (let minute = 0; minute < minutes; minute++) {
		const now = at(minute);
		for (let index = 0; index < n; index++) if (driving(index, minute)) travelled.set(index, (travelled.get(index) ?? 0) + 1);
		const deviceIds = listed(minute);
		const plan = planReads(deviceIds, state, 'latestFix', budget, now, undefined, activeFirst(maxStaleMinutes));
		const outcomes = new Map<string, ReadOutcome>();
		for (const { deviceId } of plan.reads) {
			const index = Number(deviceId.slice(1));
			const moving = driving(index, minute);
			const fix: Location = { dateTime: now.toISOString(), latitude: 10 + (travelled.get(index) ?? 0) / 100, longitude: 1 + index / 1000, speed: moving ? 50 : 0 };
			outcomes.set(deviceId, { ok: true, fixes: silent(index, minute) ? [] : [fix] });
			readsOf.set(deviceId, [...(readsOf.get(deviceId) ?? []), minute]);
		}
		const devices = deviceIds.map((id) => ({ id, name: id }));
		state = markReads(state, advance(state, devices, plan, outcomes, settings, now).state, outcomes, new Set(), now);
		for (const deviceId of deviceIds) {
			if (outcomes.has(deviceId)) lastRead.set(deviceId, minute);
			else if (lastRead.has(deviceId)) longest = Math.max(longest, minute - lastRead.get(deviceId)!);
		}
	}
	return { longest, readsOf };
}

describe('the staleness bound', () => {
	it('100 devices, 10 reads a minute, 10 driving at a time: none unread longer than Max Stale Minutes, the driving ones read far more often', () => {
		const driving = (device: number, minute: number) => device % 10 === Math.floor(minute / 30) % 10;
		const { longest, readsOf } = simulate(100, 10, 240, 20, driving);
		expect(longest).toBeLessThanOrEqual(20);
		// Device 5 drives in minutes 150–179: seen within the bound of its start, then read most minutes
		// (rotate reads each device every 10 minutes here; the due parked devices take the rest).
		const reads = (readsOf.get('d005') ?? []).filter((minute) => minute >= 150 && minute < 180);
		expect(reads[0]).toBeLessThanOrEqual(150 + 20);
		expect(reads.length).toBeGreaterThanOrEqual((180 - reads[0]) / 2);
	});

	it('a device switched off mid-drive stops taking a read every poll once it has been silent past the bound', () => {
		// Device 0 drives from minute 0 and falls silent at minute 10, in its trip; the rest stand.
		const { readsOf } = simulate(30, 3, 80, 15, (device, minute) => device === 0 && minute < 10, undefined, (device, minute) => device === 0 && minute >= 10);
		// Read at most every 14 minutes once silent past the bound, as a standing device is.
		expect((readsOf.get('d000') ?? []).filter((minute) => minute >= 40).length).toBeLessThanOrEqual(4);
	});

	it('a bound the budget cannot keep is reported, not silently broken: overdue devices are counted', () => {
		const state = stateOf(Object.fromEntries(ids(100).map((id) => [id, { readAt: seconds(-30) }])), { polledAt: seconds(-1) });
		const plan = planReads(ids(100), state, 'latestFix', 10, at(0), undefined, activeFirst(20));
		expect(plan.overdue).toBe(90);
	});

	it('devices added and removed between polls: a new one is read at once, one back after an absence is read first', () => {
		const listed = (minute: number) => ids(60).filter((id) => !(id === 'd050' && minute >= 10 && minute < 40) && !(id === 'd059' && minute < 25));
		const { longest, readsOf } = simulate(60, 6, 80, 15, () => false, listed);
		expect(longest).toBeLessThanOrEqual(15);
		expect(readsOf.get('d059')?.[0]).toBe(25);
		expect(readsOf.get('d050')?.filter((minute) => minute >= 40)[0]).toBe(40);
	});
});
