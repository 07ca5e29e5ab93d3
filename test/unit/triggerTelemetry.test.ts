/**
 * The events of issue 18 on hand-made tracks: values wobbling around thresholds, fuel noise and a
 * real drop, a door input, silences, stays in a geofence; with gaps, out-of-order and duplicate
 * fixes, polls cut at different places, and the state carried through JSON as static data keeps it.
 */
import { circleGeofence, type Geofence } from '../../nodes/shared/geo/geofence';
import { advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { planReads } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { sampleEvents } from '../../nodes/SatelliteTrackingTrigger/detection/samples';
import { emptyState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type {
	DetectionSettings,
	DeviceInfo,
	DeviceState,
	EventKind,
	TriggerEvent,
	TriggerState,
} from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { ThresholdRule } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/valueCrossed';
import type { Location } from '../../nodes/shared/wire';
import { frozen } from '../support/trigger';

const T0 = Date.parse('2026-03-01T22:00:00Z');
const minutes = (n: number) => new Date(T0 + n * 60_000);
const iso = (n: number) => minutes(n).toISOString();
const fix = (minute: number, extra: Partial<Location> = {}): Location => ({ dateTime: iso(minute), latitude: 0, longitude: 1, ...extra });

function fenceOf(check: ReturnType<typeof circleGeofence>): Geofence {
	if (!check.ok) throw new Error(check.problem);
	return check.value;
}
const depot = fenceOf(circleGeofence('Depot', 0, 1, 1000));
const IN = { latitude: 0.001, longitude: 1 };
const OUT = { latitude: 0.1, longitude: 1 };

const truck: DeviceInfo = { id: 'dev-1', name: 'Reefer 01', expires: null, tags: { cargo: 'chilled' } };

function settings(events: EventKind[], extra: Partial<DetectionSettings> = {}): DetectionSettings {
	return { events, geofences: [depot], minDistanceMeters: 0, silentAfterMinutes: 30, expiringWithinDays: 7, alertFilter: [], emitCurrentState: false, ...extra };
}

/**
 * Polls in sequence, each given its fixes and clock; the state goes through JSON between polls, as
 * static data stores it. The first poll is the device's baseline unless `start` is given.
 */
function run(polls: Array<{ fixes: Location[]; at: number }>, options: DetectionSettings, start?: DeviceState) {
	let state = start;
	const events: TriggerEvent[][] = [];
	for (const poll of polls) {
		const result = detectDeviceEvents(frozen(state), truck, poll.fixes, options, minutes(poll.at));
		state = JSON.parse(JSON.stringify(result.state)) as DeviceState;
		events.push(result.events);
	}
	return { events, flat: events.flat(), state: state! };
}

/** One fix per poll, the poll a minute after its fix. */
const onePerPoll = (fixes: Location[]) => fixes.map((f) => ({ fixes: [f], at: (Date.parse(f.dateTime) - T0) / 60_000 + 1 }));

const coldChain = (hysteresis: number): ThresholdRule[] => [
	{ field: 'temperature', direction: 'above', value: 8, hysteresis },
	{ field: 'temperature', direction: 'below', value: 2, hysteresis },
];

describe('valueCrossed', () => {
	// A reefer at 5 °C whose cooling fails: the probe wobbles around 8 °C on the way up and back down.
	const temperatures = [5, 6.8, 7.9, 8.1, 7.9, 8.2, 7.6, 8.3, 9.5, 11, 8.4, 7.95, 7.3, 6.9, 8.3, 5, 1.9, 2.05, 1.95];
	const track = temperatures.map((temperature, i) => fix(i * 5, { temperature }));

	it('fires once per crossing into the range, and again only after leaving it by more than the hysteresis', () => {
		const { flat } = run(onePerPoll(track), settings(['valueCrossed'], { thresholdRules: coldChain(1) }));
		expect(flat.map((e) => [e.value, e.direction, e.threshold, e.field])).toEqual([
			[8.1, 'above', 8, 'temperature'],
			[8.3, 'above', 8, 'temperature'], // after 6.9, more than 1 °C below 8
			[1.9, 'below', 2, 'temperature'],
		]);
		expect(flat[0].location).toEqual(track[3]);
	});

	it('without hysteresis fires at each re-entry: the band is what stops the flapping', () => {
		const { flat } = run(onePerPoll(track), settings(['valueCrossed'], { thresholdRules: coldChain(0) }));
		expect(flat.map((e) => e.value)).toEqual([8.1, 8.2, 8.3, 8.3, 1.9, 1.95]);
	});

	it('gives the same events however the fixes are cut into polls, whatever their order and repeats', () => {
		const options = settings(['valueCrossed'], { thresholdRules: coldChain(1) });
		const baseline = { fixes: [track[0]], at: 1 };
		const shuffled = [...track.slice(1)].reverse();
		const batches = [
			baseline,
			{ fixes: [...shuffled.slice(9), track[3], track[3]], at: 50 }, // oldest half, reversed, a duplicate
			{ fixes: [...shuffled.slice(0, 9), track[5]], at: 100 }, // newest half, and a fix already processed
		];
		expect(run(batches, options).flat.map((e) => e.value)).toEqual(run(onePerPoll(track), options).flat.map((e) => e.value));
	});

	it('skips fixes without the field (a gap in the sensor) and keeps what it knew', () => {
		const gappy = [fix(0, { temperature: 5 }), fix(5), fix(10, { temperature: Number.NaN }), fix(15, { temperature: 8.5 }), fix(20), fix(25, { temperature: 9 })];
		const { flat, state } = run(onePerPoll(gappy), settings(['valueCrossed'], { thresholdRules: coldChain(1) }));
		expect(flat.map((e) => e.value)).toEqual([8.5]);
		expect(Object.values(state.ranges ?? {}).sort()).toEqual([false, true]);
	});

	it('is a silent baseline for a device already in the range, unless the current state is emitted', () => {
		const hot = [fix(0, { temperature: 9 }), fix(5, { temperature: 9.5 })];
		expect(run(onePerPoll(hot), settings(['valueCrossed'], { thresholdRules: coldChain(1) })).flat).toEqual([]);
		const emitted = run(onePerPoll(hot), settings(['valueCrossed'], { thresholdRules: coldChain(1), emitCurrentState: true }));
		expect(emitted.flat.map((e) => e.value)).toEqual([9]);
	});

	it('applies a rule scoped to a tag only to devices with that tag (and value)', () => {
		const scoped = (value: string): ThresholdRule[] => [{ ...coldChain(0)[0], tag: { key: 'cargo', value } }];
		const hot = [fix(0, { temperature: 5 }), fix(5, { temperature: 9 })];
		expect(run(onePerPoll(hot), settings(['valueCrossed'], { thresholdRules: scoped('chilled') })).flat).toHaveLength(1);
		expect(run(onePerPoll(hot), settings(['valueCrossed'], { thresholdRules: scoped('') })).flat).toHaveLength(1);
		const other = run(onePerPoll(hot), settings(['valueCrossed'], { thresholdRules: scoped('frozen') }));
		expect(other.flat).toEqual([]);
		expect(other.state.ranges).toBeUndefined();
	});

	it('starts an edited rule afresh instead of reporting under the old record', () => {
		const first = run(onePerPoll([fix(0, { temperature: 9 })]), settings(['valueCrossed'], { thresholdRules: coldChain(0) }));
		const edited = settings(['valueCrossed'], { thresholdRules: [{ ...coldChain(0)[0], value: 7 }] });
		expect(run([{ fixes: [fix(5, { temperature: 9.2 })], at: 6 }], edited, first.state).flat).toEqual([]);
	});
});

describe('fuelDropped', () => {
	const options = settings(['fuelDropped'], { fuelDrop: { amount: 10, withinMinutes: 15, maxSpeed: 5 } });
	// Driving burns fuel; parked at night the gauge wobbles ±1, then 35 litres go in five minutes.
	const night = [
		fix(0, { fuel: 80, speed: 60 }),
		fix(5, { fuel: 79.2, speed: 55 }),
		fix(10, { fuel: 78.9, speed: 0 }),
		fix(15, { fuel: 79.8, speed: 0 }),
		fix(20, { fuel: 78.7, speed: 0 }),
		fix(25, { fuel: 43.5, speed: 0 }),
		fix(30, { fuel: 44.2, speed: 0 }),
		fix(35, { fuel: 43.1, speed: 0 }),
	];

	it('reports the drop of a standing vehicle once, not the wobble of the gauge', () => {
		const { flat } = run(onePerPoll(night), options);
		expect(flat).toHaveLength(1);
		expect(flat[0]).toMatchObject({ event: 'fuelDropped', value: 43.5, previousValue: 78.7, dropped: 35.2, withinMinutes: 5, location: night[5] });
	});

	it('finds the drop inside one poll or across two, and not twice when fixes come again', () => {
		expect(run([{ fixes: [night[0]], at: 1 }, { fixes: [...night.slice(1)].reverse(), at: 40 }], options).flat).toHaveLength(1);
		const split = run([{ fixes: night.slice(0, 5), at: 21 }, { fixes: night.slice(3), at: 40 }, { fixes: night, at: 45 }], options);
		expect(split.events.map((poll) => poll.length)).toEqual([0, 1, 0]);
	});

	it('ignores a drop while driving, and one across a gap longer than the window', () => {
		const driving = [fix(0, { fuel: 60, speed: 40 }), fix(5, { fuel: 45, speed: 40 })];
		expect(run(onePerPoll(driving), options).flat).toEqual([]);
		const gap = [fix(0, { fuel: 60, speed: 0 }), fix(45, { fuel: 30, speed: 0 })];
		expect(run(onePerPoll(gap), options).flat).toEqual([]);
	});
});

describe('inputChanged', () => {
	const door = (minute: number, open: boolean, output = false) => fix(minute, { inputs: [true, open], outputs: [output] });
	const track = [door(0, false), door(5, true), door(10, true), door(15, false), door(20, true, true), door(20, true, true)];

	it('reports each switch of the watched inputs in the chosen direction, from the first fix known', () => {
		const both = run(onePerPoll(track), settings(['inputChanged'], { inputChange: { lines: ['input'], indexes: [], direction: 'both' } }));
		expect(both.flat.map((e) => [e.input, e.from, e.to, e.line])).toEqual([
			[1, false, true, 'input'],
			[1, true, false, 'input'],
			[1, false, true, 'input'],
		]);
		const opening = run(onePerPoll(track), settings(['inputChanged'], { inputChange: { lines: ['input'], indexes: [1], direction: 'on' } }));
		expect(opening.flat.map((e) => e.location?.dateTime)).toEqual([iso(5), iso(20)]);
		const ignition = run(onePerPoll(track), settings(['inputChanged'], { inputChange: { lines: ['input'], indexes: [0], direction: 'both' } }));
		expect(ignition.flat).toEqual([]);
		expect(ignition.state.inputs).toBe('11');
	});

	it('watches digital outputs when asked to', () => {
		const outputs = run(onePerPoll(track), settings(['inputChanged'], { inputChange: { lines: ['output'], indexes: [], direction: 'both' } }));
		expect(outputs.flat.map((e) => [e.line, e.input, e.to])).toEqual([['output', 0, true]]);
	});
});

describe('deviceBackOnline', () => {
	it('pairs every silence reported with one back-online, whichever of the two is watched', () => {
		// A fix at 0, silence from 30, a fix again at 58, silent again from 88, back at 120.
		const polls = [
			{ fixes: [fix(0)], at: 1 },
			{ fixes: [fix(0)], at: 31 },
			{ fixes: [fix(0)], at: 45 },
			{ fixes: [fix(58)], at: 60 },
			{ fixes: [fix(58)], at: 70 },
			{ fixes: [fix(58)], at: 90 },
			{ fixes: [fix(120), fix(110)], at: 121 },
			{ fixes: [fix(120)], at: 125 },
		];
		const both = run(polls, settings(['deviceSilent', 'deviceBackOnline']));
		expect(both.events.map((poll) => poll.map((e) => `${e.event}:${e.silentForMinutes}`))).toEqual([
			[],
			['deviceSilent:31'],
			[],
			['deviceBackOnline:58'],
			[],
			['deviceSilent:32'],
			['deviceBackOnline:52'],
			[],
		]);
		expect(both.flat.filter((e) => e.event === 'deviceBackOnline').map((e) => e.location?.dateTime)).toEqual([iso(58), iso(110)]);
		const alone = run(polls, settings(['deviceBackOnline']));
		expect(alone.flat.map((e) => e.event)).toEqual(['deviceBackOnline', 'deviceBackOnline']);
	});

	it('is not reported for a device that was never seen silent', () => {
		expect(run([{ fixes: [fix(0)], at: 1 }, { fixes: [fix(20)], at: 21 }], settings(['deviceBackOnline'])).flat).toEqual([]);
	});
});

describe('geofenceDwell', () => {
	const options = settings(['geofenceDwell'], { dwellMinutes: 30 });
	// Outside, then inside from 10 to 50 (GPS noise keeps it inside), out at 55, a short stay 60–75, out, and a long one from 85.
	const inside = (minute: number) => (minute >= 10 && minute <= 50) || (minute >= 60 && minute <= 75) || minute >= 85;
	const track = Array.from({ length: 26 }, (_, i) => fix(i * 5, inside(i * 5) ? IN : OUT));

	it('reports once per stay that reaches the length, by fix times', () => {
		const { flat } = run(onePerPoll(track), options);
		expect(flat.map((e) => [e.location?.dateTime, e.dwellMinutes, e.geofence])).toEqual([
			[iso(40), 30, 'Depot'],
			[iso(115), 30, 'Depot'],
		]);
	});

	it('comes out the same however far apart the polls are, across restarts', () => {
		const hourly = [0, 1, 2].map((hour) => ({ fixes: track.filter((f) => Math.floor((Date.parse(f.dateTime) - T0) / 3_600_000) === hour), at: (hour + 1) * 60 }));
		const lateFirst = [{ fixes: [track[0]], at: 1 }, ...hourly];
		expect(run(lateFirst, options).flat.map((e) => e.location?.dateTime)).toEqual([iso(40), iso(115)]);
	});

	it('does not report again while the same stay goes on, and starts afresh for an edited geofence', () => {
		const stay = Array.from({ length: 20 }, (_, i) => fix(i * 5, IN));
		const { flat, state } = run(onePerPoll(stay), options);
		expect(flat).toHaveLength(1);
		expect(state.stays).toEqual({ [depot.id]: '' });
	});
});

describe('devices that appear after the first poll', () => {
	const now = minutes(0);
	const device = (id: string, expires: string | null = null): DeviceInfo => ({ id, name: id, expires });
	const everything = settings(['locationUpdated', 'deviceExpiring', 'valueCrossed'], { thresholdRules: coldChain(0) });
	const poll = (state: TriggerState, devices: DeviceInfo[], fixes: Record<string, Location[]>, maxReads = Infinity) => {
		const plan = planReads(devices.map((d) => d.id), state, 'latestFix', maxReads, now);
		const outcomes = new Map<string, ReadOutcome>(plan.reads.map((read) => [read.deviceId, { ok: true, fixes: fixes[read.deviceId] ?? [] }]));
		return advance(frozen(state), devices, plan, outcomes, everything, now);
	};
	const names = (events: TriggerEvent[]) => events.map((e) => `${e.event}|${e.deviceId}`);
	const expiring = iso(3 * 24 * 60);

	it('are news: an expiry within the window, the first fix with previousLocation null, a value already past a threshold', () => {
		const first = poll(emptyState(), [device('a', expiring)], { a: [fix(-2, { temperature: 12 })] });
		expect(first.events).toEqual([]);
		expect(first.state.started).toBe(true);
		const second = poll(first.state, [device('a', expiring), device('b', expiring)], { a: [fix(-2)], b: [fix(-1, { temperature: 12 })] });
		expect(names(second.events)).toEqual(['locationUpdated|b', 'deviceExpiring|b', 'valueCrossed|b']);
		expect(second.events[0].previousLocation).toBeNull();
		expect(names(poll(second.state, [device('a', expiring), device('b', expiring)], { a: [fix(-2)], b: [fix(-1)] }).events)).toEqual([]);
	});

	it('a state saved before the first-poll marker existed takes unknown devices as a baseline once, not as a flood', () => {
		const saved = { version: 1, devices: { a: { fix: { at: iso(-2), lat: 0, lon: 1 } } } } as TriggerState;
		const upgraded = poll(saved, [device('a'), device('b', expiring), device('c', expiring)], { a: [], b: [fix(-1)], c: [fix(-1)] });
		expect(upgraded.events).toEqual([]);
		expect(upgraded.state.started).toBe(true);
	});

	it('devices the first poll listed but could not read (budget) are still a baseline when read', () => {
		const listed = ['a', 'b', 'c', 'd'].map((id) => device(id, expiring));
		const fixes = Object.fromEntries(listed.map((d) => [d.id, [fix(-1)]]));
		const first = poll(emptyState(), listed, fixes, 2);
		expect(first.state.baselinePending).toEqual(['c', 'd']);
		const second = poll(first.state, listed, fixes, 2);
		expect(second.events).toEqual([]);
		expect(second.state.baselinePending).toBeUndefined();
		const joined = poll(second.state, [...listed, device('e', expiring)], { ...fixes, e: [fix(-1)] }, 2);
		expect(names(joined.events)).toEqual(['locationUpdated|e', 'deviceExpiring|e']);
	});
});

describe('eventIds and Fetch Test Event samples of the new events', () => {
	const all = settings(['valueCrossed', 'fuelDropped', 'inputChanged', 'deviceBackOnline', 'geofenceDwell'], {
		thresholdRules: [...coldChain(0), { field: 'temperature', direction: 'above', value: 6, hysteresis: 0 }],
		fuelDrop: { amount: 10, withinMinutes: 15, maxSpeed: 5 },
		inputChange: { lines: ['input', 'output'], indexes: [], direction: 'both' },
		dwellMinutes: 30,
	});

	it('gives events of one fix different ids, and the same ids when a poll is run again', () => {
		const start = run([{ fixes: [fix(0, { temperature: 5, inputs: [false, false], outputs: [false] })], at: 1 }], all).state;
		const busy = fix(5, { temperature: 9, inputs: [true, true], outputs: [true] });
		const once = run([{ fixes: [busy], at: 6 }], all, start).flat;
		const again = run([{ fixes: [busy], at: 6 }], all, start).flat;
		expect(once.map((e) => `${e.event}:${e.threshold ?? ''}${e.line ?? ''}${e.input ?? ''}`).sort()).toEqual(
			['inputChanged:input0', 'inputChanged:input1', 'inputChanged:output0', 'valueCrossed:6', 'valueCrossed:8'].sort(),
		);
		expect(new Set(once.map((e) => e.eventId)).size).toBe(once.length);
		expect(again.map((e) => e.eventId)).toEqual(once.map((e) => e.eventId));
	});

	it('shows each selected kind that did not happen as a sample with the fields of its kind (version 1)', () => {
		const newest = fix(-1, { temperature: 5.5, fuel: 40, inputs: [true, false], ...IN });
		const outcomes = new Map<string, ReadOutcome>([[truck.id, { ok: true, fixes: [newest] }]]);
		const samples = sampleEvents([truck], outcomes, all, minutes(0), false);
		expect(samples.map((e) => e.event).sort()).toEqual(['deviceBackOnline', 'fuelDropped', 'geofenceDwell', 'inputChanged', 'valueCrossed']);
		const of = (kind: EventKind) => samples.find((e) => e.event === kind)!;
		for (const sample of samples) expect(sample).toMatchObject({ sample: true, eventId: expect.stringMatching(/^sample-/), location: newest });
		expect(of('valueCrossed')).toMatchObject({ field: 'temperature', value: 5.5, threshold: 8, direction: 'above' });
		expect(of('fuelDropped')).toMatchObject({ value: 40, previousValue: 50, dropped: 10, withinMinutes: 15 });
		expect(of('inputChanged')).toMatchObject({ input: 0, line: 'input', from: false, to: true });
		expect(of('geofenceDwell')).toMatchObject({ geofence: 'Depot', dwellMinutes: 30 });
		expect(of('deviceBackOnline').silentForMinutes).toBe(1);
	});
});
