/**
 * One device's day from its segmented track. A trip or stop that crosses the day's edges counts on
 * each day it touches, its minutes and distance split at the edge (in proportion within the one
 * interval between fixes that crosses it), so days add up to the whole track.
 */
import { distanceMeters } from '../geo/distance';
import { minutes, positionAt, round, type PositionAt } from './items';
import type { Track } from './segment';
import { idleMsBetween, type TrackPoint } from './stretch';

export interface DaySummary {
	distanceKm: number;
	drivingMinutes: number;
	/** Null when no fix of the day carried `rpm`. */
	idleMinutes: number | null;
	stoppedMinutes: number;
	trips: number;
	stops: number;
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

export function summarizeDay(track: Track, day: Span, movingSpeed: number): DaySummary {
	const { points } = track;
	let drivingMs = 0;
	let stoppedMs = 0;
	let idleMs = 0;
	let meters = 0;
	let trips = 0;
	let stops = 0;
	for (const segment of track.segments) {
		if (segment.end.at <= day.from || segment.start.at >= day.to) continue;
		if (segment.type === 'trip') trips++;
		else stops++;
		for (let k = segment.firstSeq; k < segment.lastSeq; k++) {
			const [a, b] = [points[k], points[k + 1]];
			const within = Math.max(0, Math.min(b.at, day.to) - Math.max(a.at, day.from));
			if (within === 0) continue;
			const share = within / (b.at - a.at);
			if (segment.type === 'trip') {
				drivingMs += within;
				meters += distanceMeters(a, b) * share;
			} else {
				stoppedMs += within;
			}
			idleMs += idleMsBetween(a, b, movingSpeed) * share;
		}
	}
	const ofDay = points.filter((point) => point.at >= day.from && point.at < day.to);
	const speeds = ofDay.flatMap((point) => (point.speed === undefined ? [] : [point.speed]));
	return {
		distanceKm: round(meters / 1000, 3),
		drivingMinutes: minutes(drivingMs),
		idleMinutes: ofDay.some((point) => point.rpm !== undefined) ? minutes(idleMs) : null,
		stoppedMinutes: minutes(stoppedMs),
		trips,
		stops,
		maxSpeed: speeds.length ? speeds.reduce((a, b) => Math.max(a, b)) : null,
		firstFix: ofDay.length ? positionAt(ofDay[0]) : null,
		lastFix: ofDay.length ? positionAt(ofDay[ofDay.length - 1]) : null,
		fuelUsed: fuelUsed(ofDay),
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
