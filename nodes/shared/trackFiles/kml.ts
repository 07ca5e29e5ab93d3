/**
 * KML 2.2 (OGC 07-147r2) with Google's gx extension: each trip a Placemark holding a `gx:Track`
 * (every point with its `when`; speed and course as `gx:SimpleArrayData`), or one Placemark with a
 * `gx:MultiTrack` of them; stops as Point Placemarks with a TimeSpan. Coordinates are
 * longitude,latitude. Pure.
 */
import type { ExportedPoint, ExportedTrack, ExportedTrip } from './exportedTrack';
import { stopLabel, tripLabel } from './exportedTrack';
import { element } from './xml';

type Reading = 'speed' | 'course';
const READINGS: Array<{ name: Reading; displayName: string }> = [
	{ name: 'speed', displayName: 'Speed (km/h)' },
	{ name: 'course', displayName: 'Course (degrees)' },
];

export function writeKml(track: ExportedTrack): string {
	const lines = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">',
		`<Document>${element('name', track.deviceName)}`,
		'<Schema id="fix" name="fix">',
		...READINGS.map(({ name, displayName }) => `<gx:SimpleArrayField name="${name}" type="float">${element('displayName', displayName)}</gx:SimpleArrayField>`),
		'</Schema>',
	];
	if (track.trips.length > 0) {
		lines.push(`<Folder><name>Trips</name>`);
		if (track.splitTrips) {
			for (const trip of track.trips) lines.push(`<Placemark>${element('name', tripLabel(trip))}${tripData(trip)}`, gxTrack(trip.points), '</Placemark>');
		} else {
			lines.push(`<Placemark>${element('name', track.deviceName)}<gx:MultiTrack>`, ...track.trips.map((trip) => gxTrack(trip.points)), '</gx:MultiTrack></Placemark>');
		}
		lines.push('</Folder>');
	}
	if (track.stops.length > 0) {
		lines.push('<Folder><name>Stops</name>');
		for (const stop of track.stops) {
			lines.push(
				`<Placemark>${element('name', stopLabel(stop))}<TimeSpan>${element('begin', stop.start)}${element('end', stop.end)}</TimeSpan>` +
					`${extendedData({ durationMinutes: stop.durationMinutes })}` +
					`<Point><coordinates>${stop.longitude},${stop.latitude}</coordinates></Point></Placemark>`,
			);
		}
		lines.push('</Folder>');
	}
	lines.push('</Document>', '</kml>', '');
	return lines.join('\n');
}

/** Start and end are the track's first and last `when` (a stop's TimeSpan): readers name them begin and end already. */
function tripData({ summary }: ExportedTrip): string {
	const { durationMinutes, distanceKm, maxSpeed, averageSpeed, idleMinutes } = summary;
	return extendedData({ durationMinutes, distanceKm, maxSpeed, averageSpeed, idleMinutes });
}

function extendedData(fields: Record<string, string | number | null | undefined>): string {
	const data = Object.entries(fields)
		.filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined)
		.map(([name, value]) => `<Data name="${name}">${element('value', value)}</Data>`);
	return `<ExtendedData>${data.join('')}</ExtendedData>`;
}

/** One text, not lines to spread into push(): a long trip's lines overflowed the call stack as arguments. */
function gxTrack(points: ExportedPoint[]): string {
	const arrays = READINGS.filter(({ name }) => points.some((point) => point[name] !== undefined)).map(
		({ name }) => `<gx:SimpleArrayData name="${name}">${points.map((point) => `<gx:value>${point[name] ?? ''}</gx:value>`).join('')}</gx:SimpleArrayData>`,
	);
	return [
		'<gx:Track>',
		...points.map((point) => `<when>${point.time}</when>`),
		...points.map((point) => `<gx:coord>${point.longitude} ${point.latitude} 0</gx:coord>`),
		...(arrays.length > 0 ? [`<ExtendedData><SchemaData schemaUrl="#fix">${arrays.join('')}</SchemaData></ExtendedData>`] : []),
		'</gx:Track>',
	].join('\n');
}
