import { geofenceContains, type Geofence } from '../../../shared/geo/geofence';
import { deviceEvent, type Detector, type Observation } from '../detector';
import { fixFingerprint, toPosition } from '../fixes';
import type { DetectionSettings, EventKind, TriggerEvent } from '../types';

/**
 * Entries and exits, fix by fix. A geofence a device has no record for (a new device, a new or
 * edited geofence) starts from where the device was last seen; being inside it then counts as an
 * entry only when the current state is to be emitted.
 */
export const geofenceCrossing: Detector = {
	detect(observation, previous, settings) {
		const events: TriggerEvent[] = [];
		const fences: Record<string, boolean> = {};
		for (const geofence of settings.geofences) {
			const inside = crossings(geofence, previous.fences?.[geofence.id], observation, settings, events);
			if (inside !== undefined) fences[geofence.id] = inside;
		}
		return { events, state: { fences: Object.keys(fences).length > 0 ? fences : undefined } };
	},
	sample(kind, observation, settings) {
		// A geofence the fix lies outside of for an exit, inside of for an entry, when there is one.
		const fix = observation.newest;
		const fitting = fix && settings.geofences.find((geofence) => geofenceContains(geofence, fix) === (kind === 'geofenceEntered'));
		const geofence = fitting ?? settings.geofences[0];
		return deviceEvent(kind, observation, fix ?? null, { geofence: geofence?.name });
	},
};

/**
 * Told apart by the fix and the geofence itself, not its name: two geofences of one name (an inner
 * and an outer ring, two customer sites) can both be entered on one fix.
 */
export function geofenceEvent(
	kind: EventKind,
	observation: Observation,
	fix: NonNullable<TriggerEvent['location']>,
	geofence: Geofence,
	details: Partial<TriggerEvent> = {},
): TriggerEvent {
	return deviceEvent(kind, observation, fix, { geofence: geofence.name, ...details }, [fixFingerprint(fix), geofence.id]);
}

function crossings(
	geofence: Geofence,
	known: boolean | undefined,
	observation: Observation,
	settings: DetectionSettings,
	events: TriggerEvent[],
): boolean | undefined {
	let inside = known;
	const start = observation.previous && toPosition(observation.previous);
	if (inside === undefined && start) {
		inside = geofenceContains(geofence, start);
		if (inside && settings.emitCurrentState) events.push(geofenceEvent('geofenceEntered', observation, start, geofence));
	}
	for (const fix of observation.fresh) {
		const now = geofenceContains(geofence, fix);
		const changed = inside === undefined ? now && settings.emitCurrentState : now !== inside;
		if (changed) events.push(geofenceEvent(now ? 'geofenceEntered' : 'geofenceExited', observation, fix, geofence));
		inside = now;
	}
	return inside;
}
