import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { getIssues } from '@placemarkio/check-geojson';

import { csvField, writeCsv } from '../../nodes/shared/trackFiles/csv';
import { exportedTrack, isEmpty, type ExportedTrack } from '../../nodes/shared/trackFiles/exportedTrack';
import { trackFileName } from '../../nodes/shared/trackFiles/formats';
import { writeGeoJson } from '../../nodes/shared/trackFiles/geoJson';
import { writeGpx } from '../../nodes/shared/trackFiles/gpx';
import { writeKml } from '../../nodes/shared/trackFiles/kml';
import { escapeXml } from '../../nodes/shared/trackFiles/xml';
import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { fixesOf, ROUND } from '../support/trackFixes';

const DEVICE = { deviceId: 'dev-1', deviceName: 'Van 7' };
const courseFrom = (fixes: Location[]) => {
	const byTime = new Map(fixes.map((fix) => [fix.dateTime, fix.course]));
	return (point: { dateTime: string }) => byTime.get(point.dateTime);
};

function exported(fixes: Location[], options = { splitTrips: true, includeStops: true }, device = DEVICE): ExportedTrack {
	return exportedTrack(segmentTrack(fixes, TRIP_DEFAULTS), device, options, courseFrom(fixes));
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
const position = (point: { latitude: number; longitude: number }) => [point.longitude, point.latitude];
/** Each pair of consecutive positions of each line. */
const lineSteps = (lines: number[][][]) => lines.flatMap((line) => line.slice(1).map((point, index) => [line[index], point]));

describe('Export Track files (issue 48)', () => {
	const fixes = fixesOf(ROUND, '2026-11-27T07:00:00Z');
	const track = exported(fixes);
	const segments = segmentTrack(fixes, TRIP_DEFAULTS);

	it('holds the trips with the fixes Get Trips cut them from, and the stops', () => {
		const trips = segments.segments.filter((segment) => segment.type === 'trip');
		expect(track.trips).toHaveLength(2);
		expect(track.stops).toHaveLength(3);
		track.trips.forEach((trip, index) => {
			expect(trip.points).toHaveLength(trips[index].lastSeq - trips[index].firstSeq + 1);
			expect(trip.points[0]).toMatchObject({ time: trips[index].start.dateTime, latitude: trips[index].start.latitude });
			expect(trip.summary.distanceKm).toBeGreaterThan(0);
		});
		expect(track.trips[0].points[1]).toMatchObject({ speed: 40, course: 0 });
		expect(track.stops[1].durationMinutes).toBeGreaterThanOrEqual(14);
		expect(exported(fixes, { splitTrips: true, includeStops: false }).stops).toEqual([]);
	});

	it('leaves (0, 0), out-of-range fixes and an impossible jump out of every track, as Get Trips does', () => {
		const bad = [...fixes];
		const mid = bad[15];
		bad.splice(15, 0, { ...mid, dateTime: new Date(Date.parse(mid.dateTime) + 1000).toISOString(), latitude: 0, longitude: 0 });
		bad.splice(16, 0, { ...mid, dateTime: new Date(Date.parse(mid.dateTime) + 2000).toISOString(), latitude: 91 });
		bad.splice(17, 0, { ...mid, dateTime: new Date(Date.parse(mid.dateTime) + 3000).toISOString(), latitude: mid.latitude + 5 });
		const filtered = exported(bad);
		const points = filtered.trips.flatMap((trip) => trip.points);
		expect(points).toHaveLength(track.trips.flatMap((trip) => trip.points).length);
		expect(points.every((point) => point.latitude > 52 && point.latitude < 53)).toBe(true);
	});

	it('writes GPX 1.1: a trk per trip, or one with a trkseg each; stops as wpt; speed in m/s', () => {
		const gpx = writeGpx(track);
		expect(gpx).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<gpx version="1.1"/);
		expect(count(gpx, /<trk>/g)).toBe(2);
		expect(count(gpx, /<trkpt /g)).toBe(track.trips[0].points.length + track.trips[1].points.length);
		expect(count(gpx, /<wpt /g)).toBe(3);
		expect(gpx).toContain(`<trkpt lat="${track.trips[0].points[1].latitude}" lon="13.4"><time>${track.trips[0].points[1].time}</time>`);
		expect(gpx).toContain(`<gpxtpx:speed>${40 / 3.6}</gpxtpx:speed><gpxtpx:course>0</gpxtpx:course>`);
		const joined = writeGpx({ ...track, splitTrips: false });
		expect(count(joined, /<trk>/g)).toBe(1);
		expect(count(joined, /<trkseg>/g)).toBe(2);
	});

	it('writes a trip of 150,000 fixes (a month at one every 15 s) as GPX and KML, as one track or its own', () => {
		// Passed as arguments one by one, that many lines overflowed the call stack (RangeError).
		const start = Date.parse('2026-11-01T00:00:00Z');
		const points = Array.from({ length: 150_000 }, (_, index) => ({ time: new Date(start + index * 15_000).toISOString(), latitude: 52.5 + index * 1e-6, longitude: 13.4, speed: 40 }));
		const long = { ...track, stops: [], trips: [{ ...track.trips[0], points }] };
		for (const splitTrips of [true, false]) {
			expect(count(writeGpx({ ...long, splitTrips }), /<trkpt /g)).toBe(points.length);
			expect(count(writeKml({ ...long, splitTrips }), /<gx:coord>/g)).toBe(points.length);
		}
	});

	it('writes a fix on the antimeridian as longitude -180 in GPX, whose longitudes run from -180 to below 180', () => {
		// Taveuni's road crosses 180 degrees: a fix there may read exactly 180.
		const onTheLine = exported(fixes.map((fix) => ({ ...fix, longitude: 180 })));
		const gpx = writeGpx(onTheLine);
		const longitudes = [...gpx.matchAll(/ lon="([^"]+)"/g)].map((match) => Number(match[1]));
		expect(longitudes).toHaveLength(count(gpx, /<trkpt /g) + count(gpx, /<wpt /g));
		expect(longitudes.every((longitude) => longitude === -180)).toBe(true);
	});

	it('writes KML 2.2 with gx:Track (times, longitude first) or a gx:MultiTrack; stops with a TimeSpan', () => {
		const kml = writeKml(track);
		expect(count(kml, /<gx:Track>/g)).toBe(2);
		expect(count(kml, /<when>/g)).toBe(count(kml, /<gx:coord>/g));
		expect(kml).toContain(`<gx:coord>13.4 ${track.trips[0].points[0].latitude} 0</gx:coord>`);
		expect(count(kml, /<Point>/g)).toBe(3);
		expect(kml).toContain(`<TimeSpan><begin>${track.stops[0].start}</begin><end>${track.stops[0].end}</end></TimeSpan>`);
		const joined = writeKml({ ...track, splitTrips: false });
		expect(count(joined, /<gx:MultiTrack>/g)).toBe(1);
		expect(count(joined, /<gx:Track>/g)).toBe(2);
	});

	it('writes GeoJSON with [longitude, latitude], a LineString per trip or one MultiLineString, Points for stops', () => {
		const json = JSON.parse(writeGeoJson(track));
		expect(json.type).toBe('FeatureCollection');
		const [first] = json.features;
		expect(first.geometry.type).toBe('LineString');
		expect(first.geometry.coordinates[0]).toEqual([13.4, track.trips[0].points[0].latitude]);
		expect(first.properties.coordTimes).toHaveLength(first.geometry.coordinates.length);
		expect(first.properties).toMatchObject({ type: 'trip', deviceName: 'Van 7', distanceKm: track.trips[0].summary.distanceKm });
		expect(json.features.filter((feature: { geometry: { type: string } }) => feature.geometry.type === 'Point')).toHaveLength(3);
		const joined = JSON.parse(writeGeoJson({ ...track, splitTrips: false }));
		expect(joined.features[0].geometry.type).toBe('MultiLineString');
		expect(joined.features[0].geometry.coordinates).toHaveLength(2);
	});

	it.each([
		['east', 179.955, 0.01],
		['west', -179.955, -0.01],
	])('cuts a trip crossing the antimeridian going %s there in GeoJSON, each line ending on it (RFC 7946 3.1.9)', (_, startLongitude, step) => {
		// Fiji: parked, 20 minutes driving across 180 degrees, parked.
		const crossing = Array.from({ length: 40 }, (_, minute): Location => {
			const driven = Math.min(Math.max(minute - 10, 0), 20);
			const longitude = startLongitude + driven * step;
			return {
				dateTime: new Date(Date.parse('2026-11-27T07:00:00Z') + minute * 60_000).toISOString(),
				latitude: Math.round((-17.7 + driven * 0.001) * 1e6) / 1e6,
				longitude: Math.round((longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude) * 1e6) / 1e6,
				speed: minute >= 10 && minute < 30 ? 60 : 0,
			};
		});
		const crossed = exported(crossing);
		expect(crossed.trips).toHaveLength(1);
		const fixes = crossed.trips[0].points.map(position);
		for (const splitTrips of [true, false]) {
			const text = writeGeoJson({ ...crossed, splitTrips });
			expect(getIssues(text)).toEqual([]);
			const [trip] = JSON.parse(text).features;
			expect(trip.geometry.type).toBe('MultiLineString');
			const lines: number[][][] = trip.geometry.coordinates;
			expect(lines).toHaveLength(2);
			for (const [from, to] of lineSteps(lines)) expect(Math.abs(to[0] - from[0])).toBeLessThanOrEqual(180);
			const [[end], [start]] = [lines[0].slice(-1), lines[1]];
			expect([Math.abs(end[0]), Math.abs(start[0]), end[0] + start[0]]).toEqual([180, 180, 0]);
			expect(end[1]).toBe(start[1]);
			expect(end[1]).toBeGreaterThan(-17.7);
			expect(lines.flat().filter(([longitude]) => Math.abs(longitude) !== 180)).toEqual(fixes);
			expect(trip.properties.coordTimes.map((times: string[]) => times.length)).toEqual(lines.map((line) => line.length));
		}
	});

	it('writes CSV: a header, a row per trip fix and per stop, in time order', () => {
		const lines = writeCsv(track).trimEnd().split('\r\n');
		expect(lines[0]).toBe('type,number,time,latitude,longitude,speed,course,end,durationMinutes');
		expect(lines).toHaveLength(1 + track.trips.flatMap((trip) => trip.points).length + 3);
		expect(lines[1]).toMatch(/^stop,1,2026-11-27T07:00:00.000Z,52.5,13.4,,,/);
		const times = lines.slice(1).map((line) => line.split(',')[2]);
		expect([...times].sort()).toEqual(times);
		expect(csvField('a,"b"')).toBe('"a,""b"""');
		expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
		expect(csvField(-12.5)).toBe('-12.5');
	});

	it('escapes names for XML, and drops what XML cannot hold', () => {
		expect(escapeXml(`<Van & "Co's">\u0001`)).toBe('&lt;Van &amp; &quot;Co&apos;s&quot;&gt;');
		const odd = exported(fixes, { splitTrips: true, includeStops: true }, { deviceId: 'x', deviceName: '<Van & "Co">' });
		expect(writeGpx(odd)).toContain('<name>&lt;Van &amp; &quot;Co&quot;&gt;</name>');
		expect(writeKml(odd)).not.toContain('<Van');
		expect(JSON.parse(writeGeoJson(odd)).features[0].properties.deviceName).toBe('<Van & "Co">');
	});

	it('has nothing to write for no fixes or one fix', () => {
		expect(isEmpty(exported([]))).toBe(true);
		expect(isEmpty(exported(fixes.slice(0, 1)))).toBe(true);
		expect(isEmpty(exported(fixes))).toBe(false);
	});

	it('names the file after the device and the day or days', () => {
		expect(trackFileName({ deviceId: 'd', deviceName: 'Truck 07' }, { from: '2026-11-27T00:00:00Z', to: '2026-11-27T23:59:59Z' }, 'gpx')).toBe('truck-07_2026-11-27.gpx');
		expect(trackFileName({ deviceId: 'd-9', deviceName: '<&>' }, { from: '2026-11-01', to: '2026-11-30' }, 'geojson')).toBe('d-9_2026-11-01_2026-11-30.geojson');
		expect(trackFileName({ deviceId: 'd', deviceName: 'Über Van' }, { from: '2026-11-27', to: '2026-11-27' }, 'kml')).toBe('uber-van_2026-11-27.kml');
	});

	it('keeps the file name of a device with a very long name short enough for a disk to write', () => {
		const folder = mkdtempSync(join(tmpdir(), 'track-file-name-'));
		try {
			const long = { deviceId: 'device-0042', deviceName: `Kühlwagen ${'Frische & Logistik '.repeat(20)}7` };
			for (const withId of [false, true]) {
				const name = trackFileName(long, { from: '2026-11-01', to: '2026-11-30' }, 'geojson', withId);
				expect(name).toMatch(/^kuhlwagen-frische-logistik-[a-z0-9-]*[a-z0-9]_2026-11-01_2026-11-30\.geojson$/);
				if (withId) expect(name).toContain('-device-0042_');
				writeFileSync(join(folder, name), 'x');
			}
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
