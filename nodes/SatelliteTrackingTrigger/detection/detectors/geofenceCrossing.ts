import { geofenceContains, type Geofence } from '../../../shared/geo/geofence';
import { deviceEvent, type Detector, type Observation } from '../detector';
import { fixFingerprint, fixTime, heardLate, MINUTE_MS, silenceClock, toPosition } from '../fixes';
import { parseServiceTime, toNumberInRange } from '../../../shared/validation';
import type { DetectionSettings, EventKind, TriggerEvent } from '../types';

declare module '../types' {
	interface DetectionSettings {
		/** Geofence entry and exit: how long a device must stay on the new side before it is reported; 0 or absent at once. */
		geofenceMinMinutes?: number;
	}
	interface DeviceState {
		/** Geofence id → inside. */
		fences?: Record<string, boolean>;
		/** geofenceMinMinutes: geofence id → when the device was first seen on the other side than `fences` says (ISO). */
		turning?: Record<string, string>;
		/**
		 * geofenceMinMinutes: the poll that fetched the newest position when it was already that long
		 * old (a clock behind, a queue on the device); a stay on the new side is timed from then.
		 */
		fenceHeard?: string;
	}
	interface EventOutput {
		geofenceEntered: { geofence: string };
		geofenceExited: { geofence: string };
	}
}

/**
 * Entries and exits, fix by fix. A geofence a device has no record for (a new device, a new or
 * edited geofence) starts from where the device was last seen; being inside it then counts as an
 * entry only when the current state is to be emitted.
 */
export const geofenceCrossing: Detector = {
	properties: [
		{
			displayName: 'Minimum Minutes Inside or Outside',
			name: 'geofenceMinMinutes',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description:
				'Report an entry or exit only once the device has stayed on the new side this long, by its fix times (or, when it falls silent there, by the clock of the poll), so GPS jitter at the boundary does not flap; 0 reports it at the first fix',
		},
	],
	needs: { geofences: true },
	settings: (read) => ({
		geofenceMinMinutes: read.check('Minimum Minutes Inside or Outside', toNumberInRange(read.parameter('geofenceMinMinutes', 0), 0, Infinity)),
	}),
	detect(observation, previous, settings) {
		const events: TriggerEvent[] = [];
		const fences: Record<string, boolean> = {};
		const turning: Record<string, string> = {};
		const heard = lastHeard(observation, previous.fenceHeard, (settings.geofenceMinMinutes ?? 0) * MINUTE_MS);
		for (const geofence of settings.geofences) {
			const side = crossings(geofence, { inside: previous.fences?.[geofence.id], since: previous.turning?.[geofence.id] }, observation, settings, events, heard);
			if (side.inside !== undefined) fences[geofence.id] = side.inside;
			if (side.since !== undefined) turning[geofence.id] = side.since;
		}
		return {
			events,
			state: {
				fences: Object.keys(fences).length > 0 ? fences : undefined,
				turning: Object.keys(turning).length > 0 ? turning : undefined,
				fenceHeard: Object.keys(turning).length > 0 ? heard : undefined,
			},
		};
	},
	fits(kind, { newest }, settings) {
		return fittingGeofence(kind, newest, settings.geofences) !== undefined;
	},
	sample(kind, observation, settings, consistent) {
		const fix = observation.newest;
		const fitting = fittingGeofence(kind, fix, settings.geofences);
		const geofence = fitting ?? settings.geofences[0];
		const location = consistent && kind === 'geofenceEntered' && !fitting ? insideOf(geofence, fix) : fix;
		return deviceEvent(kind, observation, location ?? null, { geofence: geofence?.name });
	},
};

/** A geofence the fix lies outside of for an exit, inside of for an entry or a dwell; undefined without a fix or one. */
export function fittingGeofence(kind: EventKind, fix: Observation['newest'], geofences: readonly Geofence[]): Geofence | undefined {
	return fix ? geofences.find((geofence) => geofenceContains(geofence, fix) === (kind !== 'geofenceExited')) : undefined;
}

/**
 * A sample's fix moved into a circle geofence, to its centre, so that the entry it shows could have
 * happened; a polygon has no point sure to lie inside, and the fix stays where it is.
 */
export function insideOf(geofence: Geofence | undefined, fix: Observation['newest']): Observation['newest'] {
	if (!fix || geofence?.kind !== 'circle') return fix;
	return { ...fix, latitude: geofence.center.latitude, longitude: geofence.center.longitude };
}

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

/** `inside`: the side last reported (or recorded); `since`: when the device was first seen on the other side, not long enough yet. */
interface Side {
	inside?: boolean;
	since?: string;
}

/**
 * The poll that fetched the newest position late or ahead (fixes.ts: heardLate), by Minimum Minutes:
 * measured by the poll's clock alone, a device whose fixes reach the service late (its clock behind)
 * looked silent on the new side at every fix, and jitter at the boundary was reported at each
 * crossing, Minimum Minutes notwithstanding; one whose clock runs ahead was confirmed that much late.
 * Kept while no newer position comes; absent for a device seen for the first time.
 */
function lastHeard(observation: Observation, previous: string | undefined, minMs: number): string | undefined {
	const newest = observation.positions[observation.positions.length - 1];
	if (!newest) return previous;
	return observation.previous && heardLate(observation.now, fixTime(newest), minMs);
}

function crossings(geofence: Geofence, known: Side, observation: Observation, settings: DetectionSettings, events: TriggerEvent[], heard?: string): Side {
	let { inside, since } = known;
	const start = observation.position && toPosition(observation.position);
	if (inside === undefined && start) {
		inside = geofenceContains(geofence, start);
		if (inside && settings.emitCurrentState) events.push(geofenceEvent('geofenceEntered', observation, start, geofence));
	}
	const minMs = (settings.geofenceMinMinutes ?? 0) * MINUTE_MS;
	let latest: NonNullable<TriggerEvent['location']> | undefined = start;
	for (const fix of observation.positions) {
		latest = fix;
		const now = geofenceContains(geofence, fix);
		if (inside === undefined) {
			if (now && settings.emitCurrentState) events.push(geofenceEvent('geofenceEntered', observation, fix, geofence));
			inside = now;
			continue;
		}
		if (now === inside) {
			since = undefined;
			continue;
		}
		since ??= fix.dateTime;
		if (fixTime(fix) - parseServiceTime(since) < minMs) continue;
		events.push(geofenceEvent(now ? 'geofenceEntered' : 'geofenceExited', observation, fix, geofence));
		inside = now;
		since = undefined;
	}
	// A device silent on the new side (a tracker asleep inside the yard) is there by the poll's clock,
	// less the lag its newest position was fetched with.
	const clock = latest ? silenceClock(observation.now, fixTime(latest), heard) : observation.now.getTime();
	if (since !== undefined && inside !== undefined && latest && clock - parseServiceTime(since) >= minMs) {
		events.push(geofenceEvent(inside ? 'geofenceExited' : 'geofenceEntered', observation, latest, geofence));
		return { inside: !inside, since: undefined };
	}
	return { inside, since };
}
