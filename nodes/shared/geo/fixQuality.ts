/**
 * Whether a fix is a position: the one rule for the trips segmentation and the trigger's geofences
 * and movements, so a fix one of them skips the other never uses. Pure.
 */
import { parseServiceTime } from '../validation';
import { distanceMeters } from './distance';

/** What is wrong with a fix, or undefined when it is usable. */
export type FixProblem = 'no time' | 'no position' | 'out of range' | 'at (0, 0)' | 'impossible jump';

/** A fix once its time has been read: epoch milliseconds beside the position. */
export interface TimedPosition {
	at: number;
	latitude: number;
	longitude: number;
}

/**
 * Faster over the ground than anything a satellite-tracked fleet moves in. Trucks and boats are far
 * below it; small aircraft are not: a turboprop or light jet cruises at 500-800 km/h, and a jet with
 * a jet-stream tailwind nears 1,100 km/h over the ground, so a lower limit (trips once used 500)
 * turns real flight legs into glitches. A fix that would need more is a glitch (a cold start, a
 * multipath echo), not a journey.
 */
export const MAX_PLAUSIBLE_SPEED_KMH = 1200;

/**
 * The error a consumer GPS may show on one fix: a jump within it is never "impossible", so two fixes
 * with the same timestamp a few metres apart (a device resending) are not refused.
 */
export const POSITION_ERROR_METERS = 500;

const isCoordinate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The fix's time and position when it has both; else the problem. */
export function readFix(fix: { dateTime?: unknown; latitude?: unknown; longitude?: unknown }): TimedPosition | FixProblem {
	const at = typeof fix.dateTime === 'string' ? parseServiceTime(fix.dateTime) : NaN;
	if (!Number.isFinite(at)) return 'no time';
	const { latitude, longitude } = fix;
	if (!isCoordinate(latitude) || !isCoordinate(longitude)) return 'no position';
	if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return 'out of range';
	// Trackers without a fix yet report the origin; nothing real is tracked in the Gulf of Guinea's middle.
	if (latitude === 0 && longitude === 0) return 'at (0, 0)';
	return { at, latitude, longitude };
}

/**
 * Whether going from `previous` to `next` would need more than MAX_PLAUSIBLE_SPEED_KMH, allowing one
 * fix's position error. Order does not matter: a fix older than the previous one is judged by |Δt|.
 * Fixes sharing a time are not judged: a tracker uploading its buffer after a loss of coverage may
 * stamp every fix of the route it drove with the time it reconnected, so there is no speed to tell.
 */
export function isImpossibleJump(previous: TimedPosition, next: TimedPosition): boolean {
	const beyondError = distanceMeters(previous, next) - POSITION_ERROR_METERS;
	const hours = Math.abs(next.at - previous.at) / 3_600_000;
	if (beyondError <= 0 || hours === 0) return false;
	return beyondError / 1000 > MAX_PLAUSIBLE_SPEED_KMH * hours;
}

/** What is wrong with `fix`, judged alone and, when given, against the last usable fix before it. */
export function fixProblem(
	fix: { dateTime?: unknown; latitude?: unknown; longitude?: unknown },
	previous?: TimedPosition,
): FixProblem | undefined {
	const read = readFix(fix);
	if (typeof read === 'string') return read;
	return previous && isImpossibleJump(previous, read) ? 'impossible jump' : undefined;
}
