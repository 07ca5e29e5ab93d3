import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { collection } from '../../../shared/descriptions';
import { checked, getDateRange } from '../../../shared/parameters';
import { exportedTrack, isEmpty } from '../../../shared/trackFiles/exportedTrack';
import { deviceFileStem, TRACK_FORMATS, trackFileName, type TrackFormatKey } from '../../../shared/trackFiles/formats';
import type { TrackingApiClient } from '../../../shared/transport';
import { tripOptionFields } from '../../../shared/trips/properties';
import type { RawFix } from '../../../shared/trips/segment';
import type { TrackPoint } from '../../../shared/trips/stretch';
import { toBoolean, toNonEmptyText, toOneOf } from '../../../shared/validation';
import type { Device } from '../../../shared/wire';
import { dateRange } from '../common.descriptions';
import { deviceSelectionProperties, listDevices } from '../deviceSelection';
import { zonelessDateReading } from '../versions';
import { WithBinary, type OperationOption } from '../operation';
import { readRangeTracks, readTripSettings } from './tripOptions';

export const option: OperationOption = {
	name: 'Export Track',
	description: 'Trips and stops as a GPX, KML, GeoJSON or CSV file',
	action: 'Export the track of a device as a file',
};

const FORMAT_KEYS = Object.keys(TRACK_FORMATS) as TrackFormatKey[];

export const properties: INodeProperties[] = [
	...deviceSelectionProperties('devices', {
		perItem: 'Each input item gives one output item per device, with its file',
		device: 'The device whose track to export',
	}),
	...dateRange,
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		default: 'gpx',
		options: [
			{ name: 'CSV', value: 'csv', description: 'One row per trip fix and per stop, for spreadsheets' },
			{ name: 'GeoJSON (RFC 7946)', value: 'geojson', description: 'For QGIS and web maps' },
			{ name: 'GPX 1.1', value: 'gpx', description: 'For route and navigation apps' },
			{ name: 'KML 2.2', value: 'kml', description: 'For Google Earth' },
		],
		description: 'The file format',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the file in',
	},
	collection('options', 'Options', 'Add Option', [
		...tripOptionFields,
		{
			displayName: 'Split Trips',
			name: 'splitTrips',
			type: 'boolean',
			default: true,
			description: 'Whether each trip is a track of its own, or every trip a segment of one track',
		},
		{
			displayName: 'Include Stops',
			name: 'includeStops',
			type: 'boolean',
			default: true,
			description: 'Whether stops are in the file as waypoints with their start, end and duration',
		},
	]),
];

export const prepareBatch = listDevices;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const range = getDateRange(this, itemIndex, zonelessDateReading(this));
	const settings = readTripSettings(this, itemIndex);
	const format = checked(this, itemIndex, 'Format', toOneOf(this.getNodeParameter('format', itemIndex), FORMAT_KEYS));
	const binaryPropertyName = checked(this, itemIndex, 'Put Output File in Field', toNonEmptyText(this.getNodeParameter('binaryPropertyName', itemIndex)));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const readOption = (name: string, displayName: string) => (options[name] === undefined ? true : checked(this, itemIndex, displayName, toBoolean(options[name])));
	const fileOptions = { splitTrips: readOption('splitTrips', 'Split Trips'), includeStops: readOption('includeStops', 'Include Stops') };
	// Cut as Get Trips and Stops cuts it.
	const tracks = await readRangeTracks(this, itemIndex, api, listing, range, settings, (track, fixes) => ({ track, courseOf: coursesOf(fixes) }));
	// A device without a name (none, or blanks) is called by its id in the file, as in the file's name.
	const devices = tracks.map(({ deviceId, deviceName }) => ({ deviceId, deviceName: deviceName?.trim() ? deviceName : deviceId }));
	// Devices named alike ("Van 1", "van-1") would give files of one name, which overwrite each other
	// in a folder or an archive: each gets its id in the name (whether or not the other has a file).
	const stems = devices.map(deviceFileStem);
	const shared = new Set(stems.filter((stem, index) => stems.indexOf(stem) !== index));
	const days = { from: writtenDay(this, itemIndex, 'from', range.from), to: writtenDay(this, itemIndex, 'to', range.to) };
	return await Promise.all(
		tracks.map(async ({ deviceId, deviceName, result: { track, courseOf } }, index) => {
			const device = devices[index];
			const exported = exportedTrack(track, device, fileOptions, courseOf);
			const summary = { deviceId, deviceName, from: range.from, to: range.to, fixes: track.points.length, trips: exported.trips.length, stops: exported.stops.length };
			if (isEmpty(exported)) {
				return { ...summary, fileName: null, message: `No trip${fileOptions.includeStops ? ' or stop' : ''} in the range (${track.points.length} usable fixes): no file` };
			}
			const fileName = trackFileName(device, days, format, shared.has(stems[index]));
			const { mimeType, write } = TRACK_FORMATS[format];
			const binary = await this.helpers.prepareBinaryData(Buffer.from(write(exported), 'utf8'), fileName, mimeType);
			return new WithBinary({ ...summary, fileName }, { [binaryPropertyName]: binary });
		}),
	);
}

/** A fix's course, by the fix as the segmenter read it (its time and position as sent). */
function coursesOf(fixes: readonly RawFix[]): (point: TrackPoint) => number | undefined {
	const key = (dateTime: unknown, latitude: unknown, longitude: unknown) => `${String(dateTime)} ${String(latitude)} ${String(longitude)}`;
	const courses = new Map<string, number>();
	for (const fix of fixes) {
		if (typeof fix.course === 'number' && Number.isFinite(fix.course)) courses.set(key(fix.dateTime, fix.latitude, fix.longitude), fix.course);
	}
	return (point) => (courses.size === 0 ? undefined : courses.get(key(point.dateTime, point.latitude, point.longitude)));
}

/**
 * The day as the user wrote it (`2026-10-25T00:00:00+02:00` is the 25th, though UTC's 24th), for
 * the file's name; the range itself is read in UTC.
 */
function writtenDay(context: IExecuteFunctions, itemIndex: number, name: 'from' | 'to', utc: string): string {
	const value = context.getNodeParameter(name, itemIndex) as unknown;
	const written = typeof value === 'string' ? value.trim() : typeof (value as { toISO?: unknown })?.toISO === 'function' ? String((value as { toISO(): string }).toISO()) : '';
	return /^\d{4}-\d{2}-\d{2}/.test(written) ? written : utc;
}
