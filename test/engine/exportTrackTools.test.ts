/**
 * Export Track's files opened by the tools people open them with, not by our own parser: GDAL
 * (ogrinfo/ogr2ogr, what QGIS reads through), gpsbabel and xmllint from Debian, and check-geojson
 * (the successor of Mapbox's geojsonhint, by its author: geojsonhint itself depends on a git URL,
 * which npm cannot install here). The points each tool reads back must be the fixes of Get Trips'
 * trips, in count and, to 6 decimals, in position. Slow (scripts/slow-suites.sh): it installs the
 * tools on a fresh machine (scripts/e2e/install-track-tools.sh) and starts a process per check.
 *
 * No GPX 1.1 schema is checked: no Debian package (gdal-data, gpsbabel, libxml2-utils, gpxviewer,
 * python3-gpxpy) nor npm package ships gpx.xsd, so xmllint checks the files are well-formed XML.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { getIssues } from '@placemarkio/check-geojson';
import type { INodeExecutionData } from 'n8n-workflow';

import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { byId, useSandbox } from '../support/sandboxed';
import { fixesOf, ROUND } from '../support/trackFixes';
import { layerCounts, runTool } from '../support/trackTools';

const DAY = '2026-11-27';
const REPO = join(__dirname, '../..');

type Position = [longitude: number, latitude: number];
const six = (value: number) => Number(value.toFixed(6));
const rounded = (positions: Position[]) => positions.map(([longitude, latitude]) => [six(longitude), six(latitude)]);

/** A layer of a file as GDAL reads it, as GeoJSON features. */
const ogrFeatures = (file: string, layer?: string, openOptions: string[] = []) =>
	JSON.parse(runTool('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', ...openOptions.flatMap((option) => ['-oo', option]), file, ...(layer ? [layer] : [])])).features as Array<{
		geometry: { type: string; coordinates: unknown };
		properties: Record<string, unknown>;
	}>;

/** Bad fixes among the good ones: the origin, out of range, and a glitch far away. */
function withBadFixes(fixes: Location[]): Location[] {
	const at = (minute: number, seconds: number) => new Date(Date.parse(fixes[minute].dateTime) + seconds * 1000).toISOString();
	return [
		...fixes,
		{ dateTime: at(15, 10), latitude: 0, longitude: 0 },
		{ dateTime: at(16, 10), latitude: 95, longitude: 13.4 },
		{ dateTime: at(17, 10), latitude: 48.1, longitude: 11.6 },
	];
}

describe('Export Track files read back by GDAL, gpsbabel, xmllint and check-geojson (issue 48)', () => {
	const ctx = useSandbox();
	let folder: string;

	beforeAll(() => {
		runTool('bash', [join(REPO, 'scripts/e2e/install.sh'), 'track-tools']);
		folder = mkdtempSync(join(tmpdir(), 'export-track-'));
		const { store } = ctx.sandbox;
		store.addDevice({ id: 'tools-van', name: '<Van & "Co">', expires: null });
		for (const fix of withBadFixes(fixesOf(ROUND, `${DAY}T07:00:00Z`))) store.addFix('tools-van', fix);
		// Europe/Berlin's clocks go back at 01:00 UTC on 25 October 2026, inside the first trip.
		store.addDevice({ id: 'tools-dst', name: 'DST Van', expires: null });
		for (const fix of fixesOf(ROUND, '2026-10-25T00:50:00Z', -33.9, 151.2)) store.addFix('tools-dst', fix);
		// Fiji: parked, 20 minutes driving east across 180 degrees, parked.
		store.addDevice({ id: 'tools-fiji', name: 'Taveuni Van', expires: null });
		for (let minute = 0; minute < 40; minute++) {
			const driven = Math.min(Math.max(minute - 10, 0), 20);
			const east = 179.955 + driven * 0.01;
			store.addFix('tools-fiji', {
				dateTime: new Date(Date.parse(`${DAY}T07:00:00Z`) + minute * 60_000).toISOString(),
				latitude: Math.round((-16.8 + driven * 0.001) * 1e6) / 1e6,
				longitude: Math.round((east > 180 ? east - 360 : east) * 1e6) / 1e6,
				speed: minute >= 10 && minute < 30 ? 60 : 0,
			});
		}
	}, 900_000);
	afterAll(() => folder && rmSync(folder, { recursive: true, force: true }));

	/** Get Trips' trips of the device: their fixes' positions and times. */
	const tripsOf = (deviceId: string) => {
		const { points, segments } = segmentTrack(ctx.sandbox.store.locations(deviceId)!, TRIP_DEFAULTS);
		return segments
			.filter((segment) => segment.type === 'trip')
			.map((trip) => points.slice(trip.firstSeq, trip.lastSeq + 1).map((point): Position => [point.longitude, point.latitude]));
	};
	const stopsOf = (deviceId: string) => segmentTrack(ctx.sandbox.store.locations(deviceId)!, TRIP_DEFAULTS).segments.filter((segment) => segment.type === 'stop');

	async function exported(deviceId: string, format: string, options: { splitTrips?: boolean } = {}, range = { from: `${DAY}T00:00:00Z`, to: `${DAY}T23:59:59Z` }) {
		const { items, error } = await ctx.engine.runNode({ resource: 'location', operation: 'exportTrack', deviceId: byId(deviceId), format, options, ...range });
		expect(error).toBeUndefined();
		const [item] = items as INodeExecutionData[];
		const file = join(folder, `${deviceId}-${JSON.stringify(options).replace(/\W/g, '')}-${item.json.fileName as string}`);
		writeFileSync(file, Buffer.from(item.binary!.data.data, 'base64'));
		return file;
	}

	it.each(['tools-van', 'tools-dst'])('GPX of %s: GDAL counts its tracks, points and waypoints and reads back the trip fixes; xmllint finds it well-formed', async (deviceId) => {
		const range = deviceId === 'tools-dst' ? { from: '2026-10-25T00:00:00+02:00', to: '2026-10-25T23:59:59+01:00' } : undefined;
		const file = await exported(deviceId, 'gpx', {}, range);
		runTool('xmllint', ['--noout', file]);
		const trips = tripsOf(deviceId);
		expect(trips).toHaveLength(2);
		expect(layerCounts(file)).toMatchObject({ tracks: 2, track_points: trips.flat().length, waypoints: stopsOf(deviceId).length });
		const points = ogrFeatures(file, 'track_points');
		expect(rounded(points.map((point) => point.geometry.coordinates as Position))).toEqual(rounded(trips.flat()));
		const times = points.map((point) => Date.parse(String(point.properties.time).replace(/\//g, '-').replace(' ', 'T').replace(/\+00$/, 'Z')));
		expect(times.every((time, index) => index === 0 || time >= times[index - 1])).toBe(true);
		// The origin, the latitude of 95 and the glitch to Munich are in no track.
		const home = deviceId === 'tools-van' ? [52, 53] : [-34, -33];
		expect(points.every(({ geometry }) => (geometry.coordinates as Position)[1] > home[0] && (geometry.coordinates as Position)[1] < home[1])).toBe(true);
	});

	it('GPX: gpsbabel converts it to KML and back without losing a point, a time or a waypoint', async () => {
		const file = await exported('tools-van', 'gpx', { splitTrips: false });
		const kml = join(folder, 'babel.kml');
		const back = join(folder, 'babel.gpx');
		runTool('gpsbabel', ['-i', 'gpx', '-f', file, '-o', 'kml,points=0,lines=0,track=1', '-F', kml]);
		runTool('gpsbabel', ['-i', 'kml', '-f', kml, '-o', 'gpx', '-F', back]);
		const trips = tripsOf('tools-van');
		expect(layerCounts(back)).toMatchObject({ track_points: trips.flat().length, waypoints: stopsOf('tools-van').length });
		const points = ogrFeatures(back, 'track_points');
		expect(rounded(points.map((point) => point.geometry.coordinates as Position))).toEqual(rounded(trips.flat()));
		expect(points.every((point) => typeof point.properties.time === 'string')).toBe(true);
		expect(ogrFeatures(file, 'tracks').map((track) => (track.geometry.coordinates as unknown[]).length)).toEqual([2]);
	});

	it.each([true, false])('KML (splitTrips %s): GDAL reads the trips with the trip fixes and the stops; gpsbabel reads its gx:Tracks', async (splitTrips) => {
		const file = await exported('tools-van', 'kml', { splitTrips });
		runTool('xmllint', ['--noout', file]);
		const trips = tripsOf('tools-van');
		expect(layerCounts(file)).toEqual({ Trips: splitTrips ? 2 : 1, Stops: stopsOf('tools-van').length });
		const lines = ogrFeatures(file, 'Trips').flatMap(({ geometry }) =>
			geometry.type === 'LineString' ? [geometry.coordinates as Position[]] : (geometry.coordinates as Position[][]),
		);
		expect(lines.map(rounded)).toEqual(trips.map(rounded));
		const viaBabel = join(folder, `kml-${splitTrips}.gpx`);
		runTool('gpsbabel', ['-i', 'kml', '-f', file, '-o', 'gpx', '-F', viaBabel]);
		expect(layerCounts(viaBabel)).toMatchObject({ track_points: trips.flat().length, waypoints: stopsOf('tools-van').length });
	});

	it.each([true, false])('GeoJSON (splitTrips %s): check-geojson finds no error; GDAL reads back the trip fixes, longitude first', async (splitTrips) => {
		const file = await exported('tools-van', 'geojson', { splitTrips });
		const text = runTool('cat', [file]);
		expect(getIssues(text)).toEqual([]);
		// The linter does find errors: the same file with one trip's position cut short.
		expect(getIssues(text.replace(/\[(-?[\d.]+),(-?[\d.]+)\]/, '[$1]')).length).toBeGreaterThan(0);
		const trips = tripsOf('tools-van');
		const features = ogrFeatures(file);
		const lines = features
			.filter(({ geometry }) => geometry.type !== 'Point')
			.flatMap(({ geometry }) => (geometry.type === 'LineString' ? [geometry.coordinates as Position[]] : (geometry.coordinates as Position[][])));
		expect(lines.map(rounded)).toEqual(trips.map(rounded));
		expect(features.filter(({ geometry }) => geometry.type === 'Point')).toHaveLength(stopsOf('tools-van').length);
	});

	it('a trip across the antimeridian: GDAL reads the GeoJSON as lines that never step across it, with every fix; GPX and KML keep one track', async () => {
		const [trip] = tripsOf('tools-fiji');
		expect(trip.some(([longitude]) => longitude < 0) && trip.some(([longitude]) => longitude > 0)).toBe(true);
		const geoJson = await exported('tools-fiji', 'geojson');
		expect(getIssues(runTool('cat', [geoJson]))).toEqual([]);
		const [line] = ogrFeatures(geoJson).filter(({ geometry }) => geometry.type !== 'Point');
		expect(line.geometry.type).toBe('MultiLineString');
		const lines = line.geometry.coordinates as Position[][];
		const steps = lines.flatMap((part) => part.slice(1).map((position, index) => Math.abs(position[0] - part[index][0])));
		expect(Math.max(...steps)).toBeLessThan(180);
		expect(rounded(lines.flat().filter(([longitude]) => Math.abs(longitude) !== 180))).toEqual(rounded(trip));
		for (const format of ['gpx', 'kml']) {
			const file = await exported('tools-fiji', format);
			const layer = format === 'gpx' ? 'track_points' : undefined;
			const counts = layerCounts(file);
			expect(format === 'gpx' ? counts.tracks : counts.Trips).toBe(1);
			if (layer) expect(rounded(ogrFeatures(file, layer).map((point) => point.geometry.coordinates as Position))).toEqual(rounded(trip));
		}
	});

	it('CSV: GDAL reads a point per trip fix and per stop, at the fixes Get Trips used', async () => {
		const file = await exported('tools-van', 'csv');
		const rows = ogrFeatures(file, undefined, ['X_POSSIBLE_NAMES=longitude', 'Y_POSSIBLE_NAMES=latitude', 'AUTODETECT_TYPE=YES']);
		const tripRows = rows.filter((row) => row.properties.type === 'trip');
		expect(rounded(tripRows.map((row) => row.geometry.coordinates as Position))).toEqual(rounded(tripsOf('tools-van').flat()));
		expect(rows.filter((row) => row.properties.type === 'stop')).toHaveLength(stopsOf('tools-van').length);
	});
});
