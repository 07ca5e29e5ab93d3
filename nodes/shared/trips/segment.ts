/**
 * A device's fixes cut into trips and stops, one fix at a time. The state is plain JSON, so a caller
 * that sees fixes a few at a time (the trigger, poll after poll) keeps it between calls and gets the
 * same segments as a caller that reads a whole range at once.
 *
 * Trips and stops alternate and touch: a stop ends at the fix its trip starts from. A stop starts at
 * the first fix that stands still and is confirmed after `minStopMinutes` of standing (a traffic
 * light shorter than that stays inside its trip). A trip is confirmed only once it has taken the
 * device `minTripDistanceMeters` from where the stop began, so GPS wander while parked, whatever
 * speed it shows, never becomes a trip.
 *
 * A silence ends a trip, so the trigger need not wait for the next fix (the next morning, for a
 * tracker that sleeps at ignition off): a trip whose last fix stood still ends, where it stopped,
 * once the device has been silent `minStopMinutes`; one whose last fix was moving (a tunnel, no
 * coverage) ends at that fix after `silenceEndsTripMinutes`. The rule is the same whether the time
 * comes from the next fix (Get Trips) or from the poll's clock (the trigger: endBySilence). A device
 * found `minTripDistanceMeters` away after `silenceEndsTripMinutes` without a fix made no trip we can
 * measure: the track breaks there, as at a confirmed jump.
 */
import { distanceMeters } from '../geo/distance';
import { readFix, type FixProblem } from '../geo/fixQuality';
import { judgeJump } from '../geo/jumps';
import type { Location } from '../wire';
import { extend, join, stretchAt, type Stretch, type TrackPoint } from './stretch';

/** A fix as it came: any of its fields may be missing or of the wrong type. */
export type RawFix = { readonly [Field in keyof Location]?: unknown };

export interface TripSettings {
	/** A fix at or above this speed is moving (the service's `speed`, in the unit its app shows). */
	movingSpeed: number;
	minStopMinutes: number;
	minTripDistanceMeters: number;
	/** A trip whose last fix was moving ends at it after this long without a fix. */
	silenceEndsTripMinutes: number;
}

export const TRIP_DEFAULTS: TripSettings = { movingSpeed: 5, minStopMinutes: 5, minTripDistanceMeters: 200, silenceEndsTripMinutes: 60 };

export type SegmentType = 'trip' | 'stop';

export interface Segment extends Stretch {
	type: SegmentType;
}

export interface SegmenterState {
	mode: SegmentType;
	/** The last fix accepted, and how many were accepted (the next one's number). */
	last?: TrackPoint;
	count: number;
	/** The segment under way, up to where a candidate began. */
	segment?: Stretch;
	/** A candidate: in a stop, a trip not yet far enough; in a trip, a stop not yet long enough. */
	candidate?: Stretch;
	/**
	 * Where the stop stands: the mean of its fixes, around which GPS wander scatters them. A trip
	 * must take the device `minTripDistanceMeters` from it.
	 */
	anchor?: Anchor;
	/** The candidate trip's farthest moving fix from the anchor. */
	reach: number;
	lastMovingAt: number;
	/** A fix refused as an impossible jump, kept to tell a glitch from a device really moved elsewhere. */
	suspect?: TrackPoint;
}

export interface Anchor {
	latitude: number;
	longitude: number;
	count: number;
}

/** `repeat`: the same time and position as the last fix accepted or refused (a record sent twice). */
export type Skipped = FixProblem | 'out of order' | 'repeat';

export interface Advance {
	/** Segments closed by this fix, oldest first. */
	closed: Segment[];
	/** The fixes accepted, in order: this one, after a refused one it proved right, or none. */
	accepted: TrackPoint[];
	/** Why the fix was not used, when it was not. */
	skipped?: Skipped;
}

const MINUTE_MS = 60_000;
/** km/h from metres and milliseconds. */
const KMH_PER_M_PER_MS = 3_600;

export function newSegmenter(): SegmenterState {
	return { mode: 'stop', count: 0, reach: 0, lastMovingAt: 0 };
}

const numeric = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The fix as a track point, or why it cannot be one on its own. */
export function toTrackPoint(fix: RawFix): TrackPoint | FixProblem {
	const read = readFix(fix);
	if (typeof read === 'string') return read;
	// One literal of one shape for every fix: a month of them goes through here.
	return {
		at: read.at,
		latitude: read.latitude,
		longitude: read.longitude,
		dateTime: fix.dateTime as string,
		speed: numeric(fix.speed),
		rpm: numeric(fix.rpm),
		milleage: numeric(fix.milleage),
		fuel: numeric(fix.fuel),
	};
}

/**
 * Whether the device moved between `previous` and `point`: the reported speed when there is one,
 * else the speed the two positions imply; and a device found `minTripDistanceMeters` away after a
 * silence of `minStopMinutes` moved, whatever its speed now says.
 */
function isMoving(previous: TrackPoint, point: TrackPoint, settings: TripSettings): boolean {
	const meters = distanceMeters(previous, point);
	const elapsed = point.at - previous.at;
	if (elapsed >= settings.minStopMinutes * MINUTE_MS && meters >= settings.minTripDistanceMeters) return true;
	if (point.speed !== undefined) return point.speed >= settings.movingSpeed;
	return elapsed > 0 && (meters / elapsed) * KMH_PER_M_PER_MS >= settings.movingSpeed;
}

/** A silence of `minStopMinutes` that left the device where it was: it stood still all along. */
function stoodThroughGap(previous: TrackPoint, point: TrackPoint, settings: TripSettings): boolean {
	return (
		point.at - previous.at >= settings.minStopMinutes * MINUTE_MS &&
		distanceMeters(previous, point) < settings.minTripDistanceMeters
	);
}

const close = (type: SegmentType, stretch: Stretch): Segment[] =>
	stretch.end.at > stretch.start.at ? [{ type, ...stretch }] : [];

/** Takes in the next fix (in time order) and returns the segments it closed. */
export function advance(state: SegmenterState, fix: RawFix, settings: TripSettings): Advance {
	return advanceTo(state, toTrackPoint(fix), settings);
}

/** advance, for a fix already read. */
export function advanceTo(state: SegmenterState, point: TrackPoint | FixProblem, settings: TripSettings): Advance {
	if (typeof point === 'string') return { closed: [], accepted: [], skipped: point };
	const previous = state.last;
	if (!previous) {
		begin(state, point);
		return { closed: [], accepted: [point] };
	}
	if (point.at < previous.at) return { closed: [], accepted: [], skipped: 'out of order' };
	// A record sent twice is one fix: taken twice it would weigh the stop's anchor, end a trip at
	// the repeat, or (a glitch repeated) count as a second fix agreeing with the refused one. The
	// trigger never sees repeats (fixes.ts drops them), so Get Trips must not either.
	if (isRepeat(previous, point) || (state.suspect && isRepeat(state.suspect, point))) return { closed: [], accepted: [], skipped: 'repeat' };
	// The silence up to this fix, as the trigger's clock would have seen it pass.
	const silenced = endBySilence(state, point.at, settings);
	const judged = judge(state, previous, point, settings);
	return silenced.length > 0 ? { ...judged, closed: [...silenced, ...judged.closed] } : judged;
}

function judge(state: SegmenterState, previous: TrackPoint, point: TrackPoint, settings: TripSettings): Advance {
	const verdict = judgeJump(previous, state.suspect, point);
	if (verdict === 'hold') {
		state.suspect = point;
		return { closed: [], accepted: [], skipped: 'impossible jump' };
	}
	if (verdict === 'confirm') {
		// The track breaks there: no distance is made up across the jump.
		const suspect = state.suspect!;
		const closed = openSegments(state, settings);
		begin(state, suspect);
		return { closed: [...closed, ...step(state, suspect, point, settings)], accepted: [suspect, point] };
	}
	state.suspect = undefined;
	if (brokenBySilence(state, previous, point, settings)) {
		const closed = openSegments(state, settings);
		begin(state, point);
		return { closed, accepted: [point] };
	}
	return { closed: step(state, previous, point, settings), accepted: [point] };
}

/**
 * The trip under way, ended by the silence since the last fix up to `now`: after `minStopMinutes`
 * when the last fix stood still (the trip ends where it stopped), after `silenceEndsTripMinutes`
 * when it was moving (the trip ends at it). The stop that follows begins there. Nothing changes
 * when there is no trip or the silence is shorter; calling it again changes nothing either.
 */
export function endBySilence(state: SegmenterState, now: number, settings: TripSettings): Segment[] {
	const { segment, last } = state;
	if (state.mode !== 'trip' || !segment || !last) return [];
	const stoodStill = state.candidate !== undefined;
	const limitMs = (stoodStill ? settings.minStopMinutes : settings.silenceEndsTripMinutes) * MINUTE_MS;
	if (now - last.at < limitMs) return [];
	const closed = close('trip', segment);
	startStop(state, state.candidate ?? stretchAt(last, state.count - 1));
	return closed;
}

/** No trip is made across a silence of `silenceEndsTripMinutes` after which the device is elsewhere. */
const brokenBySilence = (state: SegmenterState, previous: TrackPoint, point: TrackPoint, settings: TripSettings) =>
	state.mode === 'stop' &&
	point.at - previous.at >= settings.silenceEndsTripMinutes * MINUTE_MS &&
	distanceMeters(previous, point) >= settings.minTripDistanceMeters;

const isRepeat = (earlier: TrackPoint, point: TrackPoint) =>
	point.at === earlier.at && point.latitude === earlier.latitude && point.longitude === earlier.longitude;

function begin(state: SegmenterState, point: TrackPoint): void {
	state.mode = 'stop';
	state.candidate = undefined;
	state.suspect = undefined;
	state.segment = stretchAt(point, accept(state, point));
	startStop(state, state.segment);
}

function accept(state: SegmenterState, point: TrackPoint): number {
	state.last = point;
	return state.count++;
}

function step(state: SegmenterState, previous: TrackPoint, point: TrackPoint, settings: TripSettings): Segment[] {
	const seq = accept(state, point);
	const moving = isMoving(previous, point, settings);
	const still = stoodThroughGap(previous, point, settings);
	const { movingSpeed, minStopMinutes, minTripDistanceMeters } = settings;
	const minStopMs = minStopMinutes * MINUTE_MS;
	const segment = state.segment!;

	if (state.mode === 'trip') {
		if (still) {
			// Parked through a silence: the stop began where the device stood before it.
			const stop = extend(state.candidate ?? stretchAt(previous, seq - 1), point, seq, movingSpeed);
			const closed = close('trip', segment);
			startStop(state, stop);
			if (point.speed !== undefined && point.speed >= movingSpeed) startCandidateTrip(state, stretchAt(point, seq), point);
			return closed;
		}
		if (moving) {
			state.segment = extend(state.candidate ? join(segment, state.candidate) : segment, point, seq, movingSpeed);
			state.candidate = undefined;
			return [];
		}
		if (!state.candidate) {
			state.segment = extend(segment, point, seq, movingSpeed);
			state.candidate = stretchAt(point, seq);
			return [];
		}
		state.candidate = extend(state.candidate, point, seq, movingSpeed);
		if (point.at - state.candidate.start.at < minStopMs) return [];
		const closed = close('trip', segment);
		startStop(state, state.candidate);
		return closed;
	}

	if (!state.candidate) {
		if (!moving) {
			state.segment = extend(segment, point, seq, movingSpeed);
			state.anchor = settle(state.anchor!, point);
			return [];
		}
		if (still) {
			state.segment = extend(segment, point, seq, movingSpeed);
			startCandidateTrip(state, stretchAt(point, seq), point);
			return [];
		}
		startCandidateTrip(state, extend(stretchAt(previous, seq - 1), point, seq, movingSpeed), point);
	} else {
		state.candidate = extend(state.candidate, point, seq, movingSpeed);
		if (moving) {
			state.reach = Math.max(state.reach, distanceMeters(state.anchor!, point));
			state.lastMovingAt = point.at;
		}
	}
	if (state.reach >= minTripDistanceMeters) {
		const closed = close('stop', segment);
		state.mode = 'trip';
		state.segment = state.candidate;
		state.candidate = moving ? undefined : stretchAt(point, seq);
		return closed;
	}
	if (!moving && point.at - state.lastMovingAt >= minStopMs) {
		// It never got far: wander, or shunting about the yard. The stop goes on.
		state.segment = join(segment, state.candidate!);
		state.candidate = undefined;
	}
	return [];
}

function startStop(state: SegmenterState, stop: Stretch): void {
	state.mode = 'stop';
	state.segment = stop;
	state.candidate = undefined;
	state.reach = 0;
	state.anchor = { latitude: stop.start.latitude, longitude: stop.start.longitude, count: 1 };
}

/** Degrees east from `from` to `to` the short way, across the antimeridian when that is shorter. */
const eastward = (from: number, to: number) => ((((to - from) % 360) + 540) % 360) - 180;

/** The anchor with one more of the stop's fixes averaged in (a stop is small: its degrees average well). */
function settle(anchor: Anchor, point: TrackPoint): Anchor {
	const count = anchor.count + 1;
	const longitude = anchor.longitude + eastward(anchor.longitude, point.longitude) / count;
	return {
		latitude: anchor.latitude + (point.latitude - anchor.latitude) / count,
		longitude: longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude,
		count,
	};
}

function startCandidateTrip(state: SegmenterState, candidate: Stretch, point: TrackPoint): void {
	state.candidate = candidate;
	state.reach = distanceMeters(state.anchor!, point);
	state.lastMovingAt = point.at;
}

/**
 * The segments still open, as they stand at the last fix: what a read that ends now reports. The
 * state is left as it is, so more fixes may follow.
 */
export function openSegments(state: SegmenterState, settings: TripSettings): Segment[] {
	const { segment, candidate, last } = state;
	if (!segment || !last) return [];
	if (!candidate) return close(state.mode, segment);
	if (state.mode === 'stop') return close('stop', join(segment, candidate));
	return last.at - candidate.start.at >= settings.minStopMinutes * MINUTE_MS
		? [...close('trip', segment), ...close('stop', candidate)]
		: close('trip', join(segment, candidate));
}

export interface Track {
	/** The fixes used, oldest first: segment `firstSeq`/`lastSeq` index them. */
	points: TrackPoint[];
	segments: Segment[];
	/** How many fixes were not used (unusable, or impossible jumps). */
	skipped: number;
}

/**
 * A whole range's fixes, in any order, cut into trips and stops. `endsAt`: when the range read ends
 * (its `to`, or now when that is earlier): a silence up to then ends a trip as it would have ended it
 * in the trigger.
 */
export function segmentTrack(fixes: readonly RawFix[], settings: TripSettings, endsAt = -Infinity): Track {
	// Devices buffer fixes while out of coverage and send them late: order by time before anything.
	const read = fixes.map((fix, index) => ({ index, point: toTrackPoint(fix) }));
	const at = (entry: (typeof read)[number]) => (typeof entry.point === 'string' ? -Infinity : entry.point.at);
	read.sort((a, b) => at(a) - at(b) || a.index - b.index);
	const state = newSegmenter();
	const points: TrackPoint[] = [];
	const segments: Segment[] = [];
	for (const { point } of read) {
		const { closed, accepted } = advanceTo(state, point, settings);
		segments.push(...closed);
		points.push(...accepted);
	}
	segments.push(...endBySilence(state, endsAt, settings), ...openSegments(state, settings));
	return { points, segments, skipped: fixes.length - points.length };
}
