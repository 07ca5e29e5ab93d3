/**
 * GeoJSON (RFC 7946): a FeatureCollection of LineString features, one per trip with the trip's
 * properties (or one MultiLineString of them all), and Point features for the stops. Positions are
 * [longitude, latitude]; each point's time, speed and course are arrays beside the coordinates
 * (`coordTimes`, the convention Mapbox's togeojson and many web maps read). A trip that crosses the
 * antimeridian is cut there (RFC 7946 section 3.1.9): a MultiLineString, its arrays one per line. Pure.
 */
import type { ExportedPoint, ExportedTrack, ExportedTrip } from './exportedTrack';
import { stopLabel, tripLabel } from './exportedTrack';

const position = (point: { latitude: number; longitude: number }) => [point.longitude, point.latitude];

/**
 * The trip's points as lines that never cross the antimeridian: where one step does (more than
 * 180 degrees of longitude apart), the line ends on it and the next begins there, at the latitude
 * and time the straight step crosses it. Web maps and GIS otherwise draw the step the long way,
 * across the whole world.
 */
function antimeridianParts(points: ExportedPoint[]): ExportedPoint[][] {
	const parts: ExportedPoint[][] = [[]];
	points.forEach((point, index) => {
		const previous = points[index - 1];
		if (previous && Math.abs(point.longitude - previous.longitude) > 180) {
			const side = previous.longitude > 0 ? 180 : -180;
			const share =
				previous.longitude === side ? 0 : point.longitude === -side ? 1 : (side - previous.longitude) / (point.longitude + 2 * side - previous.longitude);
			const at = Date.parse(previous.time) + share * (Date.parse(point.time) - Date.parse(previous.time));
			const crossing = { time: new Date(Math.round(at)).toISOString(), latitude: previous.latitude + share * (point.latitude - previous.latitude) };
			if (previous.longitude !== side) parts[parts.length - 1].push({ ...crossing, longitude: side });
			parts.push(point.longitude === -side ? [] : [{ ...crossing, longitude: -side }]);
		}
		parts[parts.length - 1].push(point);
	});
	// A trip that starts on the antimeridian and crosses it at once leaves a part of one point, which
	// begins the next; a trip only along the line (180 then -180) has nothing to cut.
	const lines = parts.filter((part) => part.length > 1);
	return lines.length > 0 ? lines : [points];
}

function pointArrays(lines: ExportedPoint[][]) {
	const perLine = <T>(read: (point: ExportedPoint) => T) => (lines.length === 1 ? lines[0].map(read) : lines.map((line) => line.map(read)));
	const arrays: Record<string, unknown[]> = { coordTimes: perLine((point) => point.time) };
	for (const reading of ['speed', 'course'] as const) {
		if (lines.some((line) => line.some((point) => point[reading] !== undefined))) arrays[`${reading}s`] = perLine((point) => point[reading] ?? null);
	}
	return arrays;
}

const geometry = (lines: ExportedPoint[][]) =>
	lines.length === 1 ? { type: 'LineString', coordinates: lines[0].map(position) } : { type: 'MultiLineString', coordinates: lines.map((line) => line.map(position)) };

function tripFeature(trip: ExportedTrip, device: { deviceId: string; deviceName: string }) {
	const { deviceId, deviceName } = device;
	const lines = antimeridianParts(trip.points);
	return {
		type: 'Feature',
		properties: { name: tripLabel(trip), ...trip.summary, deviceId, deviceName, ...pointArrays(lines) },
		geometry: geometry(lines),
	};
}

/** Each feature is turned into text as soon as it is built: a month's trips never stand as one object tree. */
export function writeGeoJson(track: ExportedTrack): string {
	const { deviceId, deviceName } = track;
	const features: string[] = track.splitTrips ? track.trips.map((trip) => JSON.stringify(tripFeature(trip, track))) : [];
	if (!track.splitTrips && track.trips.length > 0) {
		const lines = track.trips.flatMap((trip) => antimeridianParts(trip.points));
		features.push(
			JSON.stringify({
				type: 'Feature',
				properties: { type: 'trips', deviceId, deviceName, trips: track.trips.length, coordTimes: lines.map((line) => line.map((point) => point.time)) },
				geometry: { type: 'MultiLineString', coordinates: lines.map((line) => line.map(position)) },
			}),
		);
	}
	for (const stop of track.stops) {
		const { start, end, durationMinutes } = stop;
		features.push(
			JSON.stringify({ type: 'Feature', properties: { type: 'stop', name: stopLabel(stop), deviceId, deviceName, start, end, durationMinutes }, geometry: { type: 'Point', coordinates: position(stop) } }),
		);
	}
	return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}
