import { isExpiringWithin } from '../../../shared/devices';
import { toNumberInRange } from '../../../shared/validation';
import { DAY_MS } from '../../../shared/zonedDay';
import { deviceEvent, type Detector, type Observation } from '../detector';
import type { EventKind, TriggerEvent } from '../types';

export const DEFAULT_EXPIRING_WITHIN_DAYS = 7;

declare module '../types' {
	interface DetectionSettings {
		expiringWithinDays: number;
	}
	interface DeviceState {
		/** deviceExpiring: the `expires` already dealt with ('' when checked and not within the window). */
		expiry?: string;
	}
	interface EventOutput {
		deviceExpiring: { expires: string };
	}
}

/** A device whose `expires` falls within the window: once per device and expiry date. */
export const deviceExpiring: Detector = {
	properties: [
		{
			displayName: 'Expiring Within (Days)',
			name: 'expiringWithinDays',
			type: 'number',
			default: DEFAULT_EXPIRING_WITHIN_DAYS,
			typeOptions: { minValue: 0 },
			description: 'Report a device whose license expires within this many days; once per device and expiry date',
		},
	],
	settings: (read) => ({
		expiringWithinDays: read.check(
			'Expiring Within (Days)',
			toNumberInRange(read.parameter('expiringWithinDays', DEFAULT_EXPIRING_WITHIN_DAYS), 0, Infinity),
		),
	}),
	detect(observation, previous, settings) {
		const expires = observation.device.expires ?? '';
		if (!isExpiringWithin(observation.device, observation.now, settings.expiringWithinDays)) return { events: [], state: { expiry: previous.expiry ?? '' } };
		const report = previous.expiry !== expires && (previous.expiry !== undefined || settings.emitCurrentState);
		const events = report ? [expiry('deviceExpiring', observation, expires)] : [];
		return { events, state: { expiry: expires } };
	},
	sample(kind, observation, settings, consistent) {
		const expires = observation.device.expires ?? '';
		const within = new Date(observation.now.getTime() + settings.expiringWithinDays * DAY_MS).toISOString();
		// Version 1 showed any expiry the device had, one already past too.
		const usable = consistent ? isExpiringWithin(observation.device, observation.now, settings.expiringWithinDays) : !Number.isNaN(Date.parse(expires));
		return expiry(kind, observation, usable ? expires : within);
	},
};

/** Told apart by the expiry date: `location` is only the newest fix known. */
function expiry(kind: EventKind, observation: Observation, expires: string): TriggerEvent {
	return deviceEvent(kind, observation, observation.newest ?? null, { expires }, [expires]);
}
