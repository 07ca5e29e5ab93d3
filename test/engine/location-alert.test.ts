import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { VENDOR_ALERT_NAMES } from '../../sandbox/vendorApi';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const HOUR = 3_600_000;

describe('location and alert operations', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	it('location getAll returns the fixes of the range, each with deviceId', async () => {
		const to = new Date();
		const from = new Date(to.getTime() - 2 * HOUR);
		const { items } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'getAll',
			deviceId: byId('device001'),
			from: from.toISOString(),
			to: to.toISOString(),
			returnAll: true,
		});
		const expected = ctx.sandbox.store.locationsBetween('device001', from.getTime(), to.getTime())!;
		expect(expected.length).toBeGreaterThan(5);
		expect(jsonOf(items)).toEqual(expected.map((fix) => ({ deviceId: 'device001', ...fix })));
		expect(ctx.sandbox.requestLog.at(-1)?.body).toEqual({ from: from.toISOString(), to: to.toISOString() });
	});

	it('location getAll reads the last 24 hours when From and To are left at their defaults', async () => {
		const before = Date.now();
		const { items, error } = await ctx.engine.runNode({ resource: 'location', operation: 'getAll', deviceId: byId('device001'), returnAll: true });
		const after = Date.now();
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(0);
		const body = ctx.sandbox.requestLog.at(-1)?.body as { from: string; to: string };
		expect(Date.parse(body.from)).toBeGreaterThanOrEqual(before - 24 * HOUR - 1_000);
		expect(Date.parse(body.from)).toBeLessThanOrEqual(after - 24 * HOUR + 1_000);
		expect(Date.parse(body.to)).toBeGreaterThanOrEqual(before - 1_000);
		expect(Date.parse(body.to)).toBeLessThanOrEqual(after + 1_000);
	});

	it('location getAll accepts dates without a zone as UTC and n8n date values from expressions', async () => {
		const { items, error } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'getAll',
			deviceId: byId('device001'),
			from: '={{ $now.minus({ hours: 1 }) }}',
			to: '2099-01-01T00:00:00',
			limit: 3,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(ctx.sandbox.requestLog.at(-1)?.body).toMatchObject({ to: '2099-01-01T00:00:00.000Z' });
	});

	it.each([
		['location', (from: number, to: number) => ctx.sandbox.store.locationsBetween('device001', from, to)!],
		['alert', (from: number, to: number) => ctx.sandbox.store.alertsBetween('device001', from, to)!],
	])('%s getAll: Limit keeps the newest of the range in version 2.1, the oldest in 1 and 2, in time order', async (resource, stored) => {
		const to = Date.now();
		const from = to - 7 * 24 * HOUR;
		const inRange = stored(from, to).map((record) => record.dateTime);
		expect(inRange.length).toBeGreaterThan(3);
		const parameters = { resource, operation: 'getAll', deviceId: byId('device001'), from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: 3 };
		const timesOf = async (typeVersion: number) => jsonOf((await ctx.engine.runNode(parameters, { typeVersion })).items).map((item) => item.dateTime);
		expect(await timesOf(2.1)).toEqual(inRange.slice(-3));
		expect(await timesOf(2)).toEqual(inRange.slice(0, 3));
		expect(await timesOf(1)).toEqual(inRange.slice(0, 3));
	});

	it.each([
		['from after to', { from: '2026-02-02T00:00:00Z', to: '2026-02-01T00:00:00Z' }, 'Invalid "From" in item 0: From must not be after To'],
		['an empty from (from an expression)', { from: '={{ $json.missing }}', to: '2026-02-01T00:00:00Z' }, 'Invalid "From" in item 0: From is empty'],
		['an impossible date', { from: '2026-02-01T00:00:00Z', to: '2026-02-30T25:00:00Z' }, 'Invalid "To" in item 0: To is not a valid date'],
	])('location getAll refuses %s before sending anything', async (_, range, message) => {
		const { error } = await ctx.engine.runNode({ resource: 'location', operation: 'getAll', deviceId: byId('device001'), ...range });
		expect(error?.message).toContain(message);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it('location submit stores the fix with its documented fields and outputs what was kept', async () => {
		const dateTime = new Date(Date.now() - 60_000).toISOString();
		const { items } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'submit',
			deviceId: byId('device005'),
			latitude: 40.4168,
			longitude: -3.7038,
			dateTime,
			additionalFields: { speed: 42, alertTexts: 'Door open, Panic', hasCriticalAlert: true, attributes: { entries: [{ key: 'driver', value: 'Ana' }] } },
		});
		const write = ctx.sandbox.writes.find((entry) => entry.kind === 'submitLocation');
		expect(write?.body).toEqual({
			from: dateTime,
			to: dateTime,
			location: {
				dateTime,
				latitude: 40.4168,
				longitude: -3.7038,
				speed: 42,
				alertTexts: ['Door open', 'Panic'],
				hasCriticalAlert: true,
				attributes: { driver: 'Ana' },
			},
		});
		expect(items[0].json).toMatchObject({ deviceId: 'device005', dateTime, latitude: 40.4168, speed: 42 });
	});

	it('location submit sends inputs, outputs, accessories attributes and the answer range, as the vendor documents them', async () => {
		const dateTime = new Date(Date.now() - 120_000).toISOString();
		const from = new Date(Date.now() - 3_600_000).toISOString();
		const to = new Date().toISOString();
		const accessories = [{ accessoryType: 'sensor', accessoryStatus: 'active' }];
		const { items, error } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'submit',
			deviceId: byId('device006'),
			latitude: 40.712776,
			longitude: -74.005974,
			dateTime,
			additionalFields: { inputs: 'true, false, true', outputs: '={{ [false, true] }}', accessoriesAttributes: JSON.stringify(accessories), from, to },
		});
		expect(error).toBeUndefined();
		const write = ctx.sandbox.writes.filter((entry) => entry.kind === 'submitLocation').at(-1);
		expect(write?.body).toEqual({
			from,
			to,
			location: { dateTime, latitude: 40.712776, longitude: -74.005974, inputs: [true, false, true], outputs: [false, true], accessoriesAttributes: accessories },
		});
		// The answer lists the range asked for: the stored fix and the device's other fixes of that hour.
		expect(items.length).toBeGreaterThan(1);
		expect(jsonOf(items).find((fix) => fix.dateTime === dateTime)).toMatchObject({ inputs: [true, false, true], accessoriesAttributes: accessories });
	});

	it.each([
		['latitude', { latitude: 91 }, 'Invalid "Latitude" in item 0: Latitude must be between -90 and 90 (got 91)'],
		['longitude', { longitude: '={{ "east" }}' }, 'Invalid "Longitude" in item 0: Longitude must be a number (got "east")'],
		['dateTime', { dateTime: 'tomorrow' }, 'Invalid "Date Time" in item 0: Date Time is not an ISO 8601 date'],
		// Values of the wrong type from expressions were sent as "[object Object]" or false.
		['flag', { additionalFields: { hasCriticalAlert: '={{ "yes" }}' } }, 'Invalid "Has Critical Alert" in item 0: Has Critical Alert must be true or false (got "yes")'],
		['text list', { additionalFields: { alertTexts: '={{ { text: "SOS" } }}' } }, 'Invalid "AlertTexts" in item 0: AlertTexts must be a comma-separated list'],
		['number field', { additionalFields: { speed: '={{ "fast" }}' } }, 'Invalid "Speed" in item 0: Speed must be a number (got "fast")'],
		['input state', { additionalFields: { inputs: 'true, on' } }, 'Invalid "Inputs" in item 0: Inputs must hold only true or false (got "on")'],
		['accessories list', { additionalFields: { accessoriesAttributes: '{"accessoryType": "sensor"}' } }, 'Invalid "Accessories Attributes" in item 0: Accessories Attributes must be an array of objects'],
		['answer range', { additionalFields: { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } }, 'Invalid "Answer From" in item 0: Answer From must not be after Answer To'],
	])('location submit refuses a bad %s before sending anything', async (_, override, message) => {
		const { error } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'submit',
			deviceId: byId('device005'),
			latitude: 1,
			longitude: 1,
			dateTime: '2026-01-01T00:00:00Z',
			...override,
		});
		expect(error?.message).toContain(message);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it('alert getAll refuses an Alert Name that is not text before sending anything', async () => {
		const { error } = await ctx.engine.runNode({
			resource: 'alert',
			operation: 'getAll',
			deviceId: byId('device001'),
			from: '2026-01-01T00:00:00Z',
			to: '2026-01-02T00:00:00Z',
			alertName: '={{ { name: "SOS" } }}',
		});
		expect(error?.message).toBe('Invalid "Alert Name" in item 0: Alert Name must be text (got {"name":"SOS"})');
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it('alert getAll returns alerts in range, filtered by name, each with deviceId', async () => {
		const deviceId = ctx.sandbox.store.facts.criticalAlertDeviceIds[0];
		const to = new Date();
		const from = new Date(to.getTime() - 24 * HOUR);
		const all = ctx.sandbox.store.alertsBetween(deviceId, from.getTime(), to.getTime())!;
		expect(all.length).toBeGreaterThan(0);
		const name = all[0].alerts[0];

		const { items } = await ctx.engine.runNode({
			resource: 'alert',
			operation: 'getAll',
			deviceId: byId(deviceId),
			from: from.toISOString(),
			to: to.toISOString(),
			alertName: name,
			returnAll: true,
		});
		expect(ctx.sandbox.requestLog.at(-1)?.body).toEqual({ from: from.toISOString(), to: to.toISOString(), alertName: name });
		expect(items.length).toBeGreaterThan(0);
		for (const alert of jsonOf(items)) expect(alert).toMatchObject({ deviceId, dateTime: expect.any(String), notifications: expect.any(Array) });
	});

	it('alert getAll offers exactly the 55 alert names the vendor documents, and sends the chosen one exactly', async () => {
		const property = new SatelliteTracking().description.properties.find(
			(candidate) => candidate.name === 'alertName' && candidate.displayOptions?.show?.resource?.includes('alert'),
		)!;
		expect(property.type).toBe('options');
		const offered = (property.options as Array<{ value: string }>).map((option) => option.value).filter((value) => value !== '');
		expect(offered).toHaveLength(55);
		expect([...offered].sort()).toEqual([...VENDOR_ALERT_NAMES].sort());

		const deviceId = ctx.sandbox.store.facts.criticalAlertDeviceIds[0];
		const to = new Date();
		const from = new Date(to.getTime() - 24 * HOUR);
		const { items } = await ctx.engine.runNode({
			resource: 'alert',
			operation: 'getAll',
			deviceId: byId(deviceId),
			from: from.toISOString(),
			to: to.toISOString(),
			alertName: 'SOSButton',
			returnAll: true,
		});
		expect(ctx.sandbox.requestLog.at(-1)?.body).toMatchObject({ alertName: 'SOSButton' });
		expect(items.length).toBeGreaterThan(0);
		for (const alert of jsonOf(items)) expect(alert.alerts).toContain('SOSButton');
	});
});
