import { distanceMeters } from '../../../shared/geo/distance';
import type { Location } from '../../../shared/wire';
import { toNumberInRange } from '../../../shared/validation';
import { deviceEvent, type Detector } from '../detector';
import { toPosition, toSeenFix } from '../fixes';
import type { SeenFix, TriggerEvent } from '../types';

declare module '../types' {
	interface DetectionSettings {
		/** locationUpdated: a newer fix closer than this to the last one reported is held back. */
		minDistanceMeters: number;
	}
	interface DeviceState {
		/** locationUpdated: the last fix reported, kept only while newer fixes are held back by the minimum distance. */
		ref?: SeenFix;
	}
	interface EventOutput {
		/** `previousLocation` and `distanceMeters` null for a device's first fix. */
		locationUpdated: { previousLocation: FixPosition | null; distanceMeters: number | null };
	}
}

const position = (fix: SeenFix) => ({ latitude: fix.lat, longitude: fix.lon });

/**
 * Each new fix, unless it lies closer than the minimum distance to the last one reported: the
 * anchor stays put while fixes are held back, so slow creep is reported once it adds up.
 */
export const locationUpdated: Detector = {
	properties: [
		{
			displayName: 'Minimum Distance (Meters)',
			name: 'minDistanceMeters',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description: 'A newer fix closer than this to the last one reported is not reported (GPS jitter while parked)',
		},
	],
	settings: (read) => ({
		minDistanceMeters: read.check('Minimum Distance (Meters)', toNumberInRange(read.parameter('minDistanceMeters', 0), 0, Infinity)),
	}),
	detect(observation, previous, settings) {
		let anchor = previous.ref ?? previous.pos ?? previous.fix;
		let lastReported: Location | undefined;
		const events: TriggerEvent[] = [];
		for (const fix of observation.positions) {
			if (!anchor) {
				// Both fields, null: a workflow (and Fetch Test Event, which shows first fixes) sees every field of the event.
				events.push(deviceEvent('locationUpdated', observation, fix, { previousLocation: null, distanceMeters: null }));
			} else {
				const distance = distanceMeters(position(anchor), fix);
				if (distance < settings.minDistanceMeters) continue;
				events.push(
					deviceEvent('locationUpdated', observation, fix, {
						previousLocation: toPosition(anchor),
						distanceMeters: Math.round(distance * 10) / 10,
					}),
				);
			}
			anchor = toSeenFix(fix);
			lastReported = fix;
		}
		// `ref` is kept only while it differs from the newest fix, which state keeps anyway.
		const latest = observation.positions[observation.positions.length - 1];
		const ref = latest === undefined ? previous.ref : lastReported === latest ? undefined : anchor;
		return { events, state: { ref } };
	},
};
