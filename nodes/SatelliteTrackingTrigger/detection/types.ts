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
	deviceId: string;
	deviceName: string;
	/** The fix that caused the event; for device events the newest known one, null if it never reported. */
	location: Location | FixPosition | null;
	previousLocation?: FixPosition;
	distanceMeters?: number;
	geofence?: string;
	silentForMinutes?: number;
	expires?: string;
	/** criticalAlert: the alert texts of the fix that matched the filter. */
	alerts?: string[];
	/** dailyLimitNear: which channel's count reached which threshold of its limit, on which day. */
	channel?: Channel;
	threshold?: LimitThreshold;
	count?: number;
	limit?: number;
	day?: string;
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
	/** dailyLimitNear: absent when the event is not watched. */
	dailyLimit?: DailyLimitSettings;
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
	/** Every-fix mode, for a device that has not reported yet: read its fixes from here on. */
	since?: string;
	/** locationUpdated: the last fix reported, kept only while newer fixes are held back by the minimum distance. */
	ref?: SeenFix;
	/** Geofence id → inside. */
	fences?: Record<string, boolean>;
	silent?: boolean;
	/** deviceExpiring: the `expires` already dealt with ('' when checked and not within the window). */
	expiry?: string;
	/** dailyLimitNear: the last day counted, and the thresholds (crossingKey) already reported on it. */
	limits?: { day: string; reported?: string[] };
}

export const STATE_VERSION = 1;

export interface TriggerState {
	version: typeof STATE_VERSION;
	devices: Record<string, DeviceState>;
	/** Round robin: the last device read in the previous poll, when the budget did not reach them all. */
	cursor?: string;
	/** Devices whose read failed in the previous poll: read first. */
	retry?: string[];
}

export type DeviceInfo = Pick<Device, 'id' | 'name' | 'expires'>;
