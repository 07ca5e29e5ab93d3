import { circleGeofence, type Geofence } from '../../nodes/shared/geo/geofence';
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { freshFixes } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import type { DetectionSettings, DeviceInfo, DeviceState, EventKind } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings, pollDevice } from '../support/trigger';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const minutes = (n: number) => new Date(T0 + n * 60_000);
const iso = (n: number) => minutes(n).toISOString();

function fix(minute: number, latitude = 0, longitude = 0, extra: Partial<Location> = {}): Location {
	// Longitude 1, not 0: a fix at (0, 0) is no position (a tracker without a lock).
	return { dateTime: iso(minute), latitude, longitude: longitude + 1, ...extra };
}

function fenceOf(check: ReturnType<typeof circleGeofence>): Geofence {
	if (!check.ok) throw new Error(check.problem);
	return check.value;
}

const depot = fenceOf(circleGeofence('Depot', 0, 1, 1000));
const device: DeviceInfo = { id: 'dev-1', name: 'Truck 01', expires: null };

function settings(events: EventKind[], extra: Partial<DetectionSettings> = {}): DetectionSettings {
	return detectionSettings({ events, geofences: [depot], silentAfterMinutes: 30, ...extra });
}

/** Runs polls in sequence, carrying the state; returns the event names per poll. */
function run(
	polls: Array<{ fixes: Location[]; at: number; device?: DeviceInfo }>,
	options: DetectionSettings,
	start?: DeviceState,
) {
	const { events: all, state } = pollDevice(device, polls.map((poll) => ({ ...poll, now: minutes(poll.at) })), options, start);
	const seen = all.map((events) => events.map((event) => event.event + (event.geofence ? `:${event.geofence}` : '')));
	return { seen, all, state };
}

describe('freshFixes', () => {
	it('sorts out-of-order fixes and drops duplicates', () => {
		const { fresh, fix: last } = freshFixes({}, [fix(3, 3), fix(1, 1), fix(2, 2), fix(1, 1)]);
		expect(fresh.map((f) => f.latitude)).toEqual([1, 2, 3]);
		expect(last).toEqual({ at: iso(3), lat: 3, lon: 1 });
	});

	it('keeps distinct fixes that share a timestamp, in the order the API sent them', () => {
		const { fresh, keys } = freshFixes({}, [fix(5, 1), fix(5, 2)]);
		expect(fresh.map((f) => f.latitude)).toEqual([1, 2]);
		expect(keys).toHaveLength(2);
	});

	it('drops what was processed: older fixes, and the same fix at the newest timestamp', () => {
		const first = freshFixes({}, [fix(5, 1)]);
		const again = freshFixes(first, [fix(4, 9), fix(5, 1), fix(5, 2), fix(6, 3)]);
		expect(again.fresh.map((f) => f.latitude)).toEqual([2, 3]);
		const repeat = freshFixes(first, [fix(5, 1)]);
		expect(repeat.fresh).toEqual([]);
		expect(repeat.fix).toEqual(first.fix);
	});

	it('remembers every fix at the newest timestamp, so a third one there is still new', () => {
		const first = freshFixes({}, [fix(5, 1)]);
		const second = freshFixes(first, [fix(5, 1), fix(5, 2)]);
		expect(second.fresh.map((f) => f.latitude)).toEqual([2]);
		const third = freshFixes(second, [fix(5, 1), fix(5, 2), fix(5, 3)]);
		expect(third.fresh.map((f) => f.latitude)).toEqual([3]);
	});

	it('reports each of more than 400 fixes sharing a timestamp once, however often they are read again', () => {
		const burst = Array.from({ length: 410 }, (_, i) => fix(5, i / 1000));
		let state = freshFixes({}, [fix(4, 9)]);
		const reported: number[] = [];
		for (let poll = 0; poll < 5; poll++) {
			state = freshFixes(state, [fix(4, 9), ...burst]);
			reported.push(...state.fresh.map((f) => f.latitude));
		}
		expect(reported).toEqual(burst.map((f) => f.latitude));
		// The state keeps the newest 400 fingerprints and how many share the timestamp, not a key per fix.
		expect(state.keys).toHaveLength(400);
		expect(state.count).toBe(410);
		const late = fix(5, 0.5);
		const withLate = freshFixes(state, [...burst, late]);
		expect(withLate.fresh).toEqual([late]);
		expect(freshFixes(withLate, [...burst, late]).fresh).toEqual([]);
		// A newer fix starts over with keys.
		const next = freshFixes(withLate, [...burst, late, fix(6, 1)]);
		expect(next.fresh.map((f) => f.latitude)).toEqual([1]);
		expect(next.keys).toHaveLength(1);
		expect(next.count).toBeUndefined();
	});

	it('keeps up to 400 fixes sharing a timestamp as keys, in any order, and counts them from the 401st', () => {
		const all = Array.from({ length: 400 }, (_, i) => fix(5, i / 100));
		const kept = freshFixes({}, all);
		expect(kept.keys).toHaveLength(400);
		expect(freshFixes(kept, [...all].reverse()).fresh).toEqual([]);
		const more = freshFixes(kept, [fix(5, 4)]);
		expect(more.fresh.map((f) => f.latitude)).toEqual([4]);
		expect(more.count).toBe(1);
		expect(freshFixes(more, [...all, fix(5, 4)]).fresh).toEqual([]);
	});

	it('400 readings at one timestamp (a day and more of a tracker without a GPS lock), one at a time (Latest Fix) or as a growing series (Every Fix): each new once', () => {
		const readings = Array.from({ length: 400 }, (_, i) => fix(5, 10 + i / 10_000));
		let latest = freshFixes({}, [readings[0]], undefined, true);
		let every = latest;
		const fromLatest: number[] = [];
		const fromEvery: number[] = [];
		for (let i = 1; i < readings.length; i++) {
			latest = freshFixes(latest, [readings[i]], undefined, true);
			every = freshFixes(every, readings.slice(0, i + 1), undefined, true);
			fromLatest.push(...latest.fresh.map((f) => f.latitude));
			fromEvery.push(...every.fresh.map((f) => f.latitude));
			// Read again: nothing new.
			expect(freshFixes(latest, [readings[i]], undefined, true).fresh).toEqual([]);
		}
		expect(fromLatest).toEqual(readings.slice(1).map((f) => f.latitude));
		expect(fromEvery).toEqual(readings.slice(1).map((f) => f.latitude));
		expect(JSON.stringify(every).length).toBeLessThan(JSON.stringify(readings).length);
	});

	it('a state saved with the Bloom digest is read until the timestamp moves on', () => {
		const digest = '0'.repeat(256);
		const legacy = { fix: { at: iso(5), lat: 0, lon: 1 }, digest };
		expect(freshFixes(legacy, [fix(5, 3)]).fresh.map((f) => f.latitude)).toEqual([3]);
		const full = { ...legacy, digest: 'f'.repeat(256) };
		expect(freshFixes(full, [fix(5, 3)]).fresh).toEqual([]);
		const moved = freshFixes(full, [fix(6, 4)]);
		expect(moved.fresh.map((f) => f.latitude)).toEqual([4]);
		expect(moved.digest).toBeUndefined();
	});

	it('tells a fix uploaded late, within the window before the newest one, from the fixes the last range read held: once', () => {
		// A range read from minute -30 held fixes at 1 and 4; the newest processed is 4.
		const read = freshFixes({}, [fix(1, 1), fix(4, 4)], undefined, false, Date.parse(iso(-30)));
		expect(read.seenKeys).toHaveLength(1);
		const late = fix(2, 2, 0, { alertTexts: ['SOS'] });
		const next = freshFixes(read, [fix(1, 1), late, fix(4, 4), fix(6, 6)], undefined, false, Date.parse(iso(-26)));
		expect(next.late).toEqual([late]);
		expect(next.fresh.map((f) => f.latitude)).toEqual([6]);
		expect(freshFixes(next, [fix(1, 1), late, fix(4, 4), fix(6, 6)], undefined, false, Date.parse(iso(-24))).late).toEqual([]);
		// Before where the last read began, or without one (a state saved before, a last-location read): not late.
		expect(freshFixes({ ...read, seenSince: iso(3) }, [late, fix(4, 4)]).late).toEqual([]);
		expect(freshFixes({ fix: read.fix }, [late, fix(4, 4)]).late).toEqual([]);
	});

	it('in a range read, leaves out a lone fix ahead of the poll (a glitch) but takes a clock running ahead once its fixes come in pairs', () => {
		const range = (state: Parameters<typeof freshFixes>[0], fixes: Location[], atMinute: number) => freshFixes(state, fixes, minutes(atMinute), false, Date.parse(iso(atMinute - 60)));
		const seen = range({}, [fix(0, 0)], 0);
		// 20 hours ahead of the poll, nothing near it: left out, the real fix after it taken.
		const glitch = fix(20 * 60, 9);
		const withGlitch = range(seen, [fix(0, 0), fix(4, 1), glitch], 5);
		expect(withGlitch.fresh.map((f) => f.latitude)).toEqual([1]);
		// A device whose clock runs 3 hours ahead, after an hour and more of silence: its first fix waits for the next.
		const ahead = (minute: number, latitude: number) => fix(minute + 180, latitude);
		const first = range(withGlitch, [fix(4, 1), ahead(90, 2)], 95);
		expect(first.fresh).toEqual([]);
		const both = range(first, [fix(4, 1), ahead(90, 2), ahead(95, 3)], 100);
		expect(both.fresh.map((f) => f.latitude)).toEqual([2, 3]);
		expect(range(both, [ahead(90, 2), ahead(95, 3), ahead(100, 4)], 105).fresh.map((f) => f.latitude)).toEqual([4]);
	});

	it('ignores fixes without a usable time or position', () => {
		const broken = [{ dateTime: 'yesterday', latitude: 1, longitude: 1 }, { dateTime: iso(1), latitude: Number.NaN, longitude: 0 }];
		expect(freshFixes({}, broken as Location[]).fresh).toEqual([]);
	});
});

describe('detectDeviceEvents', () => {
	it('records a baseline on first sight and reports nothing', () => {
		const result = detectDeviceEvents(undefined, device, [fix(0, 0, 0, { hasCriticalAlert: true })], settings([
			'locationUpdated',
			'geofenceEntered',
			'criticalAlert',
		]), minutes(0));
		expect(result.events).toEqual([]);
		expect(result.state.fix).toEqual({ at: iso(0), lat: 0, lon: 1 });
		expect(result.state.fences).toEqual({ [depot.id]: true });
	});

	it('reports the current state on first sight when asked to', () => {
		const current = detectDeviceEvents(
			undefined,
			{ ...device, expires: iso(60 * 24) },
			[fix(0, 0, 0, { alertTexts: ['SOS'] })],
			settings(['locationUpdated', 'geofenceEntered', 'criticalAlert', 'deviceExpiring', 'deviceSilent'], {
				emitCurrentState: true,
			}),
			minutes(45),
		);
		expect(current.events.map((event) => event.event)).toEqual([
			'locationUpdated',
			'geofenceEntered',
			'criticalAlert',
			'deviceSilent',
			'deviceExpiring',
		]);
		expect(current.events[0].previousLocation).toBeNull();
		expect(current.events[3].silentForMinutes).toBe(45);
	});

	it('reports each newer fix once, with the previous position and the distance', () => {
		const { seen, all } = run(
			[
				{ fixes: [fix(0, 0, 0)], at: 0 },
				{ fixes: [fix(0, 0, 0)], at: 1 },
				{ fixes: [fix(2, 0.01, 0)], at: 2 },
				{ fixes: [fix(2, 0.01, 0)], at: 3 },
			],
			settings(['locationUpdated']),
		);
		expect(seen).toEqual([[], [], ['locationUpdated'], []]);
		expect(all[2][0]).toMatchObject({
			deviceId: 'dev-1',
			deviceName: 'Truck 01',
			location: { dateTime: iso(2), latitude: 0.01 },
			previousLocation: { dateTime: iso(0), latitude: 0, longitude: 1 },
			distanceMeters: 1112,
		});
	});

	it('holds back fixes under the minimum distance until the movement adds up', () => {
		const step = 0.0002; // ~22 m
		const { seen, all, state } = run(
			[
				{ fixes: [fix(0, 0, 0)], at: 0 },
				{ fixes: [fix(1, step, 0)], at: 1 },
				{ fixes: [fix(2, 2 * step, 0)], at: 2 },
				{ fixes: [fix(3, 3 * step, 0)], at: 3 },
			],
			settings(['locationUpdated'], { minDistanceMeters: 50 }),
		);
		expect(seen).toEqual([[], [], [], ['locationUpdated']]);
		expect(all[3][0].previousLocation).toEqual({ dateTime: iso(0), latitude: 0, longitude: 1 });
		expect(all[3][0].distanceMeters).toBeCloseTo(66.7, 0);
		expect(state.ref).toBeUndefined();
	});

	it('reports entries and exits fix by fix, naming the geofence, and orders out-of-order fixes first', () => {
		const far = 0.1; // ~11 km: outside the 1 km depot
		const { seen, all } = run(
			[
				{ fixes: [fix(0, far, 0)], at: 0 },
				{ fixes: [fix(3, far, 0), fix(1, 0, 0), fix(2, 0.001, 0)], at: 3 },
				{ fixes: [fix(4, 0, 0)], at: 4 },
				{ fixes: [fix(5, far, 0)], at: 5 },
			],
			settings(['geofenceEntered', 'geofenceExited']),
		);
		expect(seen).toEqual([[], ['geofenceEntered:Depot', 'geofenceExited:Depot'], ['geofenceEntered:Depot'], ['geofenceExited:Depot']]);
		expect(all[1].map((event) => event.location?.dateTime)).toEqual([iso(1), iso(3)]);
	});

	it('starts a geofence added later from where the device was, without an event', () => {
		const { state } = run([{ fixes: [fix(0, 0, 0)], at: 0 }], settings(['geofenceEntered'], { geofences: [] }));
		expect(state.fences).toBeUndefined();
		const later = detectDeviceEvents(state, device, [fix(1, 0, 0)], settings(['geofenceEntered']), minutes(1));
		expect(later.events).toEqual([]);
		expect(later.state.fences).toEqual({ [depot.id]: true });
		const current = detectDeviceEvents(state, device, [], settings(['geofenceEntered'], { emitCurrentState: true }), minutes(1));
		expect(current.events.map((event) => [event.event, event.location?.dateTime])).toEqual([['geofenceEntered', iso(0)]]);
	});

	it('drops the records of geofences that were removed', () => {
		const other = fenceOf(circleGeofence('Other', 5, 6, 100));
		const { state } = run([{ fixes: [fix(0)], at: 0 }], settings(['geofenceExited'], { geofences: [depot, other] }));
		expect(Object.keys(state.fences!)).toHaveLength(2);
		const next = detectDeviceEvents(state, device, [fix(1)], settings(['geofenceExited']), minutes(1));
		expect(Object.keys(next.state.fences!)).toEqual([depot.id]);
	});

	it('reports a silence once, and again only after the device reported and fell silent anew', () => {
		const polls = [
			{ fixes: [fix(0)], at: 0 },
			{ fixes: [fix(0)], at: 20 },
			{ fixes: [fix(0)], at: 31 },
			{ fixes: [fix(0)], at: 50 },
			{ fixes: [fix(0), fix(55)], at: 56 },
			{ fixes: [fix(55)], at: 80 },
			{ fixes: [fix(55)], at: 86 },
			{ fixes: [fix(55)], at: 200 },
		];
		const { seen, all } = run(polls, settings(['deviceSilent']));
		expect(seen).toEqual([[], [], ['deviceSilent'], [], [], [], ['deviceSilent'], []]);
		expect(all[2][0]).toMatchObject({ silentForMinutes: 31, location: { dateTime: iso(0) } });
		expect(all[6][0]).toMatchObject({ silentForMinutes: 31, location: { dateTime: iso(55) } });
	});

	it('counts a fix that arrives late, already dated past Silent After, as heard: silent again only Silent After later', () => {
		// As a device whose clock runs behind sends every fix (issue 21, the red team): it reported
		// silent and back online at every poll while it sent a fix every few minutes.
		const { seen, all } = run(
			[
				{ fixes: [fix(0)], at: 0 },
				{ fixes: [fix(0)], at: 40 },
				{ fixes: [fix(0), fix(5)], at: 60 },
				{ fixes: [fix(0), fix(5)], at: 89 },
				{ fixes: [fix(0), fix(5)], at: 91 },
				{ fixes: [fix(0), fix(5)], at: 120 },
			],
			settings(['deviceSilent']),
		);
		expect(seen).toEqual([[], ['deviceSilent'], [], [], ['deviceSilent'], []]);
		expect(all[4][0]).toMatchObject({ silentForMinutes: 31, location: { dateTime: iso(5) } });
	});

	it('does not call a device that never reported silent', () => {
		const { seen } = run(
			[
				{ fixes: [], at: 0 },
				{ fixes: [], at: 500 },
			],
			settings(['deviceSilent']),
		);
		expect(seen).toEqual([[], []]);
	});

	it('reports alerts of new fixes, filtered by text', () => {
		const polls = [
			{ fixes: [fix(0)], at: 0 },
			{
				fixes: [
					fix(1, 0, 0, { alertTexts: ['Overspeed: 95 km/h'], alerts: ['Overspeed'] }),
					fix(2, 0, 0, { hasCriticalAlert: true, alertTexts: ['SOS button pressed'], alerts: ['SOS'] }),
					fix(3, 0, 0, { hasCriticalAlert: true }),
				],
				at: 3,
			},
			{ fixes: [fix(3, 0, 0, { hasCriticalAlert: true })], at: 4 },
		];
		const any = run(polls, settings(['criticalAlert']));
		expect(any.seen).toEqual([[], ['criticalAlert', 'criticalAlert', 'criticalAlert'], []]);
		expect(any.all[1][0].alerts).toEqual(['Overspeed: 95 km/h', 'Overspeed']);
		expect(any.all[1][2].alerts).toEqual([]);
		const sos = run(polls, settings(['criticalAlert'], { alertFilter: ['sos', 'power cut'] }));
		expect(sos.seen).toEqual([[], ['criticalAlert', 'criticalAlert'], []]);
		expect(sos.all[1][0]).toMatchObject({ alerts: ['SOS button pressed', 'SOS'], location: { dateTime: iso(2) } });
		// Flagged critical, with no text at all: the filter does not apply to it.
		expect(sos.all[1][1]).toMatchObject({ alerts: [], location: { dateTime: iso(3) } });
	});

	it('reports a fix flagged critical whatever the Alert Text Filter, with all its texts', () => {
		const polls = [
			{ fixes: [fix(0)], at: 0 },
			{
				fixes: [
					fix(1, 0, 0, { hasCriticalAlert: true, alertTexts: ['External power disconnected'], alerts: ['Power cut'] }),
					fix(2, 0, 0, { hasCriticalAlert: false, alertTexts: ['Overspeed: 95 km/h'], alerts: ['Overspeed'] }),
				],
				at: 2,
			},
		];
		const { seen, all } = run(polls, settings(['criticalAlert'], { alertFilter: ['sos'] }));
		expect(seen).toEqual([[], ['criticalAlert']]);
		expect(all[1][0]).toMatchObject({ alerts: ['External power disconnected', 'Power cut'], location: { dateTime: iso(1) } });
	});

	it('warns once per device and expiry date, again when the date changes', () => {
		const expiring = (days: number) => ({ ...device, expires: iso(days * 24 * 60) });
		const polls = [
			{ fixes: [fix(0)], at: 0, device: expiring(30) },
			{ fixes: [fix(0)], at: 1, device: expiring(7) },
			{ fixes: [fix(0)], at: 2, device: expiring(7) },
			{ fixes: [fix(0)], at: 3, device: expiring(400) },
			{ fixes: [fix(0)], at: 4, device: expiring(5) },
			{ fixes: [fix(0)], at: 5, device: expiring(5) },
			{ fixes: [fix(0)], at: 6, device: { ...device, expires: iso(-10) } },
		];
		const { seen, all } = run(polls, settings(['deviceExpiring']));
		expect(seen).toEqual([[], ['deviceExpiring'], [], [], ['deviceExpiring'], [], []]);
		expect(all[1][0]).toMatchObject({ expires: iso(7 * 24 * 60), location: { dateTime: iso(0) } });
	});

	it('only reports the selected events but keeps geofence state for either direction', () => {
		const far = 0.1;
		const { seen } = run(
			[
				{ fixes: [fix(0, 0, 0)], at: 0 },
				{ fixes: [fix(1, far, 0)], at: 1 },
				{ fixes: [fix(2, 0, 0)], at: 2 },
			],
			settings(['geofenceEntered']),
		);
		expect(seen).toEqual([[], [], ['geofenceEntered:Depot']]);
	});

	it('orders the events of one fix: move, exit, entry, alert', () => {
		const a = fenceOf(circleGeofence('A', 0, 1, 1000));
		const b = fenceOf(circleGeofence('B', 0, 1.05, 1000));
		const { seen } = run(
			[
				{ fixes: [fix(0, 0, 0)], at: 0 },
				{ fixes: [fix(1, 0, 0.05, { alertTexts: ['SOS'] })], at: 1 },
			],
			settings(['criticalAlert', 'geofenceEntered', 'geofenceExited', 'locationUpdated'], { geofences: [a, b] }),
		);
		expect(seen[1]).toEqual(['locationUpdated', 'geofenceExited:A', 'geofenceEntered:B', 'criticalAlert']);
	});

	it('keeps state compact: only the slices of selected events', () => {
		const { state } = run([{ fixes: [fix(0)], at: 0 }], settings(['locationUpdated']));
		expect(state).toEqual({ fix: { at: iso(0), lat: 0, lon: 1 }, keys: [expect.any(String)] });
	});

	it('gives each event an id that is the same whichever poll reports it, and different for different events', () => {
		const a = fenceOf(circleGeofence('A', 0, 1, 1000));
		const b = fenceOf(circleGeofence('B', 0, 1.001, 1000));
		const options = settings(['locationUpdated', 'geofenceEntered', 'geofenceExited', 'criticalAlert'], { geofences: [a, b] });
		const start = run([{ fixes: [fix(0, 0.1, 0.1)], at: 0 }], options).state;
		const fixes = [fix(1, 0, 0, { alertTexts: ['SOS'] }), fix(1, 0, 0), fix(2, 0.1, 0.1)];
		const first = detectDeviceEvents(start, device, fixes, options, minutes(3)).events;
		// The poll repeated a minute later from the same saved state, with one more fix since.
		const repeated = detectDeviceEvents(JSON.parse(JSON.stringify(start)), device, [...fixes, fix(4, 0.2, 0.2)], options, minutes(4)).events;
		expect(repeated.slice(0, first.length).map((e) => e.eventId)).toEqual(first.map((e) => e.eventId));
		// Two moves at one time and place that differ by an alert, an entry into each of two geofences
		// from one fix, an alert of that fix, and the exits: all told apart.
		expect(first.map((e) => e.event + (e.geofence ?? ''))).toEqual([
			'locationUpdated',
			'locationUpdated',
			'geofenceEnteredA',
			'geofenceEnteredB',
			'criticalAlert',
			'locationUpdated',
			'geofenceExitedA',
			'geofenceExitedB',
		]);
		expect(new Set(first.map((e) => e.eventId)).size).toBe(first.length);
		expect(first.every((e) => /^[0-9a-z]{13}$/.test(e.eventId))).toBe(true);
	});

	it('keeps the id of an event about the device when its newest fix or its count moved on', () => {
		const expiring = { ...device, expires: iso(3 * 24 * 60) };
		const options = settings(['deviceExpiring', 'deviceSilent'], {
			emitCurrentState: true,
			dailyLimit: { limits: { email: 10 }, share: 0.8, timeZone: 'UTC' },
		});
		const ids = (fixes: Location[], at: number, email: number) =>
			detectDeviceEvents(undefined, expiring, fixes, { ...options, events: ['deviceExpiring', 'deviceSilent', 'dailyLimitNear'] }, minutes(at), [
				{ day: iso(0).slice(0, 10), counts: { email, sms: 0 } },
			]).events.map((e) => [e.event, e.eventId]);
		const early = ids([fix(0)], 40, 8);
		expect(early.map(([event]) => event)).toEqual(['deviceSilent', 'deviceExpiring', 'dailyLimitNear']);
		// Ten minutes on the silence has lasted longer and the count grew: the same three events.
		expect(ids([fix(0)], 50, 9)).toEqual(early);
		// A newer fix is another silence; the expiry and the crossing stay the same events.
		const moved = ids([fix(0), fix(5, 1)], 50, 9);
		expect(moved[0][1]).not.toBe(early[0][1]);
		expect(moved.slice(1)).toEqual(early.slice(1));
	});
});
