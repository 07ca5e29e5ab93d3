/**
 * Attacks on the trigger's detectors found by trying to break them (red team, round 2): values
 * exactly at a threshold plus or minus its hysteresis, fuel falling by exactly the set amount, and
 * events that must keep distinct ids (two rules on one fix, two geofences of one name).
 */
import { circleGeofence, type Geofence } from '../../nodes/shared/geo/geofence';
import { advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { planReads } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { sampleEvents } from '../../nodes/SatelliteTrackingTrigger/detection/samples';
import { emptyState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type { ThresholdRule } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/valueCrossed';
import type { DetectionSettings, DeviceInfo, EventKind, TriggerState } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings, frozen, pollDevice } from '../support/trigger';

const T0 = Date.parse('2026-03-01T22:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000);
const fix = (minute: number, extra: Partial<Location> = {}): Location => ({ dateTime: at(minute).toISOString(), latitude: 0, longitude: 1, ...extra });
const truck: DeviceInfo = { id: 'dev-1', name: 'Reefer 01', expires: null, tags: { cargo: 'chilled' } };

function fenceOf(check: ReturnType<typeof circleGeofence>): Geofence {
	if (!check.ok) throw new Error(check.problem);
	return check.value;
}

const settings = (events: EventKind[], extra: Partial<DetectionSettings> = {}) => detectionSettings({ events, ...extra });
const rule = (extra: Partial<ThresholdRule> = {}): ThresholdRule => ({ field: 'temperature', direction: 'above', value: 8, hysteresis: 0, ...extra });

/** One fix per poll, a minute apart: the events of each poll after the baseline. */
function temperatures(values: number[], rules: ThresholdRule[]): number[] {
	const polls = values.map((temperature, i) => ({ fixes: [fix(i, { temperature })], now: at(i) }));
	return pollDevice(truck, polls, settings(['valueCrossed'], { thresholdRules: rules })).events.map((events) => events.length);
}

describe('valueCrossed at the edge of its hysteresis', () => {
	it('a value exactly hysteresis below an "above" threshold has not left the range, whatever decimals make it', () => {
		// 8 - 7.8 is 0.20000000000000018 in floating point: not "more than" a hysteresis of 0.2.
		expect(temperatures([7, 8.5, 7.8, 8.5], [rule({ hysteresis: 0.2 })])).toEqual([0, 1, 0, 0]);
		expect(temperatures([3, 1.5, 2.3, 1.5], [rule({ direction: 'below', value: 2, hysteresis: 0.3 })])).toEqual([0, 1, 0, 0]);
	});

	it('a value just past the hysteresis has left, and the rule fires again', () => {
		expect(temperatures([7, 8.5, 7.79, 8.5], [rule({ hysteresis: 0.2 })])).toEqual([0, 1, 0, 1]);
	});
});

describe('fuelDropped at exactly the set amount', () => {
	it('a fall of exactly the amount is not "more than" it, whatever decimals make it', () => {
		// 16.1 - 6.1 is 10.000000000000002 in floating point.
		const fuelDrop = { amount: 10, withinMinutes: 15, maxSpeed: 5 };
		const polls = [16.1, 6.1].map((fuel, i) => ({ fixes: [fix(i, { fuel, speed: 0 })], now: at(i) }));
		const { events } = pollDevice(truck, polls, settings(['fuelDropped'], { fuelDrop }));
		expect(events.flat()).toEqual([]);
	});
});

describe('fuelDropped around a fix without a fuel level', () => {
	const fuelDrop = { amount: 10, withinMinutes: 15, maxSpeed: 5 };
	const fallen = (polls: Array<{ fixes: Location[]; now: Date }>) =>
		pollDevice(truck, polls, settings(['fuelDropped'], { fuelDrop })).events.flat().map((event) => [event.previousValue, event.value, event.withinMinutes]);

	it('a fix without fuel between two readings does not hide their fall, within one poll or across polls and a restart', () => {
		// 60 l at minute 3, a fix without fuel at minute 4, 40 l at minute 5: 20 l gone in 2 minutes.
		expect(fallen([{ fixes: [fix(0, { fuel: 61, speed: 0 })], now: at(0) }, { fixes: [fix(3, { fuel: 60, speed: 0 }), fix(4, { speed: 0 }), fix(5, { fuel: 40, speed: 0 })], now: at(5) }])).toEqual([[60, 40, 2]]);
		const split = pollDevice(truck, [{ fixes: [fix(0, { fuel: 61, speed: 0 })], now: at(0) }, { fixes: [fix(3, { fuel: 60, speed: 0 }), fix(4, { speed: 0 })], now: at(4) }], settings(['fuelDropped'], { fuelDrop }));
		const restarted = JSON.parse(JSON.stringify(split.state));
		const after = pollDevice(truck, [{ fixes: [fix(5, { fuel: 40, speed: 0 })], now: at(5) }], settings(['fuelDropped'], { fuelDrop }), restarted);
		expect(after.events.flat().map((event) => [event.previousValue, event.value, event.withinMinutes])).toEqual([[60, 40, 2]]);
	});

	it('the time between the readings is what counts, not the time since the fix without fuel', () => {
		expect(fallen([{ fixes: [fix(0, { fuel: 60, speed: 0 })], now: at(0) }, { fixes: [fix(20, { speed: 0 }), fix(22, { fuel: 40, speed: 0 })], now: at(22) }])).toEqual([]);
	});
});

describe('inputChanged when fixes carry different numbers of lines', () => {
	it('a fix with fewer inputs does not make the others forget their state', () => {
		const polls = [[true, true, true], [true], [false, false, false]].map((inputs, i) => ({ fixes: [fix(i, { inputs })], now: at(i) }));
		const inputChange = { lines: ['input' as const], indexes: [], direction: 'both' as const };
		const { events, state } = pollDevice(truck, polls, settings(['inputChanged'], { inputChange }));
		expect(events.map((poll) => poll.map((event) => [event.input, event.from, event.to]))).toEqual([[], [], [[0, true, false], [1, true, false], [2, true, false]]]);
		expect(state.inputs).toBe('000');
	});
});

describe('a fix dated far in the future', () => {
	it('is a clock glitch: it does not hide the real fixes after it, nor keep the device from being silent', () => {
		const polls = [
			{ fixes: [fix(0)], now: at(0) },
			{ fixes: [fix(50 * 365 * 24 * 60, { latitude: 9 })], now: at(1) },
			{ fixes: [fix(2, { latitude: 0.01 })], now: at(2) },
			{ fixes: [], now: at(300) },
		];
		const { events } = pollDevice(truck, polls, settings(['locationUpdated', 'deviceSilent'], { silentAfterMinutes: 30 }));
		expect(events.map((poll) => poll.map((event) => [event.event, event.location?.dateTime]))).toEqual([
			[],
			[],
			[['locationUpdated', at(2).toISOString()]],
			[['deviceSilent', at(2).toISOString()]],
		]);
	});

	it('a device whose clock runs three hours ahead is still followed fix by fix', () => {
		const polls = [0, 5, 10].map((minute) => ({ fixes: [fix(minute + 180, { latitude: minute / 100 })], now: at(minute) }));
		const { events } = pollDevice(truck, polls, settings(['locationUpdated']));
		expect(events.map((poll) => poll.length)).toEqual([0, 1, 1]);
	});
});

describe('a device the first poll listed but could not read', () => {
	it('is still a baseline when a listing leaves it out before its first read', () => {
		const expires = new Date(T0 + 24 * 60 * 60_000).toISOString();
		const [a, b] = ['a', 'b'].map((id): DeviceInfo => ({ id, name: id, expires, tags: {} }));
		const detection = settings(['locationUpdated', 'deviceExpiring']);
		let state: TriggerState = emptyState();
		const poll = (devices: DeviceInfo[], minute: number, budget: number) => {
			const plan = planReads(devices.map((device) => device.id), state, 'latestFix', budget, at(minute));
			const outcomes = new Map(devices.map((device): [string, ReadOutcome] => [device.id, { ok: true, fixes: [fix(0)] }]));
			const result = advance(frozen(state), devices, plan, outcomes, detection, at(minute));
			state = result.state;
			return result.events.map((event) => `${event.event}|${event.deviceId}`);
		};
		// b does not fit the first poll's budget, is left out of the second listing, and is back in the third.
		expect([poll([a, b], 1, 1), poll([a], 2, 1), poll([a, b], 3, 2)]).toEqual([[], [], []]);
		expect(state.baselinePending).toBeUndefined();
	});
});

describe('valueCrossed with a rule listed twice', () => {
	it('fires once', () => {
		expect(temperatures([7, 9], [rule(), rule()])).toEqual([0, 1]);
	});
});

describe('Fetch Test Event with only Location Updated selected', () => {
	it('shows a first fix with every field of the event, distanceMeters too', () => {
		const outcomes = new Map<string, ReadOutcome>([[truck.id, { ok: true, fixes: [fix(0)] }]]);
		const [item] = sampleEvents([truck], outcomes, settings(['locationUpdated']), at(1), true);
		expect(item).toMatchObject({ event: 'locationUpdated', previousLocation: null, distanceMeters: null });
	});
});

describe('eventId tells distinct events apart', () => {
	it('two rules on one field, direction and value that differ in tag or hysteresis give two ids on one fix', () => {
		const rules = [rule(), rule({ hysteresis: 1 }), rule({ tag: { key: 'cargo', value: 'chilled' } })];
		const polls = [7, 9].map((temperature, i) => ({ fixes: [fix(i, { temperature })], now: at(i) }));
		const fired = pollDevice(truck, polls, settings(['valueCrossed'], { thresholdRules: rules })).events[1];
		expect(fired).toHaveLength(3);
		expect(new Set(fired.map((event) => event.eventId)).size).toBe(3);
	});

	it('two geofences of one name entered on one fix give two ids, for entries and dwells', () => {
		const inner = fenceOf(circleGeofence('Customer site', 0, 1, 500));
		const outer = fenceOf(circleGeofence('Customer site', 0, 1, 2000));
		const polls = [
			{ fixes: [fix(0, { latitude: 0.1 })], now: at(0) },
			{ fixes: [fix(1, { latitude: 0.001 }), fix(40, { latitude: 0.001 })], now: at(40) },
		];
		const events = pollDevice(truck, polls, settings(['geofenceEntered', 'geofenceDwell'], { geofences: [inner, outer], dwellMinutes: 30 })).events[1];
		expect(events.map((event) => event.event).sort()).toEqual(['geofenceDwell', 'geofenceDwell', 'geofenceEntered', 'geofenceEntered']);
		expect(new Set(events.map((event) => event.eventId)).size).toBe(4);
	});
});
