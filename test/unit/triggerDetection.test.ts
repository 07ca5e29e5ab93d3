import { circleGeofence, type Geofence } from '../../nodes/shared/geo/geofence';
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { freshFixes } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import type { DetectionSettings, DeviceInfo, DeviceState, EventKind } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const minutes = (n: number) => new Date(T0 + n * 60_000);
const iso = (n: number) => minutes(n).toISOString();

function fix(minute: number, latitude = 0, longitude = 0, extra: Partial<Location> = {}): Location {
	return { dateTime: iso(minute), latitude, longitude, ...extra };
}

function fenceOf(check: ReturnType<typeof circleGeofence>): Geofence {
	if (!check.ok) throw new Error(check.problem);
	return check.value;
}

const depot = fenceOf(circleGeofence('Depot', 0, 0, 1000));
const device: DeviceInfo = { id: 'dev-1', name: 'Truck 01', expires: null };

function settings(events: EventKind[], extra: Partial<DetectionSettings> = {}): DetectionSettings {
	return {
		events,
		geofences: [depot],
		minDistanceMeters: 0,
		silentAfterMinutes: 30,
		expiringWithinDays: 7,
		alertFilter: [],
		emitCurrentState: false,
		...extra,
	};
}

/** Runs polls in sequence, carrying the state; returns the event names per poll. */
function run(
	polls: Array<{ fixes: Location[]; at: number; device?: DeviceInfo }>,
	options: DetectionSettings,
	start?: DeviceState,
) {
	let state = start;
	const seen: string[][] = [];
	const all = [];
	for (const poll of polls) {
		const result = detectDeviceEvents(state, poll.device ?? device, poll.fixes, options, minutes(poll.at));
		state = result.state;
		all.push(result.events);
		seen.push(result.events.map((event) => event.event + (event.geofence ? `:${event.geofence}` : '')));
	}
	return { seen, all, state: state! };
}

describe('freshFixes', () => {
	it('sorts out-of-order fixes and drops duplicates', () => {
		const { fresh, fix: last } = freshFixes({}, [fix(3, 3), fix(1, 1), fix(2, 2), fix(1, 1)]);
		expect(fresh.map((f) => f.latitude)).toEqual([1, 2, 3]);
		expect(last).toEqual({ at: iso(3), lat: 3, lon: 0 });
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
		expect(result.state.fix).toEqual({ at: iso(0), lat: 0, lon: 0 });
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
		expect(current.events[0].previousLocation).toBeUndefined();
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
			previousLocation: { dateTime: iso(0), latitude: 0, longitude: 0 },
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
		expect(all[3][0].previousLocation).toEqual({ dateTime: iso(0), latitude: 0, longitude: 0 });
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
		const other = fenceOf(circleGeofence('Other', 5, 5, 100));
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

	it('reports a fix that arrives late but already stale as a new silence', () => {
		const { seen } = run(
			[
				{ fixes: [fix(0)], at: 0 },
				{ fixes: [fix(0)], at: 40 },
				{ fixes: [fix(0), fix(5)], at: 60 },
			],
			settings(['deviceSilent']),
		);
		expect(seen).toEqual([[], ['deviceSilent'], ['deviceSilent']]);
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
		expect(sos.seen).toEqual([[], ['criticalAlert'], []]);
		expect(sos.all[1][0]).toMatchObject({ alerts: ['SOS button pressed', 'SOS'], location: { dateTime: iso(2) } });
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
		const a = fenceOf(circleGeofence('A', 0, 0, 1000));
		const b = fenceOf(circleGeofence('B', 0, 0.05, 1000));
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
		expect(state).toEqual({ fix: { at: iso(0), lat: 0, lon: 0 }, keys: [expect.any(String)] });
	});
});
