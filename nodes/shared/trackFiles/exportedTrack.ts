/**
 * What a track file holds, whatever its format: a device's trips as runs of fixes and its stops as
 * places with a start, an end and a duration, cut by the segmenter Get Trips uses (so the same
 * bad-fix rule). Pure: the formatters beside it write this, and nothing else, into each format.
 */
import type { Track } from '../trips/segment';
import type { TrackPoint } from '../trips/stretch';
import { minutes, segmentItem, type SegmentItem } from '../trips/items';

/** A fix of a trip as files show it: the time in UTC ISO 8601, and the readings the fix carried. */
export interface ExportedPoint {
	time: string;
	latitude: number;
	longitude: number;
	/** km/h, as the service reports it. */
	speed?: number;
	/** Degrees clockwise from north. */
	course?: number;
}

export interface ExportedTrip {
	/** 1-based, in time order. */
	number: number;
	/** The trip as Get Trips and Stops gives it: the properties a file's track carries. */
	summary: SegmentItem;
	points: ExportedPoint[];
}

export interface ExportedStop {
	number: number;
	latitude: number;
	longitude: number;
	start: string;
	end: string;
	durationMinutes: number;
}

export interface ExportedTrack {
	deviceId: string;
	deviceName: string;
	trips: ExportedTrip[];
	/** Empty when stops are not included. */
	stops: ExportedStop[];
	/** Each trip its own track (true), or every trip a segment of one track. */
	splitTrips: boolean;
}

const utc = (at: number) => new Date(at).toISOString();

/**
 * `courseOf` gives a fix's course: the segmenter's points carry what trips need, not the course,
 * so the caller looks it up in the fixes as read.
 */
export function exportedTrack(
	track: Track,
	device: { deviceId: string; deviceName: string },
	options: { splitTrips: boolean; includeStops: boolean },
	courseOf: (point: TrackPoint) => number | undefined,
): ExportedTrack {
	const trips: ExportedTrip[] = [];
	const stops: ExportedStop[] = [];
	for (const segment of track.segments) {
		if (segment.type === 'trip') {
			const points = track.points.slice(segment.firstSeq, segment.lastSeq + 1).map((point) => exportedPoint(point, courseOf(point)));
			trips.push({ number: trips.length + 1, summary: segmentItem(segment, device.deviceId, device.deviceName), points });
		} else if (options.includeStops) {
			stops.push({
				number: stops.length + 1,
				latitude: segment.start.latitude,
				longitude: segment.start.longitude,
				start: utc(segment.start.at),
				end: utc(segment.end.at),
				durationMinutes: minutes(segment.end.at - segment.start.at),
			});
		}
	}
	return { ...device, trips, stops, splitTrips: options.splitTrips };
}

function exportedPoint(point: TrackPoint, course: number | undefined): ExportedPoint {
	const exported: ExportedPoint = { time: utc(point.at), latitude: point.latitude, longitude: point.longitude };
	if (point.speed !== undefined) exported.speed = point.speed;
	if (course !== undefined) exported.course = course;
	return exported;
}

/** Whether there is anything to write: a file with no track and no waypoint is no file. */
export const isEmpty = (track: ExportedTrack) => track.trips.length === 0 && track.stops.length === 0;

export const tripLabel = (trip: ExportedTrip) => `Trip ${trip.number}`;
export const stopLabel = (stop: ExportedStop) => `Stop ${stop.number}`;

/** A stop in words, for formats without fields of their own for it (GPX's desc). */
export const stopDescription = (stop: ExportedStop) => `Stopped from ${stop.start} to ${stop.end} (${stop.durationMinutes} min)`;
