import { distanceMeters } from '../../../shared/geo/distance';
import { segmentItem, type SegmentItem } from '../../../shared/trips/items';
import { readTripSettings as fromParameters, tripOptionFields } from '../../../shared/trips/properties';
import type { TimedPosition } from '../../../shared/geo/fixQuality';
import { advance, endBySilence, newSegmenter, toTrackPoint, TRIP_DEFAULTS, type Segment, type SegmenterState, type TripSettings } from '../../../shared/trips/segment';
import { engineRunning, MAX_IDLE_GAP_MS, speedAt, stretchAt, type TrackPoint } from '../../../shared/trips/stretch';
import { toPositive } from '../../../shared/validation';
import { deviceEvent, type Detector, type Observation, type SettingsReader } from '../detector';
import type { Location } from '../../../shared/wire';
import { fixTime, heardLate, MINUTE_MS, numericValue, silenceClock } from '../fixes';
import type { DeviceState, FixPosition, TriggerEvent } from '../types';

export const DEFAULT_IDLE_MINUTES = 10;

/** "Fetch Test Event": the speed of a sample trip, and the rpm of a sample idling engine on a device that shows none. */
const SAMPLE_SPEED = 40;
const SAMPLE_IDLE_RPM = 800;

declare module '../types' {
	interface DetectionSettings {
		/** tripStarted, tripEnded, idling: how fixes are cut into trips (as Get Trips and Stops cuts them); absent when none is watched. */
		trip?: TripSettings;
		/** idling: the length of an idling period that is reported. */
		idleMinutes?: number;
	}
	interface DeviceState {
		/** tripStarted, tripEnded: the segmenter, where the device's track stands after the fixes processed. */
		trips?: SegmenterState;
		/**
		 * tripStarted, tripEnded: after a trip ended by the poll's clock, the segmenter as it stood
		 * before, and that trip's start: fixes uploaded late from inside that silence take the track
		 * back to it, and the trip, already reported ended, is not reported ended again.
		 */
		beforeSilence?: { trips?: SegmenterState; ended: string };
		/**
		 * tripStarted, tripEnded: the poll that fetched the segmenter's last fix when that fix was already
		 * Min Stop Minutes old (a clock behind, a queue on the device): the silence is measured from then.
		 */
		tripsHeard?: string;
		/** idling: when the current idling period began (the fix's `dateTime`), or '' once it has been reported. */
		idleSince?: string;
	}
	interface EventOutput {
		/** The trip as Get Trips and Stops gives it: at its start, as far as it had gone when it was confirmed. */
		tripStarted: { trip: SegmentItem };
		tripEnded: { trip: SegmentItem };
		/** How long the engine had been idling when the period reached Idle Minutes. */
		idling: { idleMinutes: number };
	}
}

const TRIP_EVENTS = ['tripStarted', 'tripEnded'] as const;
type TripEvent = (typeof TRIP_EVENTS)[number];
/** The events that read Moving Speed. */
const DRIVING_EVENTS = [...TRIP_EVENTS, 'idling'] as const;

/**
 * Trips as Get Trips and Stops cuts them, fix by fix as the polls bring them: the segmenter's state
 * is kept per device, so a trip spread over many polls (or a restart) comes out as one read of the
 * whole range would give it. A trip starts once it has taken the device Min Trip Distance from where
 * it stood (reported then, with its start), and ends once the device has stood Min Stop Minutes
 * (reported then, with its summary): both events come that much after the moment itself.
 *
 * Idling, as Get Trips and Stops counts it: the engine running (`rpm` above 0) below Moving Speed.
 * Reported once per idling period, when it reaches Idle Minutes, by fix times; a fix moving, or
 * with the engine off or no `rpm`, ends the period.
 *
 * A silence ends a trip at the first poll after it (segment.ts: endBySilence), by the poll's clock,
 * as Get Trips and Stops ends it at the next fix: a tracker asleep at ignition off has its trip
 * ended Min Stop Minutes after its last fix, not the next morning. Fixes the device uploads later
 * from inside that silence (a buffer) carry the track on as Get Trips will, but the trip is not
 * reported ended a second time.
 *
 * In Latest Fix mode both see one fix a poll: a trip or an idling period shorter than the polls'
 * interval can be missed.
 */
export const trips: Detector = {
	properties: [
		...tripOptionFields.map((property) => ({
			...property,
			// Moving Speed also tells idling from driving.
			displayOptions: { show: { '/events': property.name === 'movingSpeed' ? [...DRIVING_EVENTS] : [...TRIP_EVENTS] } },
		})),
		{
			displayName: 'Idle Minutes',
			name: 'idleMinutes',
			type: 'number',
			default: DEFAULT_IDLE_MINUTES,
			typeOptions: { minValue: 1 },
			description: 'Report an engine left running below Moving Speed for this long; once per idling period, when it reaches this',
			displayOptions: { show: { '/events': ['idling'] } },
		},
	],
	settings: (read) => ({
		trip: DRIVING_EVENTS.some((kind) => read.events.includes(kind)) ? readTripSettings(read) : undefined,
		idleMinutes: read.events.includes('idling') ? read.check('Idle Minutes', toPositive(read.parameter('idleMinutes', DEFAULT_IDLE_MINUTES))) : undefined,
	}),
	detect(observation, previous, settings) {
		const config = settings.trip;
		if (!config) return { events: [] };
		const watchesTrips = TRIP_EVENTS.some((kind) => settings.events.includes(kind));
		const trips = watchesTrips ? tripEvents(observation, previous, config) : { events: [] };
		const idling = settings.idleMinutes === undefined ? { events: [], since: undefined } : idlingEvents(observation, previous.idleSince, config.movingSpeed, settings.idleMinutes);
		return {
			events: [...trips.events, ...idling.events],
			state: { trips: trips.state, beforeSilence: trips.beforeSilence, tripsHeard: trips.heard, idleSince: idling.since },
		};
	},
	sample(kind, observation, settings) {
		// Around the device's newest fix, as the real event shows it: a trip confirmed while moving; a
		// trip ended Min Stop Minutes before, the device standing; an engine idling, standing.
		const newest = observation.newest ?? null;
		const at = newest ? fixTime(newest) : observation.now.getTime();
		if (kind === 'idling') {
			const idleMinutes = settings.idleMinutes ?? DEFAULT_IDLE_MINUTES;
			const shown = (newest && numericValue(newest as Partial<Location>, 'rpm')) ?? 0;
			const rpm = shown > 0 ? shown : SAMPLE_IDLE_RPM;
			return deviceEvent('idling', observation, newest && { ...newest, speed: 0, rpm }, { idleMinutes }, [new Date(at - idleMinutes * MINUTE_MS).toISOString()]);
		}
		const moving = kind === 'tripStarted';
		const config = settings.trip ?? TRIP_DEFAULTS;
		const endAt = moving ? at : at - config.minStopMinutes * MINUTE_MS;
		const point = (position: FixPosition | null, atMs: number, speed: number): TrackPoint => ({
			at: atMs,
			dateTime: new Date(atMs).toISOString(),
			latitude: position?.latitude ?? 0,
			longitude: position?.longitude ?? 0,
			speed,
		});
		// A quarter of an hour at 40 km/h: 10 km, from due south or north of where it ends.
		const to = point(newest, endAt, moving ? SAMPLE_SPEED : 0);
		const from = point({ dateTime: '', latitude: to.latitude > 0 ? to.latitude - 0.09 : to.latitude + 0.09, longitude: to.longitude }, endAt - 15 * MINUTE_MS, SAMPLE_SPEED);
		const segment: Segment = { type: 'trip', ...stretchAt(from, 0), end: to, distanceMeters: Math.max(distanceMeters(from, to), config.minTripDistanceMeters), maxSpeed: SAMPLE_SPEED, lastSeq: 1 };
		return tripEvent(kind as TripEvent, observation, newest && { ...newest, speed: moving ? SAMPLE_SPEED : 0 }, segment);
	},
};

const copy = (state: SegmenterState): SegmenterState => JSON.parse(JSON.stringify(state)) as SegmenterState;

function tripEvents(
	observation: Observation,
	previous: DeviceState,
	config: TripSettings,
): { events: TriggerEvent[]; state?: SegmenterState; beforeSilence?: DeviceState['beforeSilence']; heard?: string } {
	// The segmenter works in place; the state read stays as it was (a poll may run twice from it).
	let state: SegmenterState = previous.trips ? copy(previous.trips) : newSegmenter();
	let beforeSilence = previous.beforeSilence;
	const events: TriggerEvent[] = [];
	const report = (fix: TriggerEvent['location'], closed: Segment[]) => {
		for (const segment of closed) {
			if (segment.type !== 'trip') continue;
			if (segment.start.dateTime === beforeSilence?.ended) {
				beforeSilence = undefined;
				continue;
			}
			events.push(tripEvent('tripEnded', observation, fix, segment));
		}
	};
	for (const fix of observation.fresh) {
		const point = toTrackPoint(fix);
		if (beforeSilence?.trips && typeof point !== 'string') {
			// A fix from inside the silence (a late upload): the device was not silent after all.
			// endBySilence changes nothing when the silence is shorter, so the copy it ran on is the state.
			const resumed = copy(beforeSilence.trips);
			const within = endBySilence(resumed, point.at, config).length === 0;
			if (within) state = resumed;
			beforeSilence = within ? { ended: beforeSilence.ended } : undefined;
		}
		const wasTrip = state.mode === 'trip';
		const { closed } = advance(state, fix, config);
		report(fix, closed);
		const ended = closed.some((segment) => segment.type === 'trip');
		if (state.mode === 'trip' && (!wasTrip || ended)) events.push(tripEvent('tripStarted', observation, fix, { type: 'trip', ...state.segment! }));
	}
	const heard = lastHeard(state, previous, observation, config);
	const before = state.mode === 'trip' ? copy(state) : undefined;
	const silenced = endBySilence(state, state.last ? silenceClock(observation.now, state.last.at, heard) : observation.now.getTime(), config);
	report(observation.newest ?? null, silenced);
	if (before && silenced.length > 0) beforeSilence = { trips: before, ended: silenced[0].start.dateTime };
	return { events, state, beforeSilence, heard };
}

/**
 * The poll that fetched the segmenter's last fix late or ahead (fixes.ts: heardLate), by Min Stop
 * Minutes: a device whose clock runs behind, or which uploads its fixes late, looked silent by the
 * poll's clock at every poll, and had its trip "ended" minutes after it began, the real end then
 * never reported (a second Trip Ended for the same trip is not given); one whose clock runs ahead had
 * its trip ended that much late. Kept until the segmenter takes another fix. Absent for a device seen
 * for the first time, whose fixes may have arrived at any time before: a trip under way in them was
 * reported ended an hour after the first poll, hours after it was.
 */
function lastHeard(state: SegmenterState, previous: DeviceState, observation: Observation, config: TripSettings): string | undefined {
	if (state.count === (previous.trips?.count ?? 0)) return previous.tripsHeard;
	return observation.previous && state.last && heardLate(observation.now, state.last.at, config.minStopMinutes * MINUTE_MS);
}

function idlingEvents(observation: Observation, previous: string | undefined, movingSpeed: number, idleMinutes: number): { events: TriggerEvent[]; since?: string } {
	const events: TriggerEvent[] = [];
	let since = previous;
	let before: TimedPosition | undefined = observation.previous && { at: fixTime({ dateTime: observation.previous.at }), latitude: observation.previous.lat, longitude: observation.previous.lon };
	for (const fix of observation.fresh) {
		const point = toTrackPoint(fix);
		if (typeof point === 'string') continue;
		// A silence longer than MAX_IDLE_GAP_MS: the engine may have been off, a new period begins here.
		if (before !== undefined && point.at - before.at > MAX_IDLE_GAP_MS) since = undefined;
		const idle = engineRunning(point) && speedAt(point, before) < movingSpeed;
		before = point;
		if (!idle) {
			since = undefined;
			continue;
		}
		since ??= fix.dateTime;
		if (since === '') continue;
		const idleMs = point.at - fixTime({ dateTime: since });
		if (idleMs < idleMinutes * MINUTE_MS) continue;
		events.push(deviceEvent('idling', observation, fix, { idleMinutes: Math.floor(idleMs / MINUTE_MS) }, [since]));
		since = '';
	}
	return { events, since };
}

function readTripSettings(read: SettingsReader): TripSettings {
	return fromParameters((name) => read.parameter<unknown>(name, TRIP_DEFAULTS[name]), (label, result) => read.check(label, result), TRIP_DEFAULTS);
}

/** One trip's events keep their ids across polls: the trip is known by its start. */
function tripEvent(kind: TripEvent, observation: Observation, location: TriggerEvent['location'], segment: Segment): TriggerEvent {
	const trip = segmentItem(segment, observation.device.id, observation.device.name);
	return deviceEvent(kind, observation, location, { trip }, [segment.start.dateTime]);
}
