/**
 * The trigger's vocabulary: event kinds, what an event carries, the settings that shape detection
 * and the compact state kept per device between polls. Pure types, no n8n.
 */
import type { Geofence } from '../../shared/geo/geofence';
import type { Channel, ChannelCounts, DailyLimits, LimitThreshold } from '../../shared/notifications';
import type { Device, Location } from '../../shared/wire';

/** Event names users' workflows store (docs/architecture.md, "Names saved workflows store"): add, never rename. */
export const EVENT_KINDS = [
	'locationUpdated',
	'geofenceEntered',
	'geofenceExited',
	'deviceSilent',
	'criticalAlert',
	'deviceExpiring',
	'dailyLimitNear',
	'valueCrossed',
	'fuelDropped',
	'inputChanged',
	'deviceBackOnline',
	'geofenceDwell',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

/** The least a state or an event keeps of a fix: when and where. */
export interface FixPosition {
	dateTime: string;
	latitude: number;
	longitude: number;
}

export interface TriggerEvent {
	event: EventKind;
	/** The same for the same event whichever poll reports it; different for different events. */
	eventId: string;
	deviceId: string;
	deviceName: string;
	/** The fix that caused the event; for device events the newest known one, null if it never reported. */
	location: Location | FixPosition | null;
	/** locationUpdated: null for a device's first fix. */
	previousLocation?: FixPosition | null;
	distanceMeters?: number | null;
	geofence?: string;
	silentForMinutes?: number;
	expires?: string;
	/** criticalAlert: the alert texts of the fix that matched the filter. */
	alerts?: string[];
	/** dailyLimitNear: which channel's count reached which threshold of its limit, on which day. */
	channel?: Channel;
	/** dailyLimitNear: `near` or `limit`; valueCrossed: the rule's value. */
	threshold?: LimitThreshold | number;
	count?: number;
	limit?: number;
	day?: string;
	/** valueCrossed: the fix's field and value that crossed the rule's threshold in its direction. */
	field?: NumericFixField;
	value?: number;
	direction?: ThresholdDirection;
	/** fuelDropped: the fuel of the fix before, how much it fell and over how many minutes. */
	previousValue?: number;
	dropped?: number;
	withinMinutes?: number;
	/** inputChanged: which digital line (0-based) of the fix's `inputs` (or `outputs`) switched, from what to what. */
	input?: number;
	line?: DigitalLine;
	from?: boolean;
	to?: boolean;
	/** geofenceDwell: how long the device had been inside when the stay reached the set length. */
	dwellMinutes?: number;
	/** "Fetch Test Event": the event did not happen; it shows the fields of its kind with the device's data. */
	sample?: true;
}

/** valueCrossed: the fix fields a rule may watch (node-interface.md). */
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

export type ThresholdDirection = 'above' | 'below';

/** valueCrossed: one rule the user listed. */
export interface ThresholdRule {
	field: NumericFixField;
	direction: ThresholdDirection;
	value: number;
	/** How far past the threshold, back out of the range, a value must go before the rule fires again. */
	hysteresis: number;
	/** Only devices with this tag (and value, when not empty); absent for every device. */
	tag?: { key: string; value: string };
}

/** fuelDropped: a fall of more than `amount` between consecutive fixes at most `withinMinutes` apart, below `maxSpeed`. */
export interface FuelDropSettings {
	amount: number;
	withinMinutes: number;
	maxSpeed: number;
}

export type DigitalLine = 'input' | 'output';

/** inputChanged: which lines, which indexes (empty for all) and which switches are reported. */
export interface InputChangeSettings {
	lines: DigitalLine[];
	indexes: number[];
	direction: 'on' | 'off' | 'both';
}

/** dailyLimitNear: the limits the user entered (the API does not expose them) and how days are cut. */
export interface DailyLimitSettings {
	limits: DailyLimits;
	/** Fraction of a limit, in (0, 1], at which a count is near it. */
	share: number;
	/** IANA zone whose midnight starts the day. */
	timeZone: string;
}

export interface DetectionSettings {
	events: EventKind[];
	geofences: Geofence[];
	/** locationUpdated: a newer fix closer than this to the last one reported is held back. */
	minDistanceMeters: number;
	silentAfterMinutes: number;
	expiringWithinDays: number;
	/** criticalAlert: lower-case texts of which an alert must contain one; empty for any alert. */
	alertFilter: string[];
	/** criticalAlert: documented alert names (`fix.alerts`) that count, exactly as the service spells them; empty for any. */
	alertNames?: string[];
	/** dailyLimitNear: absent when the event is not watched. */
	dailyLimit?: DailyLimitSettings;
	/** valueCrossed: absent (or empty) when the event is not watched. */
	thresholdRules?: ThresholdRule[];
	/** fuelDropped: absent when the event is not watched. */
	fuelDrop?: FuelDropSettings;
	/** inputChanged: absent when the event is not watched. */
	inputChange?: InputChangeSettings;
	/** geofenceDwell: the length of a stay that is reported. */
	dwellMinutes?: number;
	/** Geofence entry and exit: how long a device must stay on the new side before it is reported; 0 or absent at once. */
	geofenceMinMinutes?: number;
	/** What is seen for the first time (a device, a geofence, a newly selected event) is emitted, not only recorded. */
	emitCurrentState: boolean;
}

/** dailyLimitNear: a device's e-mails and SMS sent on one calendar day (`YYYY-MM-DD`), as counted this poll. */
export interface DayCounts {
	day: string;
	counts: ChannelCounts;
}

/** A fix as state keeps it. */
export interface SeenFix {
	at: string;
	lat: number;
	lon: number;
}

/**
 * What the trigger remembers of one device. Every field is optional so that a missing slice means
 * "not observed yet" (a baseline), and the JSON stays small for accounts with thousands of devices.
 */
export interface DeviceState {
	/** The newest fix processed. */
	fix?: SeenFix;
	/** Fingerprints of the processed fixes dated exactly `fix.at`: equal timestamps are not duplicates. */
	keys?: string[];
	/** In place of `keys` when more than 20 fixes share `fix.at`: all their fingerprints in a fixed-size bit set. */
	digest?: string;
	/** Every-fix mode, for a device that has not reported yet: read its fixes from here on. */
	since?: string;
	/** The last fix that was a position (positions.ts), kept only while the newest fix `fix` is none. */
	pos?: SeenFix;
	/** The last fix out of reach of `pos`/`fix` (an impossible speed), while no fix after it agreed with either. */
	jump?: SeenFix;
	/** geofenceMinMinutes: geofence id → when the device was first seen on the other side than `fences` says (ISO). */
	turning?: Record<string, string>;
	/** locationUpdated: the last fix reported, kept only while newer fixes are held back by the minimum distance. */
	ref?: SeenFix;
	/** Geofence id → inside. */
	fences?: Record<string, boolean>;
	/** deviceSilent and deviceBackOnline: the device was silent at the last poll (one slice, so the two always pair). */
	silent?: boolean;
	/** deviceSilent: the poll that fetched the newest fix when that fix was already dated more than Silent After back (a clock behind). */
	heard?: string;
	/** deviceExpiring: the `expires` already dealt with ('' when checked and not within the window). */
	expiry?: string;
	/** dailyLimitNear: the last day counted, and the thresholds (crossingKey) already reported on it. */
	limits?: { day: string; reported?: string[] };
	/** valueCrossed: rule key → the device's value is inside the rule's range. */
	ranges?: Record<string, boolean>;
	/** fuelDropped: the newest fuel level processed, and its fix's time when that is not the newest fix's (`fix.at`). */
	fuel?: number;
	fuelAt?: string;
	/** inputChanged: the newest fix's inputs and outputs as bits, e.g. `10` and `0`. */
	inputs?: string;
	outputs?: string;
	/** geofenceDwell: geofence id → when the current stay began (ISO), or '' once it has been reported. */
	stays?: Record<string, string>;
	/** When the device listing first left the device out (ISO time); absent while it is listed. */
	absentSince?: string;
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
}

/** Tags: valueCrossed rules may be scoped to the devices of a tag. */
export type DeviceInfo = Pick<Device, 'id' | 'name' | 'expires' | 'tags'>;
