/**
 * Issue 25: the trigger's trip, idling and service events, poll by poll through detectDeviceEvents,
 * on the sandbox's story tracks (GPS wander while parked, a red light, engines left running, an
 * odometer passing a service mark). A trip must come out as Get Trips and Stops cuts the whole
 * range at once, however the polls split it.
 */
import { EVENT_KINDS } from '../../nodes/SatelliteTrackingTrigger/detection/detectors';
import type { DetectionSettings, DeviceState, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { segmentItem } from '../../nodes/shared/trips/items';
import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { Rng } from '../../sandbox/random';
import { STORY_FACTS, STORY_SCRIPTS, storyHistory, type StoryRole } from '../../sandbox/stories';
import { detectionSettings, pollDevice, type DevicePoll } from '../support/trigger';

const MINUTE = 60_000;
const ANCHOR = Date.parse('2026-05-05T12:00:00Z');
const DEVICE = { id: 'd1', name: 'Truck 1' };
const HOME = { latitude: 52.52, longitude: 13.405 };

function story(role: StoryRole): Location[] {
	return storyHistory({ role, anchor: ANCHOR }, HOME, ANCHOR, new Rng(7));
}

/** The track as Every Fix polls would read it: every fix once, in polls `everyMinutes` apart, with a first baseline poll. */
function polls(fixes: Location[], everyMinutes: number): DevicePoll[] {
	const start = Date.parse(fixes[0].dateTime);
	const result: DevicePoll[] = [{ fixes: [fixes[0]], now: new Date(start) }];
	let next = 1;
	for (let now = start + everyMinutes * MINUTE; next < fixes.length; now += everyMinutes * MINUTE) {
		const from = next;
		while (next < fixes.length && Date.parse(fixes[next].dateTime) <= now) next++;
		result.push({ fixes: fixes.slice(from, next), now: new Date(now) });
	}
	return result;
}

const settingsFor = (overrides: Partial<DetectionSettings>) => detectionSettings({ trip: TRIP_DEFAULTS, ...overrides });
const kinds = (events: TriggerEvent[][], kind: string) => events.flat().filter((event) => event.event === kind);

describe('Trip Started and Trip Ended', () => {
	const settings = settingsFor({ events: ['tripStarted', 'tripEnded'] });

	it.each([1, 7, 60])("cut the van's round poll by poll (every %p min) as Get Trips and Stops cuts the whole day", (everyMinutes) => {
		const fixes = story('deliveryRound');
		const whole = segmentTrack(fixes, TRIP_DEFAULTS).segments.filter((segment) => segment.type === 'trip');
		// The day ends parked: every trip is closed.
		expect(whole).toHaveLength(3);
		const { events } = pollDevice(DEVICE, polls(fixes, everyMinutes), settings);
		const ended = kinds(events, 'tripEnded');
		expect(ended.map((event) => event.trip)).toEqual(whole.map((segment) => segmentItem(segment, DEVICE.id, DEVICE.name)));
		const started = kinds(events, 'tripStarted');
		expect(started.map((event) => event.trip!.start)).toEqual(ended.map((event) => event.trip!.start));
		// Each reported once, after the moment: a start once Min Trip Distance is covered, an end after Min Stop Minutes.
		expect(new Set([...started, ...ended].map((event) => event.eventId)).size).toBe(6);
		for (const event of started) expect(Date.parse(event.location!.dateTime)).toBeGreaterThan(Date.parse(event.trip!.start.dateTime));
		for (const event of ended) {
			expect(Date.parse(event.location!.dateTime) - Date.parse(event.trip!.end.dateTime)).toBeGreaterThanOrEqual(TRIP_DEFAULTS.minStopMinutes * MINUTE);
		}
	});

	it('never report GPS wander while parked, nor a red light shorter than Min Stop Minutes, as a trip', () => {
		const { events } = pollDevice(DEVICE, polls(story('deliveryRound'), 5), settings);
		// Out 20 km with the 2-minute red light inside, 10 km, 30 km back: three trips, none of them wander.
		expect(kinds(events, 'tripEnded').map((event) => Math.round(event.trip!.distanceKm!))).toEqual([20, 10, 30]);
	});

	it('a poll run twice from the same state reports the same trips with the same ids, and leaves that state as it was', () => {
		const all = polls(story('deliveryRound'), 10);
		const halfway = all.findIndex((poll) => poll.fixes.length > 0 && Date.parse(poll.fixes[0].dateTime) > Date.parse(all[0].fixes[0].dateTime) + 4.5 * 60 * MINUTE);
		const { state } = pollDevice(DEVICE, all.slice(0, halfway), settings);
		const saved: DeviceState = JSON.parse(JSON.stringify(state));
		const first = pollDevice(DEVICE, all.slice(halfway), settings, state).events.flat();
		expect(state).toEqual(saved);
		const again = pollDevice(DEVICE, all.slice(halfway), settings, saved).events.flat();
		expect(again.map((event) => event.eventId)).toEqual(first.map((event) => event.eventId));
		expect(first.length).toBeGreaterThan(0);
	});

	it('fixes a poll reads in any order (buffered, uploaded late) are cut in time order', () => {
		const fixes = story('deliveryRound');
		const reordered = polls(fixes, 5).map((poll) => ({ ...poll, fixes: [...poll.fixes].reverse() }));
		const { events } = pollDevice(DEVICE, reordered, settings);
		expect(kinds(events, 'tripEnded').map((event) => Math.round(event.trip!.distanceKm!))).toEqual([20, 10, 30]);
	});
});

describe('Idling', () => {
	const settings = settingsFor({ events: ['idling'], idleMinutes: 10 });

	it('reports each idling period of the depot truck once, when it reaches Idle Minutes, with its length', () => {
		const { events } = pollDevice(DEVICE, polls(story('depotIdling'), 5), settings);
		const idling = kinds(events, 'idling');
		// The warm-up (25 min), the 12 minutes after the run, and again now (15 min).
		expect(idling).toHaveLength(3);
		for (const event of idling) expect(event.idleMinutes).toBe(10);
		expect(new Set(idling.map((event) => event.eventId)).size).toBe(3);
		const script = STORY_SCRIPTS.depotIdling.legs;
		expect(script.filter((leg) => leg.kind === 'park' && leg.engine && leg.minutes >= 10)).toHaveLength(2);
		expect(STORY_FACTS.idlingNowMinutes).toBeGreaterThanOrEqual(10);
	});

	it('says nothing for a device without rpm, nor for an engine idling less than Idle Minutes', () => {
		const withoutRpm = story('depotIdling').map(({ rpm: _rpm, ...fix }) => fix as Location);
		expect(kinds(pollDevice(DEVICE, polls(withoutRpm, 5), settings).events, 'idling')).toEqual([]);
		const long = settingsFor({ events: ['idling'], idleMinutes: 30 });
		expect(kinds(pollDevice(DEVICE, polls(story('depotIdling'), 5), long).events, 'idling')).toEqual([]);
	});

	it('the red light and the drop with the engine running: only the 20-minute drop idles 10 minutes', () => {
		const idling = kinds(pollDevice(DEVICE, polls(story('deliveryRound'), 5), settings).events, 'idling');
		expect(idling).toHaveLength(1);
	});
});

describe('Maintenance Due', () => {
	const at = (minute: number, milleage?: number): Location =>
		({ dateTime: new Date(ANCHOR + minute * MINUTE).toISOString(), latitude: 52.5, longitude: 13.4, ...(milleage === undefined ? {} : { milleage }) }) as Location;
	const service = (intervalKm: number, startKm = 0) => settingsFor({ events: ['maintenanceDue'], service: { intervalKm, startKm } });
	const due = (readings: Array<number | undefined>, settings: DetectionSettings) =>
		kinds(pollDevice(DEVICE, readings.map((km, i) => ({ fixes: [at(i, km)], now: new Date(ANCHOR + i * MINUTE) })), settings).events, 'maintenanceDue').map(
			(event) => [event.milleage, event.serviceDueKm],
		);

	it('reports the story truck passing its service mark once', () => {
		const { serviceIntervalKm, dueKm } = STORY_FACTS;
		const { events } = pollDevice(DEVICE, polls(story('serviceDue'), 5), service(serviceIntervalKm));
		const reported = kinds(events, 'maintenanceDue');
		expect(reported.map((event) => event.serviceDueKm)).toEqual([dueKm]);
		expect(reported[0].milleage).toBeGreaterThanOrEqual(dueKm);
	});

	it('counts marks from Service Start, reports the highest of several passed at once, never one twice, and skips fixes without an odometer', () => {
		expect(due([9_990, undefined, 10_010, 10_020, 19_999, 20_001], service(10_000))).toEqual([
			[10_010, 10_000],
			[20_001, 20_000],
		]);
		// A leap is taken once the next reading agrees with it (one spike is a glitch).
		expect(due([100, 35_000, 35_010], service(10_000))).toEqual([[35_010, 30_000]]);
		// A reset and the odometer climbing past a mark already reported: nothing.
		expect(due([9_990, 10_010, 0, 10_005], service(10_000))).toEqual([[10_010, 10_000]]);
		expect(due([2_990, 3_010, 7_990, 8_010], service(5_000, 3_000))).toEqual([[8_010, 8_000]]);
		// The first odometer seen is the baseline, past a mark or not.
		expect(due([25_000, 25_100], service(10_000))).toEqual([]);
	});
});

it('registers the four events of issue 25', () => {
	expect(EVENT_KINDS).toEqual(expect.arrayContaining(['tripStarted', 'tripEnded', 'idling', 'maintenanceDue']));
});
