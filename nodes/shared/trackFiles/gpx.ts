/**
 * GPX 1.1 (topografix.com/GPX/1/1): trips as `trk` (one each, or one `trk` with a `trkseg` each),
 * stops as `wpt`. GPX 1.1 has no speed or course on a point: they go in Garmin's
 * TrackPointExtension v2 (speed in m/s), which Garmin's apps read. GDAL 3.6 and gpsbabel 1.8
 * (Debian's) do not: GDAL shows the extension as one field, gpsbabel drops it; both keep every
 * position and time. Pure.
 */
import type { ExportedPoint, ExportedTrack, ExportedTrip } from './exportedTrack';
import { stopDescription, stopLabel, tripLabel } from './exportedTrack';
import { element, escapeXml } from './xml';

const TPX = 'http://www.garmin.com/xmlschemas/TrackPointExtension/v2';

/** GPX 1.1's longitudeType runs from -180 up to, not including, 180: the antimeridian is written as -180. */
const gpxLongitude = (longitude: number) => (longitude === 180 ? -180 : longitude);
const KMH_PER_MS = 3.6;

export function writeGpx(track: ExportedTrack): string {
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<gpx version="1.1" creator="n8n-nodes-satellite-tracking" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="${TPX}">`,
		`<metadata>${element('name', track.deviceName)}</metadata>`,
	];
	for (const stop of track.stops) {
		lines.push(
			`<wpt lat="${stop.latitude}" lon="${gpxLongitude(stop.longitude)}">${element('time', stop.start)}${element('name', stopLabel(stop))}${element('desc', stopDescription(stop))}<type>stop</type></wpt>`,
		);
	}
	if (track.splitTrips) {
		for (const trip of track.trips) lines.push(`<trk>${element('name', `${track.deviceName}: ${tripLabel(trip)}`)}${tripDescription(trip)}`, segment(trip), '</trk>');
	} else if (track.trips.length > 0) {
		lines.push(`<trk>${element('name', track.deviceName)}`, ...track.trips.map(segment), '</trk>');
	}
	lines.push('</gpx>', '');
	return lines.join('\n');
}

const tripDescription = ({ summary }: ExportedTrip) =>
	element('desc', `${summary.start.dateTime} to ${summary.end.dateTime}, ${summary.distanceKm} km, ${summary.durationMinutes} min`);

/**
 * A trip's lines as one text: spread into push() as arguments, a long trip's points overflowed
 * the call stack (a RangeError from about 120,000 of them).
 */
const segment = (trip: ExportedTrip) => ['<trkseg>', ...trip.points.map(trackPoint), '</trkseg>'].join('\n');

function trackPoint(point: ExportedPoint): string {
	const readings =
		(point.speed === undefined ? '' : `<gpxtpx:speed>${point.speed / KMH_PER_MS}</gpxtpx:speed>`) +
		(point.course === undefined ? '' : `<gpxtpx:course>${point.course}</gpxtpx:course>`);
	const extensions = readings ? `<extensions><gpxtpx:TrackPointExtension>${readings}</gpxtpx:TrackPointExtension></extensions>` : '';
	return `<trkpt lat="${point.latitude}" lon="${gpxLongitude(point.longitude)}"><time>${escapeXml(point.time)}</time>${extensions}</trkpt>`;
}
