/**
 * A stretch of a track between two fixes and what was measured on it. Stretches are plain JSON
 * (kept in the trigger's static data) and join end to start, so a segmenter can hold a candidate
 * trip or stop apart and later either close it or fold it back into the segment before it.
 */
import { distanceMeters } from '../geo/distance';
import type { TimedPosition } from '../geo/fixQuality';

/** A usable fix: its time and position, and the readings the trips use. */
export interface TrackPoint extends TimedPosition {
	/** The service's `dateTime` as sent, for output. */
	dateTime: string;
	speed?: number;
	rpm?: number;
	milleage?: number;
	fuel?: number;
}

export interface Stretch {
	start: TrackPoint;
	end: TrackPoint;
	/** Along the fixes' positions. */
	distanceMeters: number;
	/** The highest `speed` a fix reported; null when none reported one. */
	maxSpeed: number | null;
	idleMs: number;
	/** Whether any fix carried `rpm`: without it idling cannot be told (null in the output, not 0). */
	rpmSeen: boolean;
	/** Numbers of the first and last fix in the order the segmenter accepted them. */
	firstSeq: number;
	lastSeq: number;
}

const higher = (a: number | null, b: number | undefined): number | null =>
	b === undefined ? a : a === null ? b : Math.max(a, b);

/**
 * Two fixes further apart than this are no idling in between, whatever they show: the engine may
 * have been off (a tracker asleep overnight reports its last and first fix with the engine running).
 */
export const MAX_IDLE_GAP_MS = 30 * 60_000;

/** km/h: what `point` reports, else what the positions imply since `previous` (0 without one). */
export function speedAt(point: TimedPosition & { speed?: number }, previous?: TimedPosition): number {
	if (point.speed !== undefined) return point.speed;
	const elapsed = previous ? point.at - previous.at : 0;
	return previous && elapsed > 0 ? (distanceMeters(previous, point) / elapsed) * 3_600 : 0;
}

/** The engine runs: the fix reports rpm above 0. */
export const engineRunning = (point: { rpm?: number }) => point.rpm !== undefined && point.rpm > 0;

/**
 * The engine idles between two fixes when the first shows it running below moving speed (reported,
 * or implied by the two positions) and the second still shows it running, at most MAX_IDLE_GAP_MS
 * later: a device that reports rpm 0 or nothing at the second fix may have been switched off at any
 * time in between, so that interval is not counted.
 */
export function idleMsBetween(from: TrackPoint, to: TrackPoint, movingSpeed: number): number {
	const elapsed = to.at - from.at;
	if (!engineRunning(from) || !engineRunning(to) || elapsed <= 0 || elapsed > MAX_IDLE_GAP_MS) return 0;
	return (from.speed ?? speedAt(to, from)) < movingSpeed ? elapsed : 0;
}

export function stretchAt(point: TrackPoint, seq: number): Stretch {
	return {
		start: point,
		end: point,
		distanceMeters: 0,
		maxSpeed: point.speed ?? null,
		idleMs: 0,
		rpmSeen: point.rpm !== undefined,
		firstSeq: seq,
		lastSeq: seq,
	};
}

/** The stretch carried on to `next`, the fix after its end. */
export function extend(stretch: Stretch, next: TrackPoint, seq: number, movingSpeed: number): Stretch {
	return {
		start: stretch.start,
		end: next,
		distanceMeters: stretch.distanceMeters + distanceMeters(stretch.end, next),
		maxSpeed: higher(stretch.maxSpeed, next.speed),
		idleMs: stretch.idleMs + idleMsBetween(stretch.end, next, movingSpeed),
		rpmSeen: stretch.rpmSeen || next.rpm !== undefined,
		firstSeq: stretch.firstSeq,
		lastSeq: seq,
	};
}

/** `first` then `second`, which starts where `first` ends. */
export function join(first: Stretch, second: Stretch): Stretch {
	return {
		start: first.start,
		end: second.end,
		distanceMeters: first.distanceMeters + second.distanceMeters,
		maxSpeed: higher(first.maxSpeed, second.maxSpeed ?? undefined),
		idleMs: first.idleMs + second.idleMs,
		rpmSeen: first.rpmSeen || second.rpmSeen,
		firstSeq: first.firstSeq,
		lastSeq: second.lastSeq,
	};
}
