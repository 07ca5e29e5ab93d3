/**
 * One kind of change a device can show between polls. Each detector owns its parameters, reads and
 * checks them (`settings`), declares the data it needs beyond the device's fixes (`needs`), reads its
 * own part of the device's previous state, reports events and returns its part of the next state;
 * its file adds its settings, state slice and output fields to the types (`declare module '../types'`).
 * Adding an event kind is one detector file and its line in the registry (detectors/index.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { longHash } from '../../shared/hash';
import type { Check } from '../../shared/validation';
import type { Location } from '../../shared/wire';
import { fixFingerprint } from './fixes';
import type { DayCounts, DetectionSettings, DeviceInfo, DeviceState, EventKind, FixPosition, SeenFix, TriggerEvent } from './types';

export interface Observation {
	device: DeviceInfo;
	/** Fixes newer than the newest processed one, oldest first. */
	fresh: Location[];
	/**
	 * What the events reading telemetry go through: `fresh`, and the records that repeat a processed
	 * fix's time and position with new telemetry (a tracker without a GPS lock). Oldest first.
	 */
	readings: Location[];
	/**
	 * Fixes dated before the newest one processed, within the late window (fixes.ts), that Every Fix
	 * reads for the first time: uploaded late. Never positions or readings; their alerts are news.
	 */
	late: Location[];
	/** The newest fix processed before this poll. */
	previous?: SeenFix;
	/** `fresh` without the fixes that are no position (positions.ts): what moves the device and crosses geofences. */
	positions: Location[];
	/** The last position accepted before this poll (the newest fix processed, unless that was no position). */
	position?: SeenFix;
	/** The newest fix known after this poll: as fetched, or as state kept it. */
	newest?: Location | FixPosition;
	now: Date;
	/** dailyLimitNear: the days counted this poll, oldest first; absent when the device's alerts were not read. */
	notifications?: DayCounts[];
}

export interface Detection {
	events: TriggerEvent[];
	state?: Partial<DeviceState>;
}

/**
 * How a detector reads its parameters, each poll: `parameter` with the detector's default, then
 * `check`, which stops the run with an `Invalid "<label>"` error naming the field. settings.ts
 * gives it the node's parameters; a test gives it a recorder to see every parameter is read.
 */
export interface SettingsReader {
	/** The events selected. */
	events: EventKind[];
	parameter<T>(name: string, fallback: T): T;
	check<T>(label: string, result: Check<T>): T;
	/** Something the selected events cannot run without is missing (a limit, a rule): the run stops with `message`. */
	fail(message: string): never;
}

/** What a detector reads besides each device's fixes; the poll plans its reads and checks from this. */
export interface Needs {
	/** The Geofences list: a selected event of the detector needs at least one geofence. */
	geofences?: true;
	/** The fixes' telemetry and digital lines: a record repeating a fix's time and position with new values is news. */
	telemetry?: true;
	/** Each device's alerts, read with one more call per device and counted by calendar day in the time zone this gives. */
	alerts?: (settings: DetectionSettings) => string;
}

export interface Detector {
	/** The parameters only this detector reads; shown while one of its events is selected. */
	properties?: INodeProperties[];
	/**
	 * The lists a user builds up by hand for this detector (rules, limits): always shown, since n8n's
	 * editor drops the value of a parameter it hides, and removing an event to pick another must not
	 * empty them. Selected events that need an entry say so in a notice above.
	 */
	lists?: INodeProperties[];
	needs?: Needs;
	/**
	 * Reads and checks every parameter of `properties` and `lists` (test/unit/registries.test.ts fails
	 * on one left unread), with the detector's defaults, into its part of `DetectionSettings`. Called
	 * every poll; what only a selected event needs (a list to fill) is required only when one is.
	 */
	settings?(read: SettingsReader): Partial<DetectionSettings>;
	detect(observation: Observation, previous: DeviceState, settings: DetectionSettings): Detection;
	/**
	 * "Fetch Test Event", for a selected `kind` that did not happen among the devices read: an event
	 * of that kind built from this device's data, with every field the real one carries. Without it
	 * a sample carries the fields every event has. `consistent` (node version 2 on): the sample could
	 * have happened under these settings (a count near its limit, an expiry ahead, a value past its
	 * rule), its `location` changed as far as that takes; version 1 keeps the samples it showed.
	 */
	sample?(kind: EventKind, observation: Observation, settings: DetectionSettings, consistent: boolean): TriggerEvent;
	/**
	 * Whether this device's data shows `kind` as it is (its fix inside a geofence for a dwell): a
	 * version-2 sample comes from such a device when one was read, rather than from one moved to fit.
	 */
	fits?(kind: EventKind, observation: Observation, settings: DetectionSettings): boolean;
}

/**
 * An event of the observed device. Its `eventId` is the same whichever poll reports it (a poll run
 * twice, or repeated after a crash before n8n saved the state), so a workflow can deduplicate on it.
 * `identity` is what tells the event apart from the device's other events of its kind; by default the
 * fix it reports (time, position, alerts) and its text details (a geofence's name). An event about
 * the device rather than a fix names its own, since its `location` is only the newest fix known.
 */
export function deviceEvent(
	event: EventKind,
	observation: Observation,
	location: TriggerEvent['location'],
	details: Partial<TriggerEvent> = {},
	identity: unknown[] = [location && fixFingerprint(location), ...Object.values(details).filter((value) => typeof value === 'string')],
): TriggerEvent {
	const deviceId = observation.device.id;
	const eventId = longHash(JSON.stringify([deviceId, event, ...identity]));
	return { event, eventId, deviceId, deviceName: observation.device.name ?? '', location, ...details };
}
