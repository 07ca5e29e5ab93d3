/**
 * The trigger's vocabulary: what every event carries, the settings every detector shares and the
 * compact state kept per device between polls. Pure types, no n8n. A detector adds its own part
 * to each (its output fields to `EventOutput`, its settings to `DetectionSettings`, its slice to
 * `DeviceState`) in its file, by `declare module '../types'`: nothing here names a detector.
 */
import type { Geofence } from '../../shared/geo/geofence';
import type { ChannelCounts } from '../../shared/notifications';
import type { Device, Location } from '../../shared/wire';
import type { EventKind } from './detectors';

/** The events the trigger reports: the keys of the registry (detectors/index.ts), where it is defined. */
export type { EventKind };

/** The least a state or an event keeps of a fix: when and where. */
export interface FixPosition {
	dateTime: string;
	latitude: number;
	longitude: number;
}

/** What every event carries, whatever its kind. */
export interface EventBase {
	event: EventKind;
	/** The same for the same event whichever poll reports it; different for different events. */
	eventId: string;
	deviceId: string;
	deviceName: string;
	/** The fix that caused the event; for device events the newest known one, null if it never reported. */
	location: Location | FixPosition | null;
	/** "Fetch Test Event": the event did not happen; it shows the fields of its kind with the device's data. */
	sample?: true;
}

/**
 * Event kind → the fields its events carry beside the base. Each detector adds its kinds' entries
 * in its own file (`declare module '../types' { interface EventOutput { … } }`); a kind without
 * fields of its own needs none.
 */
export interface EventOutput {
	[kind: string]: object;
}

type OutputFields = EventOutput[EventKind];
type FieldName<T> = T extends unknown ? keyof T : never;
type FieldType<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * An event as the pure code passes it around: the base, and every kind's fields, optional. A field
 * two kinds share takes either's type (`threshold`: Daily Limit Near's `near`/`limit`, Telemetry
 * Threshold's number).
 */
export type TriggerEvent = EventBase & { [K in FieldName<OutputFields>]?: FieldType<OutputFields, K> };

/** Numeric fix fields: what a telemetry rule may watch (node-interface.md) and what fuel is read from. */
export const NUMERIC_FIX_FIELDS = [
	'speed',
	'battery',
	'fuel',
	'fuel2',
	'temperature',
	'temperature2',
	'rpm',
	'milleage',
	'inactiveSeconds',
] as const;

export type NumericFixField = (typeof NUMERIC_FIX_FIELDS)[number];

/**
 * What detection reads: the selection and lists every detector shares, and (added by each
 * detector in its file) each detector's own settings, as its `settings()` read and checked them.
 */
export interface DetectionSettings {
	events: EventKind[];
	geofences: Geofence[];
	/** What is seen for the first time (a device, a geofence, a newly selected event) is emitted, not only recorded. */
	emitCurrentState: boolean;
}

/** dailyLimitNear: a device's e-mails and SMS sent on one calendar day (`YYYY-MM-DD`), as counted this poll. */
export interface DayCounts {
	day: string;
	counts: ChannelCounts;
}

/**
 * `notifications`: the counts of the read's `days`, when it had some. `ahead`: the service's last
 * location is a glitch dated this far ahead (DeviceState.ahead). `coveredFrom`: where a range read began.
 */
export type ReadOutcome = { ok: true; fixes: Location[]; notifications?: DayCounts[]; ahead?: string; coveredFrom?: number } | { ok: false; error: unknown };

/** A fix as state keeps it. */
export interface SeenFix {
	at: string;
	lat: number;
	lon: number;
}

/**
 * What the trigger remembers of one device. Every field is optional so that a missing slice means
 * "not observed yet" (a baseline), and the JSON stays small for accounts with thousands of devices.
 * These are the fields of new-fix bookkeeping; each detector adds its own slice in its file.
 */
export interface DeviceState {
	/** The newest fix processed. */
	fix?: SeenFix;
	/** Fingerprints of the processed fixes dated exactly `fix.at` (the newest 400 when more share it): equal timestamps are not duplicates. */
	keys?: string[];
	/** When more than 400 fingerprints share `fix.at`: how many records, the ones processed first in the service's order. */
	count?: number;
	/** States saved before `count`: the fingerprints past 20 in a Bloom filter; read until `fix.at` moves on, never written. */
	digest?: string;
	/** Every-fix mode, for a device that has not reported yet: read its fixes from here on. */
	since?: string;
	/** Every-fix mode: where the last range read began, and the fingerprints of the records it held in the late window before `fix.at`. */
	seenSince?: string;
	seenKeys?: string[];
	/** The last fix that was a position (positions.ts), kept only while the newest fix `fix` is none. */
	pos?: SeenFix;
	/** The last fix out of reach of `pos`/`fix` (an impossible speed), while no fix after it agreed with either. */
	jump?: SeenFix;
	/** When the device listing first left the device out (ISO time); absent while it is listed. */
	absentSince?: string;
	/**
	 * Latest Fix: the `dateTime` of the last location the service keeps answering for the device, dated
	 * implausibly far ahead (a clock glitch): the poll reads the recent range instead, one call, until
	 * that date is no longer ahead.
	 */
	ahead?: string;
	/** Read Priority activeFirst: when the device was last read (Unix seconds), and whether that read showed it moving (priority.ts). */
	readAt?: number;
	moving?: true;
}

export const STATE_VERSION = 1;

export interface TriggerState {
	version: typeof STATE_VERSION;
	devices: Record<string, DeviceState>;
	/** Round robin: the last device read in the previous poll, when the budget did not reach them all. */
	cursor?: string;
	/** Devices whose read failed in the previous poll: read first. */
	retry?: string[];
	/**
	 * The first poll happened: a device unknown to the state from then on is new, and what it shows is
	 * reported. Absent in a first poll (and in states saved before it existed): unknown devices are a silent baseline.
	 */
	started?: true;
	/** Devices listed by the first poll but not read yet (budget, failure): still a silent baseline when read. */
	baselinePending?: string[];
	/** Read Priority activeFirst: when the last poll read (Unix seconds), the gap the next poll is expected after. */
	polledAt?: number;
}

/** Tags: valueCrossed rules may be scoped to the devices of a tag. */
export type DeviceInfo = Pick<Device, 'id' | 'name' | 'expires' | 'tags'>;
