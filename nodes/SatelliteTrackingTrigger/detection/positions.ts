/**
 * Which of a poll's fixes are positions, by the rules trips use too (shared/geo/fixQuality.ts,
 * shared/geo/jumps.ts): a fix that is none never moves the device, enters or leaves a geofence. Its
 * time and telemetry still count. Pure.
 */
import { readFix, type TimedPosition } from '../../shared/geo/fixQuality';
import { judgeJump } from '../../shared/geo/jumps';
import type { Location } from '../../shared/wire';
import { parseServiceTime } from '../../shared/validation';
import { toPosition, toSeenFix } from './fixes';
import type { SeenFix } from './types';

const timed = (seen: SeenFix): TimedPosition => ({ at: parseServiceTime(seen.at), latitude: seen.lat, longitude: seen.lon });

/**
 * The fixes (oldest first) that are positions, each judged against the last position accepted
 * before it, starting from `last`; the last position after them. A fix out of reach of it is kept
 * as `suspect`: when the next fix is within reach of the suspect, the two agree and both are
 * positions (a device first seen at a wrong place, or moved while unseen, is not frozen there). A
 * suspect held from an earlier poll comes back as its time and position only: that is all kept of it.
 */
export function plausiblePositions(
	fixes: Location[],
	last: SeenFix | undefined,
	suspect?: SeenFix,
): { positions: Location[]; last?: SeenFix; suspect?: SeenFix } {
	const positions: Location[] = [];
	let current = last;
	let held: { seen: SeenFix; fix: Location } | undefined = suspect && { seen: suspect, fix: toPosition(suspect) as Location };
	for (const fix of fixes) {
		const read = readFix(fix);
		if (typeof read === 'string') continue;
		const verdict = judgeJump(current && timed(current), held && timed(held.seen), read);
		if (verdict === 'hold') {
			held = { seen: toSeenFix(fix), fix };
			continue;
		}
		if (verdict === 'confirm') positions.push(held!.fix);
		positions.push(fix);
		current = toSeenFix(fix);
		held = undefined;
	}
	return { positions, last: current, suspect: held?.seen };
}
