import { mapLink, simplifyAlert, simplifyFix } from '../../nodes/shared/simplify';
import type { Location } from '../../nodes/shared/wire';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

const HOUR = 3_600_000;
const V2 = { typeVersion: 2 };

describe('readable output (node version 2: Simplify, deviceName)', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	const nameOf = (deviceId: string) => ctx.sandbox.store.getDevice(deviceId)!.name;
	const deviceLookups = () => ctx.sandbox.requestLog.filter((entry) => entry.method === 'GET' && /^\/api\/devices\/[^/]+$/.test(entry.path));

	it('Get Last Location is simplified by default, with the device name looked up once per device', async () => {
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getLastLocation', deviceId: fromItem('id') },
			{ items: [{ id: 'device001' }, { id: 'device003' }, { id: 'device001' }, { id: 'device001' }], ...V2 },
		);
		expect(error).toBeUndefined();
		const fix = (id: string) => simplifyFix(id, nameOf(id), ctx.sandbox.store.lastLocation(id) as Location);
		expect(jsonOf(items)).toEqual([fix('device001'), fix('device003'), fix('device001'), fix('device001')]);
		expect(Object.keys(items[0].json)).toEqual(['deviceId', 'deviceName', 'dateTime', 'latitude', 'longitude', 'speed', 'battery', 'mapLink', 'alerts']);
		expect(items[0].json.mapLink).toBe(mapLink(items[0].json.latitude as number, items[0].json.longitude as number));
		expect(deviceLookups().map((entry) => entry.deviceId).sort()).toEqual(['device001', 'device003']);
	});

	it('Simplify off gives the raw fix as version 1 does, plus deviceName', async () => {
		const { items } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getLastLocation', deviceId: byId('device002'), simplify: false },
			V2,
		);
		expect(jsonOf(items)).toEqual([{ deviceId: 'device002', deviceName: nameOf('device002'), ...ctx.sandbox.store.lastLocation('device002') }]);
	});

	it('a device that never reported is named too', async () => {
		const deviceId = ctx.sandbox.store.facts.neverReportedDeviceId!;
		const { items, error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId(deviceId) }, V2);
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual([{ deviceId, deviceName: nameOf(deviceId), neverReported: true }]);
	});

	it('an unknown device still fails with the vendor message', async () => {
		const { error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('no-such-device') }, V2);
		expect(error?.message).toBe('The tracking API answered 404: Device not found. (device id "no-such-device")');
	});

	it('Location Get Many simplifies every fix of the range, with one device lookup for all of them', async () => {
		const to = new Date();
		const from = new Date(to.getTime() - 2 * HOUR);
		const { items } = await ctx.engine.runNode(
			{ resource: 'location', operation: 'getAll', deviceId: byId('device001'), from: from.toISOString(), to: to.toISOString(), returnAll: true },
			V2,
		);
		const fixes = ctx.sandbox.store.locationsBetween('device001', from.getTime(), to.getTime())!;
		expect(fixes.length).toBeGreaterThan(5);
		expect(jsonOf(items)).toEqual(fixes.map((fix) => simplifyFix('device001', nameOf('device001'), fix)));
		expect(deviceLookups()).toHaveLength(1);
	});

	it('Alert Get Many simplifies alerts, keeping their text, names and channels', async () => {
		const deviceId = ctx.sandbox.store.facts.criticalAlertDeviceIds[0];
		const to = new Date();
		const from = new Date(to.getTime() - 24 * HOUR);
		const alerts = ctx.sandbox.store.alertsBetween(deviceId, from.getTime(), to.getTime())!;
		expect(alerts.length).toBeGreaterThan(0);
		const { items } = await ctx.engine.runNode(
			{ resource: 'alert', operation: 'getAll', deviceId: byId(deviceId), from: from.toISOString(), to: to.toISOString(), returnAll: true },
			V2,
		);
		expect(jsonOf(items)).toEqual(alerts.map((alert) => simplifyAlert(deviceId, nameOf(deviceId), alert)));
	});

	it('version 1 (saved workflows) keeps the raw answer, no deviceName and no device lookups', async () => {
		const { items } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getLastLocation', deviceId: byId('device001'), simplify: true },
			{ typeVersion: 1 },
		);
		expect(jsonOf(items)).toEqual([{ deviceId: 'device001', ...ctx.sandbox.store.lastLocation('device001') }]);
		expect(deviceLookups()).toHaveLength(0);
	});
});
