import { geofenceContains } from '../../../shared/geo/geofence';
import { deviceEvent, type Detector } from '../detector';
import { fixTime, MINUTE_MS } from '../fixes';
import { fittingGeofence, geofenceEvent, insideOf } from './geofenceCrossing';
import type { TriggerEvent } from '../types';
import { parseServiceTime, toPositive } from '../../../shared/validation';

export const DEFAULT_DWELL_MINUTES = 30;

declare module '../types' {
	interface DetectionSettings {
		/** geofenceDwell: the length of a stay that is reported. */
		dwellMinutes?: number;
	}
	interface DeviceState {
		/** geofenceDwell: geofence id → when the current stay began (ISO), or '' once it has been reported. */
		stays?: Record<string, string>;
	}
	interface EventOutput {
		/** `dwellMinutes`: how long the device had been inside when the stay reached the set length. */
		geofenceDwell: { geofence: string; dwellMinutes: number };
	}
}

/**
 * A device that has stayed inside a geofence for the set time: once per stay. A stay runs from the
 * first fix seen inside to the fix that reaches the length, by fix times, so it comes out the same
 * however far apart the polls are (in Latest Fix mode it begins at the first fix a poll saw inside).
 * A fix outside ends the stay. State keeps, per geofence the device is in, when the stay began, or ''
 * once it has been reported.
 */
export const geofenceDwell: Detector = {
	properties: [
		{
			displayName: 'Dwell (Minutes)',
			name: 'dwellMinutes',
			type: 'number',
			default: DEFAULT_DWELL_MINUTES,
			typeOptions: { minValue: 1 },
			description: 'Report a device that stays inside one of the geofences for this long; once per stay',
		},
	],
	needs: { geofences: true },
	settings: (read) => ({
		dwellMinutes: read.events.includes('geofenceDwell')
			? read.check('Dwell (Minutes)', toPositive(read.parameter('dwellMinutes', DEFAULT_DWELL_MINUTES)))
			: undefined,
	}),
	detect(observation, previous, settings) {
		const dwellMs = (settings.dwellMinutes ?? 0) * MINUTE_MS;
		const events: TriggerEvent[] = [];
		const stays: Record<string, string> = {};
		for (const geofence of settings.geofences) {
			let began = previous.stays?.[geofence.id];
			for (const fix of observation.positions) {
				if (!geofenceContains(geofence, fix)) {
					began = undefined;
					continue;
				}
				began ??= fix.dateTime;
				if (began === '') continue;
				const insideMs = fixTime(fix) - parseServiceTime(began);
				if (insideMs < dwellMs) continue;
				events.push(geofenceEvent('geofenceDwell', observation, fix, geofence, { dwellMinutes: Math.floor(insideMs / MINUTE_MS) }));
				began = '';
			}
			if (began !== undefined) stays[geofence.id] = began;
		}
		return { events, state: { stays: Object.keys(stays).length > 0 ? stays : undefined } };
	},
	fits(kind, { newest }, settings) {
		return fittingGeofence(kind, newest, settings.geofences) !== undefined;
	},
	sample(kind, observation, settings, consistent) {
		const fix = observation.newest;
		const inside = fittingGeofence(kind, fix, settings.geofences);
		const geofence = inside ?? settings.geofences[0];
		const location = consistent && !inside ? insideOf(geofence, fix) : fix;
		return deviceEvent('geofenceDwell', observation, location ?? null, { geofence: geofence?.name, dwellMinutes: settings.dwellMinutes ?? DEFAULT_DWELL_MINUTES });
	},
};
