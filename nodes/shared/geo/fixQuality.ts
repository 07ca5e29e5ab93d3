/**
 * Whether a fix can be used as a position at a time: pure, so the trips segmentation and the trigger's
 * GPS-quality checks judge fixes the same way.
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
 * Faster than any road vehicle or boat the service tracks: a fix that would need more is a glitch
 * (a cold start, a multipath echo), not a drive.
 */
export const MAX_PLAUSIBLE_SPEED_KMH = 500;

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
 */
export function isImpossibleJump(previous: TimedPosition, next: TimedPosition): boolean {
	const beyondError = distanceMeters(previous, next) - POSITION_ERROR_METERS;
	if (beyondError <= 0) return false;
	const hours = Math.abs(next.at - previous.at) / 3_600_000;
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
