// @host-zones: matrix
import type { INodeExecutionData } from 'n8n-workflow';

import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';
import { fixesOf, ROUND } from '../support/trackFixes';

const LOCATIONS_ROUTE = 'POST /api/devices/{deviceId}/locations';
const DAY = '2026-11-27';
const wholeDay = { from: `${DAY}T00:00:00Z`, to: `${DAY}T23:59:59Z` };

/** The file of an output item, as the next node (Write Binary File, Send Email) reads it. */
const fileOf = (item: INodeExecutionData, field = 'data') => Buffer.from(item.binary![field].data, 'base64').toString('utf8');

describe('Location → Export Track through n8n (issue 48)', () => {
	const ctx = useSandbox();

	beforeAll(() => {
		const { store } = ctx.sandbox;
		const add = (id: string, name: string, fixes: ReturnType<typeof fixesOf>) => {
			store.addDevice({ id, name, expires: null });
			for (const fix of fixes) store.addFix(id, fix);
		};
		add('export-van', '<Van & "Co">', fixesOf(ROUND, `${DAY}T07:00:00Z`));
		add('export-silent', 'Silent Van', []);
		add('export-once', 'Once Van', fixesOf([{ kind: 'park', minutes: 1 }], `${DAY}T09:00:00Z`));
		// Europe/Berlin's clocks go back at 01:00 UTC on 25 October 2026: the round drives through it.
		add('export-dst', 'DST Van', fixesOf(ROUND, '2026-10-25T00:30:00Z'));
		add('export-unnamed', ' ', fixesOf(ROUND, `${DAY}T07:00:00Z`));
		add('export-twin', 'VAN & co', fixesOf(ROUND, `${DAY}T07:00:00Z`));
	});
	beforeEach(() => ctx.sandbox.resetStats());

	/** The fixes of the device's trips as Get Trips' segmenter cuts them. */
	const tripPointsOf = (deviceId: string) =>
		segmentTrack(ctx.sandbox.store.locations(deviceId)!, TRIP_DEFAULTS)
			.segments.filter((segment) => segment.type === 'trip')
			.reduce((sum, trip) => sum + trip.lastSeq - trip.firstSeq + 1, 0);

	const exportTrack = (parameters: Record<string, unknown>, options: { continueOnFail?: boolean } = {}) =>
		ctx.engine.runNode({ resource: 'location', operation: 'exportTrack', deviceId: byId('export-van'), ...wholeDay, ...parameters }, options);

	it('gives the GPX as n8n binary data with its name and type, and the trips and stops Get Trips finds, in one read', async () => {
		const { items, error } = await exportTrack({ format: 'gpx' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [item] = items;
		expect(item.json).toEqual({ deviceId: 'export-van', deviceName: '<Van & "Co">', from: `${DAY}T00:00:00.000Z`, to: `${DAY}T23:59:59.000Z`, fixes: 67, trips: 2, stops: 3, fileName: `van-co_${DAY}.gpx` });
		expect(item.binary!.data).toMatchObject({ fileName: `van-co_${DAY}.gpx`, mimeType: 'application/gpx+xml', fileExtension: 'gpx' });
		expect(ctx.sandbox.stats.byRoute[LOCATIONS_ROUTE]).toBe(1);

		const gpx = fileOf(item);
		expect(gpx).toContain('<name>&lt;Van &amp; &quot;Co&quot;&gt;</name>');
		const getTrips = jsonOf((await ctx.engine.runNode({ resource: 'location', operation: 'getTrips', deviceId: byId('export-van'), ...wholeDay })).items);
		const trips = getTrips.filter((segment) => segment.type === 'trip') as Array<{ start: { dateTime: string } }>;
		expect((gpx.match(/<trk>/g) ?? []).length).toBe(trips.length);
		expect((gpx.match(/<wpt /g) ?? []).length).toBe(getTrips.length - trips.length);
		for (const trip of trips) expect(gpx).toContain(`<time>${trip.start.dateTime}</time>`);
		expect((gpx.match(/<trkpt /g) ?? []).length).toBe(tripPointsOf('export-van'));
	});

	it.each([
		['kml', 'application/vnd.google-earth.kml+xml', /<gx:Track>/g],
		['geojson', 'application/geo+json', /"LineString"/g],
		['csv', 'text/csv', /^trip,/gm],
	])('gives %s with its MIME type, under the binary field asked for', async (format, mimeType, tripMark) => {
		const { items } = await exportTrack({ format, binaryPropertyName: 'track', options: { includeStops: false } });
		const [item] = items;
		expect(item.binary!.track).toMatchObject({ mimeType, fileName: `van-co_${DAY}.${format}` });
		expect(item.json).toMatchObject({ trips: 2, stops: 0 });
		expect((fileOf(item, 'track').match(tripMark) ?? []).length).toBe(format === 'csv' ? tripPointsOf('export-van') : 2);
	});

	it('says so for a device without fixes or with one fix, with no file; one item per device in order', async () => {
		const { items, error } = await exportTrack({
			deviceSelection: 'selected',
			devices: { device: [{ deviceId: byId('export-silent') }, { deviceId: byId('export-once') }, { deviceId: byId('export-van') }] },
		});
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((item) => [item.deviceId, item.fixes, item.fileName])).toEqual([
			['export-silent', 0, null],
			['export-once', 1, null],
			['export-van', 67, `van-co_${DAY}.gpx`],
		]);
		expect(items[0].json.message).toBe('No trip or stop in the range (0 usable fixes): no file');
		expect(items[0].binary).toBeUndefined();
		expect(items[1].binary).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
	});

	it('names a day across a DST change by the day the user wrote, with every time in UTC and in order', async () => {
		const { items } = await exportTrack({ deviceId: byId('export-dst'), from: '2026-10-25T00:00:00+02:00', to: '2026-10-25T23:59:59+01:00', format: 'kml' });
		const [item] = items;
		expect(item.json).toMatchObject({ fileName: 'dst-van_2026-10-25.kml', from: '2026-10-24T22:00:00.000Z', to: '2026-10-25T22:59:59.000Z', trips: 2 });
		const times = [...fileOf(item).matchAll(/<when>([^<]+)<\/when>/g)].map((match) => match[1]);
		expect(times.every((time) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(time))).toBe(true);
		expect([...times].sort()).toEqual(times);
		expect(times.some((time) => time < '2026-10-25T01:00:00.000Z') && times.some((time) => time > '2026-10-25T01:00:00.000Z')).toBe(true);
	});

	it('names the tracks of a device without a name by its id, in the file as in the file name', async () => {
		const { items } = await exportTrack({ deviceId: byId('export-unnamed'), format: 'gpx' });
		const gpx = fileOf(items[0]);
		expect(items[0].json).toMatchObject({ deviceName: ' ', fileName: `export-unnamed_${DAY}.gpx` });
		expect(gpx).toContain('<metadata><name>export-unnamed</name></metadata>');
		expect(gpx).toContain('<trk><name>export-unnamed: Trip 1</name>');
		expect(fileOf((await exportTrack({ deviceId: byId('export-unnamed'), format: 'kml' })).items[0])).toContain('<Document><name>export-unnamed</name>');
	});

	it("gives devices whose names make the same file name each a file name of its own, with the device's id", async () => {
		const twins = { deviceSelection: 'selected', devices: { device: [{ deviceId: byId('export-van') }, { deviceId: byId('export-twin') }, { deviceId: byId('export-dst') }] } };
		const { items } = await exportTrack({ ...twins, format: 'csv' });
		expect(items.map((item) => item.binary?.data.fileName)).toEqual([`van-co-export-van_${DAY}.csv`, `van-co-export-twin_${DAY}.csv`, undefined]);
		expect(items.map((item) => item.json.fileName)).toEqual([`van-co-export-van_${DAY}.csv`, `van-co-export-twin_${DAY}.csv`, null]);
	});

	it('names the item and field of a bad Format or binary field; with Continue On Fail one error item per input', async () => {
		const { error } = await exportTrack({ format: 'shp' });
		expect(error?.message).toMatch(/Format/);
		const { items } = await exportTrack({ binaryPropertyName: ' ' }, { continueOnFail: true });
		expect(items).toHaveLength(1);
		expect(String(items[0].json.error)).toMatch(/Put Output File in Field/);
	});
});
