/**
 * Which of a poll's fixes are positions, by the one rule trips use too (shared/geo/fixQuality.ts):
 * a fix that is none never moves the device, enters or leaves a geofence. Its time and telemetry
 * still count. Pure.
 */
import { fixProblem, type TimedPosition } from '../../shared/geo/fixQuality';
import type { Location } from '../../shared/wire';
import { parseServiceTime } from '../../shared/validation';
import { toSeenFix } from './fixes';
import type { SeenFix } from './types';

const timed = (seen: SeenFix): TimedPosition => ({ at: parseServiceTime(seen.at), latitude: seen.lat, longitude: seen.lon });

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
		if (fixProblem(fix) !== undefined) continue;
		const reachableFrom = (from: SeenFix | undefined) => from === undefined || fixProblem(fix, timed(from)) === undefined;
		if (reachableFrom(current) || (jump !== undefined && reachableFrom(jump))) {
			positions.push(fix);
			current = toSeenFix(fix);
			jump = undefined;
		} else {
			jump = toSeenFix(fix);
		}
	}
	return { positions, last: current, suspect: jump };
}
