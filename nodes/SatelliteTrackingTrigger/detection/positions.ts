/**
 * Which fixes are positions: GPS quality. A fix at (0, 0) (a tracker without a lock reporting its
 * default), with coordinates out of range, or implying an impossible speed from the last position
 * (a multipath jump) is no place the device was: it never moves the device, enters or leaves a
 * geofence. Its time and telemetry still count. Pure.
 */
import { distanceMeters } from '../../shared/geo/distance';
import type { Location } from '../../shared/wire';
import { fixTime, toSeenFix } from './fixes';
import type { SeenFix } from './types';
import { parseServiceTime } from '../../shared/validation';

/** Faster than any airliner: a jump implying more is a bad fix, not a journey. */
export const MAX_SPEED_KMH = 1200;
/** Shorter jumps are GPS jitter, whatever the speed two close fixes imply: judged by the geofence rules, not here. */
const MIN_JUMP_METERS = 1000;

export function isPosition(fix: Pick<Location, 'latitude' | 'longitude'>): boolean {
	const { latitude, longitude } = fix;
	if (latitude === 0 && longitude === 0) return false;
	return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** Not an impossible speed from `from`; fixes at one instant are not judged (no speed to tell). */
export function isReachable(fix: Location, from: SeenFix | undefined): boolean {
	if (!from) return true;
	const hours = (fixTime(fix) - parseServiceTime(from.at)) / 3_600_000;
	if (!(hours > 0)) return true;
	const meters = distanceMeters({ latitude: from.lat, longitude: from.lon }, fix);
	return meters < MIN_JUMP_METERS || meters / 1000 / hours <= MAX_SPEED_KMH;
}

/**
 * The fixes (oldest first) that are positions, each judged against the last position accepted
 * before it, starting from `last`; the last position after them. A fix out of reach of it is kept
 * as `suspect`: when the next fix is within reach of the suspect, the two agree and that fix is
 * taken (a device first seen at a wrong place, or moved while unseen, is not frozen there).
 */
export function plausiblePositions(
	fixes: Location[],
	last: SeenFix | undefined,
	suspect?: SeenFix,
): { positions: Location[]; last?: SeenFix; suspect?: SeenFix } {
	const positions: Location[] = [];
	let current = last;
	let jump = suspect;
	for (const fix of fixes) {
		if (!isPosition(fix)) continue;
		if (isReachable(fix, current) || (jump !== undefined && isReachable(fix, jump))) {
			positions.push(fix);
			current = toSeenFix(fix);
			jump = undefined;
		} else {
			jump = toSeenFix(fix);
		}
	}
	return { positions, last: current, suspect: jump };
}
