/**
 * One device's day from its segmented track. A trip or stop that crosses the day's edges counts on
 * each day it touches, its minutes and distance split at the edge (in proportion within the one
 * interval between fixes that crosses it), so days add up to the whole track.
 *
 * The parts: driving (the time of trips) + stopped (the time of stops) = the day's tracked time,
 * every interval between two consecutive fixes that lies in the day, except a silence (no fix for
 * `silenceEndsTripMinutes` or more), of which nothing is known and which counts in no part. So
 * time before the day's first fix counts only when a fix came within that long before it, whatever
 * else was read before the day. Idling is not a third part beside them: it is the share of driving
 * and stopped time with the engine running below Moving Speed (idle <= driving + stopped).
 */
import { distanceMeters } from '../geo/distance';
import { minutes, positionAt, round, type PositionAt } from './items';
import type { Track, TripSettings } from './segment';
import { idleMsBetween, type TrackPoint } from './stretch';

export interface DaySummary {
	distanceKm: number;
	drivingMinutes: number;
	/** Null when no fix of the day carried `rpm`. */
	idleMinutes: number | null;
	stoppedMinutes: number;
	trips: number;
	stops: number;
	/** The fastest fix of the day's trips (GPS noise while parked left out); null without a trip. */
	maxSpeed: number | null;
	firstFix: PositionAt | null;
	lastFix: PositionAt | null;
	fuelUsed: number | null;
}

/** Epoch milliseconds, the start inclusive and the end exclusive (the next day's start). */
export interface Span {
	from: number;
	to: number;
}

/**
 * A rise in `fuel` of at least this share of the day's fullest reading is a refill; smaller rises
 * are the sender's noise (a tank's level sways as the vehicle moves), and are netted out.
 */
const REFILL_SHARE = 0.05;

export function summarizeDay(track: Track, day: Span, settings: TripSettings): DaySummary {
	const { points } = track;
	const silenceMs = settings.silenceEndsTripMinutes * 60_000;
	const inDay = (point: TrackPoint) => point.at >= day.from && point.at < day.to;
	let drivingMs = 0;
	let stoppedMs = 0;
	let idleMs = 0;
	let meters = 0;
	let trips = 0;
	let stops = 0;
	let maxSpeed: number | null = null;
	for (const segment of track.segments) {
		if (segment.end.at <= day.from || segment.start.at >= day.to) continue;
		const isTrip = segment.type === 'trip';
		let touched = false;
		for (let k = segment.firstSeq; k <= segment.lastSeq; k++) {
			const point = points[k];
			if (!inDay(point)) continue;
			touched = true;
			if (isTrip && point.speed !== undefined) maxSpeed = Math.max(maxSpeed ?? point.speed, point.speed);
		}
		for (let k = segment.firstSeq; k < segment.lastSeq; k++) {
			const [a, b] = [points[k], points[k + 1]];
			if (b.at - a.at >= silenceMs) continue;
			const within = Math.max(0, Math.min(b.at, day.to) - Math.max(a.at, day.from));
			if (within === 0) continue;
			touched = true;
			const share = within / (b.at - a.at);
			if (isTrip) {
				drivingMs += within;
				meters += distanceMeters(a, b) * share;
			} else {
				stoppedMs += within;
			}
			idleMs += idleMsBetween(a, b, settings.movingSpeed) * share;
		}
		if (touched && isTrip) trips++;
		else if (touched) stops++;
	}
	const ofDay = points.filter(inDay);
	return {
		distanceKm: round(meters / 1000, 3),
		drivingMinutes: minutes(drivingMs),
		idleMinutes: ofDay.some((point) => point.rpm !== undefined) ? minutes(idleMs) : null,
		stoppedMinutes: minutes(stoppedMs),
		trips,
		stops,
		maxSpeed,
		firstFix: ofDay.length ? positionAt(ofDay[0]) : null,
		lastFix: ofDay.length ? positionAt(ofDay[ofDay.length - 1]) : null,
		fuelUsed: fuelUsed(ofDay),
	};
}

/**
 * Fixes read before the day, so a trip or stop under way at midnight is known as one: a stop is
 * only a stop once the device has stood `minStopMinutes`, a trip once it left where it stood. At
 * least `silenceEndsTripMinutes`, so the fix before any interval the day counts is read.
 */
const CONTEXT_BEFORE_MS = 3 * 3_600_000;

/** What a day's summary reads: from before the day (above) to Min Stop Minutes after it, which confirm a stop begun just before midnight. */
export function summaryReadRange(day: Span, settings: TripSettings): Span {
	return {
		from: day.from - Math.max(CONTEXT_BEFORE_MS, settings.silenceEndsTripMinutes * 60_000),
		to: day.to + settings.minStopMinutes * 60_000,
	};
}

/** What the tank lost over the day, refills added back; null with fewer than two readings. */
export function fuelUsed(points: TrackPoint[]): number | null {
	const readings = points.flatMap((point) => (point.fuel === undefined ? [] : [point.fuel]));
	if (readings.length < 2) return null;
	const refill = REFILL_SHARE * readings.reduce((a, b) => Math.max(a, b));
	let refilled = 0;
	for (let i = 1; i < readings.length; i++) {
		const rise = readings[i] - readings[i - 1];
		if (rise > 0 && rise >= refill) refilled += rise;
	}
	return round(Math.max(0, readings[0] - readings[readings.length - 1] + refilled), 2);
}
