/**
 * The one rule for an impossible jump, used by the trips (shared/trips/segment.ts) and by the
 * trigger's positions (SatelliteTrackingTrigger/detection/positions.ts), so Location Updated and the
 * geofence events see the same positions as Get Trips and Stops. Pure.
 */
import { isImpossibleJump, type TimedPosition } from './fixQuality';

/**
 * `accept`: the fix is within reach of the last position accepted (or there is none).
 * `hold`: out of reach; it is held as the suspect until a later fix tells.
 * `confirm`: out of reach of the last position but within reach of the suspect held before it: the
 * two agree, so the device really is at the new place (towed, moved while unseen, or the earlier fix
 * was the bad one). Both are positions, the suspect first; the track breaks between the last
 * position and the suspect.
 */
export type JumpVerdict = 'accept' | 'hold' | 'confirm';

/** A glitch comes back; a device that really moved goes on from the new place. */
export function judgeJump(last: TimedPosition | undefined, suspect: TimedPosition | undefined, next: TimedPosition): JumpVerdict {
	if (last === undefined || !isImpossibleJump(last, next)) return 'accept';
	return suspect !== undefined && next.at >= suspect.at && !isImpossibleJump(suspect, next) ? 'confirm' : 'hold';
}
