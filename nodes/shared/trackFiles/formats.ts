/** The track file formats: the key saved workflows store (`format`), and each one's file. Pure. */
import { writeCsv } from './csv';
import type { ExportedTrack } from './exportedTrack';
import { writeGeoJson } from './geoJson';
import { writeGpx } from './gpx';
import { writeKml } from './kml';

export interface TrackFormat {
	name: string;
	extension: string;
	mimeType: string;
	write: (track: ExportedTrack) => string;
}

export const TRACK_FORMATS = {
	gpx: { name: 'GPX 1.1', extension: 'gpx', mimeType: 'application/gpx+xml', write: writeGpx },
	kml: { name: 'KML 2.2', extension: 'kml', mimeType: 'application/vnd.google-earth.kml+xml', write: writeKml },
	geojson: { name: 'GeoJSON', extension: 'geojson', mimeType: 'application/geo+json', write: writeGeoJson },
	csv: { name: 'CSV', extension: 'csv', mimeType: 'text/csv', write: writeCsv },
} satisfies Record<string, TrackFormat>;

export type TrackFormatKey = keyof typeof TRACK_FORMATS;

const slug = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');

/**
 * Disks take 255 bytes for a file's name; the service sets no limit to a device's name. A stem
 * this long still tells devices apart, and leaves room for an id, the days and the extension.
 */
const MAX_STEM = 80;

/** At most `length` characters (slugs are ASCII: as many bytes), cut between words when it can be. */
function shortened(text: string, length: number): string {
	if (text.length <= length) return text;
	const words = text.slice(0, length + 1).replace(/-[^-]*$/, '');
	return words.length > 0 && words.length <= length ? words : text.slice(0, length);
}

/** What names a device's file: its name as a file name, or its id when the name has no letter or digit. */
export const deviceFileStem = (device: { deviceId: string; deviceName: string }) =>
	shortened(slug(device.deviceName) || slug(device.deviceId) || 'device', MAX_STEM);

/**
 * `truck-07_2026-11-27.gpx`: the device's stem (deviceFileStem), and the range's day, or its first
 * and last day. `withId` adds the device's id to the stem, for devices whose names give the same one.
 */
export function trackFileName(
	device: { deviceId: string; deviceName: string },
	range: { from: string; to: string },
	format: TrackFormatKey,
	withId = false,
): string {
	const stem = deviceFileStem(device);
	const id = shortened(slug(device.deviceId), MAX_STEM);
	const name = withId && id && id !== stem ? `${stem}-${id}` : stem;
	const [first, last] = [range.from.slice(0, 10), range.to.slice(0, 10)];
	return `${name}_${first === last ? first : `${first}_${last}`}.${TRACK_FORMATS[format].extension}`;
}
