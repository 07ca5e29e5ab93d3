/**
 * GeoJSON (RFC 7946): a FeatureCollection of LineString features, one per trip with the trip's
 * properties (or one MultiLineString of them all), and Point features for the stops. Positions are
 * [longitude, latitude]; each point's time, speed and course are arrays beside the coordinates
 * (`coordTimes`, the convention Mapbox's togeojson and many web maps read). Pure.
 */
import type { ExportedPoint, ExportedTrack, ExportedTrip } from './exportedTrack';
import { tripLabel } from './exportedTrack';

const position = (point: { latitude: number; longitude: number }) => [point.longitude, point.latitude];

function pointArrays(points: ExportedPoint[]) {
	const arrays: Record<string, unknown[]> = { coordTimes: points.map((point) => point.time) };
	for (const reading of ['speed', 'course'] as const) {
		if (points.some((point) => point[reading] !== undefined)) arrays[`${reading}s`] = points.map((point) => point[reading] ?? null);
	}
	return arrays;
}

function tripFeature(trip: ExportedTrip, device: { deviceId: string; deviceName: string }) {
	const { deviceId, deviceName } = device;
	return {
		type: 'Feature',
		properties: { name: tripLabel(trip), ...trip.summary, deviceId, deviceName, ...pointArrays(trip.points) },
		geometry: { type: 'LineString', coordinates: trip.points.map(position) },
	};
}

/** Each feature is turned into text as soon as it is built: a month's trips never stand as one object tree. */
export function writeGeoJson(track: ExportedTrack): string {
	const { deviceId, deviceName } = track;
	const features: string[] = track.splitTrips ? track.trips.map((trip) => JSON.stringify(tripFeature(trip, track))) : [];
	if (!track.splitTrips && track.trips.length > 0) {
		features.push(
			JSON.stringify({
				type: 'Feature',
				properties: { type: 'trips', deviceId, deviceName, trips: track.trips.length, coordTimes: track.trips.map((trip) => trip.points.map((point) => point.time)) },
				geometry: { type: 'MultiLineString', coordinates: track.trips.map((trip) => trip.points.map(position)) },
			}),
		);
	}
	for (const stop of track.stops) {
		const { latitude, longitude, number, ...times } = stop;
		features.push(
			JSON.stringify({ type: 'Feature', properties: { type: 'stop', name: `Stop ${number}`, deviceId, deviceName, ...times }, geometry: { type: 'Point', coordinates: position({ latitude, longitude }) } }),
		);
	}
	return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}
