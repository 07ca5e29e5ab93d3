/**
 * Saved version-1 workflows behave exactly as they did (issue 24.5: Alert → Get Many v1 stopped
 * trimming Alert Name, so a saved "SpeedLimit " found 0 alerts instead of 8). Each operation whose
 * version 2 differs is replayed here with the parameters a version-1 workflow saved, and what it
 * sends and outputs is held to version 1's behaviour; the last test finds every such operation in
 * the code, so one added later without a replay here fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_DWELL_MINUTES } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/geofenceDwell';
import { DEFAULT_FUEL_DROP_AMOUNT, DEFAULT_FUEL_DROP_WITHIN_MINUTES } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/fuelDropped';
import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Sandbox } from '../../sandbox/server';
import { fakeDateFrom } from '../support/clock';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';
import { withTriggerSandbox } from '../support/trigger';

const HOUR = 3_600_000;
const V1 = { typeVersion: 1 };
const ACTIONS = join(__dirname, '../../nodes/SatelliteTracking/actions');

/** The operations replayed below, as `resource/operation`. */
const REPLAYED = new Set<string>();
const replay = (operation: string, title: string, fn: () => Promise<void>) => {
	REPLAYED.add(operation);
	it(`${operation}: ${title}`, fn);
};

describe('saved version-1 workflows', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	const deviceLookups = () => ctx.sandbox.requestLog.filter((entry) => entry.method === 'GET' && /^\/api\/devices\/[^/]+$/.test(entry.path));
	const lastBody = (path: RegExp) => ctx.sandbox.requestLog.filter((entry) => path.test(entry.path)).at(-1)?.body;
	const range = () => {
		const to = new Date();
		return { from: new Date(to.getTime() - 24 * HOUR).toISOString(), to: to.toISOString() };
	};

	replay('alert/getAll', 'Alert Name is sent trimmed, so "SOSButton " finds the SOSButton alerts; the output is raw, unnamed', async () => {
		const deviceId = ctx.sandbox.store.facts.criticalAlertDeviceIds[0];
		const { from, to } = range();
		const expected = ctx.sandbox.store.alertsBetween(deviceId, Date.parse(from), Date.parse(to))!.filter((alert) => alert.alerts.includes('SOSButton'));
		expect(expected.length).toBeGreaterThan(0);
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'alert', operation: 'getAll', deviceId: byId(deviceId), from, to, alertName: 'SOSButton ', returnAll: true },
			V1,
		);
		expect(error).toBeUndefined();
		expect(lastBody(/\/alerts$/)).toMatchObject({ alertName: 'SOSButton' });
		expect(jsonOf(items)).toEqual(expected.map((alert) => ({ deviceId, ...alert })));
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('location/getAll', 'fixes come raw with deviceId and no device lookup', async () => {
		const { from, to } = range();
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'location', operation: 'getAll', deviceId: byId('device001'), from, to, returnAll: false, limit: 3 },
			V1,
		);
		expect(error).toBeUndefined();
		// Limit kept the first fixes of the range, as version 1 always did.
		const fixes = ctx.sandbox.store.locationsBetween('device001', Date.parse(from), Date.parse(to))!.slice(0, 3);
		expect(jsonOf(items)).toEqual(fixes.map((fix) => ({ deviceId: 'device001', ...fix })));
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('device/getLastLocation', 'the fix comes raw with deviceId and no device lookup', async () => {
		const { items, error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('device002') }, V1);
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual([{ deviceId: 'device002', ...ctx.sandbox.store.lastLocation('device002') }]);
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('device/sendCommand', 'the command is sent trimmed, hex too', async () => {
		const sent = async (command: string, format: string) => {
			ctx.sandbox.resetStats();
			const { items, error } = await ctx.engine.runNode(
				{ resource: 'device', operation: 'sendCommand', deviceId: byId('device004'), command, additionalFields: { format } },
				V1,
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ deviceId: 'device004', command: command.trim() });
			return ctx.sandbox.writes.find((entry) => entry.kind === 'sendCommand')?.body;
		};
		expect(await sent('  AT+RESET\r\n', 'Text')).toEqual({ command: 'AT+RESET', format: 'Text' });
		expect(await sent('0A 1B 2C\r\n', 'Hex')).toEqual({ command: '0A 1B 2C', format: 'Hex' });
	});

	replay('group/update', "Update Fields add the optional fields and replace the name, as version 1's patch did", async () => {
		const group = ctx.sandbox.store.createGroup({ name: 'Old name', description: 'before', devices: ['device001'] });
		const { error } = await ctx.engine.runNode(
			{ resource: 'group', operation: 'update', groupId: byId(group.id), updateFields: { name: 'New name', description: 'after', devices: 'device004' } },
			V1,
		);
		expect(error).toBeUndefined();
		const patch = ctx.sandbox.writes.find((write) => write.resource === 'group' && write.kind === 'patch')?.body as Array<{ op: string; path: string }>;
		expect(patch.map(({ op, path }) => `${op} ${path}`).sort()).toEqual(['add /description', 'add /devices', 'replace /name']);
	});

	it('every operation whose behaviour depends on the node version is replayed above', () => {
		const versioned: string[] = [];
		for (const resource of readdirSync(ACTIONS, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
			for (const file of readdirSync(join(ACTIONS, resource.name)).filter((name) => name.endsWith('.operation.ts'))) {
				const source = readFileSync(join(ACTIONS, resource.name, file), 'utf8');
				// isVersion1 asks the version; prepareNaming (readable.ts) names and simplifies from version 2 on.
				if (/\bisVersion1\b|\bprepareNaming\b|typeVersion/.test(source)) versioned.push(`${resource.name}/${file.replace('.operation.ts', '')}`);
			}
		}
		expect(versioned.sort()).toEqual([...REPLAYED].sort());
	});
});

/**
 * The trigger's version 2 names each event and simplifies its `location`, and its "Fetch Test Event"
 * samples agree with themselves. A saved version-1 trigger workflow keeps the items it produced:
 * these expectations were captured by running version 1 before version 2 existed, and are stated
 * from the sandbox's records (the raw fix, the device's expiry, the settings' values).
 */
describe('saved version-1 trigger workflows', () => {
	afterEach(() => jest.useRealTimers());
	const MINUTE = 60_000;
	const T0 = Date.parse('2026-05-04T08:00:00Z');
	/** The parameters as n8n saved them for a version-1 trigger with every event selected. */
	const SAVED = {
		pollTimes: { item: [{ mode: 'everyMinute' }] },
		events: [
			'locationUpdated',
			'geofenceEntered',
			'geofenceExited',
			'deviceSilent',
			'criticalAlert',
			'deviceExpiring',
			'dailyLimitNear',
			'valueCrossed',
			'fuelDropped',
			'inputChanged',
			'deviceBackOnline',
			'geofenceDwell',
		],
		geofences: { circle: [{ name: 'Depot', latitude: 10, longitude: 10, radius: 1000 }] },
		dailyLimits: { emailLimit: 5 },
		thresholdRules: { rule: [{ field: 'speed', direction: 'above', value: 80 }] },
		options: {},
	};
	/** What version 1 put in each kind's items, in its order: no label, nothing simplified. */
	const V1_FIELDS: Record<string, string[]> = {
		locationUpdated: ['previousLocation', 'distanceMeters'],
		geofenceEntered: ['geofence'],
		geofenceExited: ['geofence'],
		deviceSilent: ['silentForMinutes'],
		deviceBackOnline: ['silentForMinutes'],
		criticalAlert: ['alerts'],
		deviceExpiring: ['expires'],
		dailyLimitNear: ['channel', 'threshold', 'count', 'limit', 'day'],
		valueCrossed: ['field', 'value', 'threshold', 'direction'],
		fuelDropped: ['value', 'previousValue', 'dropped', 'withinMinutes'],
		inputChanged: ['input', 'line', 'from', 'to'],
		geofenceDwell: ['geofence', 'dwellMinutes'],
	};
	const rawFix = (sandbox: Sandbox, event: TriggerEvent) =>
		sandbox.store.locations(event.deviceId)!.find((fix) => fix.dateTime === event.location?.dateTime);
	/** Every item as version 1 shaped it: its kind's fields in order and the sandbox's raw fix as `location`. */
	const expectVersion1Shape = (sandbox: Sandbox, events: TriggerEvent[]) => {
		expect(events.length).toBeGreaterThan(0);
		for (const event of events) {
			const fields = ['event', 'eventId', 'deviceId', 'deviceName', 'location', ...V1_FIELDS[event.event], ...(event.sample ? ['sample'] : [])];
			expect(Object.keys(event)).toEqual(fields);
			expect(event.location).toEqual(rawFix(sandbox, event));
			expect(event.deviceName).toBe(sandbox.store.getDevice(event.deviceId)!.name);
		}
	};

	it('"Fetch Test Event" gives the raw fix and the samples version 1 gave, even those that contradict themselves', async () => {
		fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const items = await h.poll(SAVED, {}, 'manual', 1);
			expectVersion1Shape(h.sandbox, items);
			const real = items.filter((event) => !event.sample);
			expect(real.map((event) => event.event)).toContain('locationUpdated');
			for (const event of real) expect(event.eventId).not.toMatch(/^sample-/);
			const samples = items.filter((event) => event.sample);
			expect(samples.map((event) => event.event).sort()).toEqual(SAVED.events.filter((kind) => !real.some((event) => event.event === kind)).sort());
			// Built from the device with the newest fix among those read.
			const source = samples[0].deviceId;
			const newest = (id: string) => Date.parse(h.sandbox.store.lastLocation(id)!.dateTime);
			for (const event of real) expect(newest(source)).toBeGreaterThanOrEqual(newest(event.deviceId));
			const fix = h.sandbox.store.lastLocation(source)!;
			const sample = (kind: string) => samples.find((event) => event.event === kind);
			for (const event of samples) {
				expect(event.deviceId).toBe(source);
				expect(event.eventId).toMatch(/^sample-/);
			}
			expect(sample('geofenceEntered')).toMatchObject({ geofence: 'Depot' });
			expect(sample('geofenceExited')).toMatchObject({ geofence: 'Depot' });
			expect(sample('geofenceDwell')).toMatchObject({ geofence: 'Depot', dwellMinutes: DEFAULT_DWELL_MINUTES });
			expect(sample('criticalAlert')).toMatchObject({ alerts: fix.alertTexts?.length ? fix.alertTexts : ['Sample alert'] });
			// The device's expiry as listed, already past for this seeded device.
			const expires = h.sandbox.store.getDevice(source)!.expires!;
			expect(Date.parse(expires)).toBeLessThan(T0);
			expect(sample('deviceExpiring')).toMatchObject({ expires });
			// Today's count as read (none), however far from the limit.
			expect(h.sandbox.store.alertsBetween(source, T0 - 8 * 60 * MINUTE, T0)!.flatMap((alert) => alert.notifications ?? [])).toEqual([]);
			expect(sample('dailyLimitNear')).toMatchObject({ channel: 'email', threshold: 'near', count: 0, limit: 5, day: '2026-05-04' });
			expect(sample('deviceBackOnline')!.silentForMinutes).toBe(Math.floor((Date.now() - Date.parse(fix.dateTime)) / MINUTE));
			expect(sample('valueCrossed')).toMatchObject({ field: 'speed', value: fix.speed, threshold: 80, direction: 'above' });
			expect(sample('fuelDropped')).toMatchObject({
				value: fix.fuel,
				previousValue: Math.round((fix.fuel! + DEFAULT_FUEL_DROP_AMOUNT) * 100) / 100,
				dropped: DEFAULT_FUEL_DROP_AMOUNT,
				withinMinutes: DEFAULT_FUEL_DROP_WITHIN_MINUTES,
			});
			const input = (fix.inputs as boolean[])[0];
			expect(sample('inputChanged')).toMatchObject({ input: 0, line: 'input', from: !input, to: input });
		});
	});

	it('events of a running workflow carry the raw fix and no label', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const staticData: IDataObject = {};
			expect(await h.poll(SAVED, staticData, 'trigger', 1)).toEqual([]);
			const baseline = Object.fromEntries(h.sandbox.store.listDevices().map((device) => [device.id, h.sandbox.store.lastLocation(device.id)]));
			setNow(T0 + 10 * MINUTE);
			h.sandbox.moveDevices({ minutes: 10 });
			const events = await h.poll(SAVED, staticData, 'trigger', 1);
			expectVersion1Shape(h.sandbox, events);
			for (const event of events.filter((item) => item.event === 'locationUpdated')) {
				const before = baseline[event.deviceId]!;
				expect(event.previousLocation).toEqual({ dateTime: before.dateTime, latitude: before.latitude, longitude: before.longitude });
			}
		});
	});

	it('the same workflow at version 2: the label beside the key, the short location with its map link, unless Simplify is off', async () => {
		fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const items = await h.poll(SAVED, {}, 'manual', 2);
			const real = items.find((event) => event.event === 'locationUpdated')!;
			const fix = rawFix(h.sandbox, real)!;
			expect(Object.keys(real)).toEqual(['event', 'eventLabel', 'eventId', 'deviceId', 'deviceName', 'location', 'previousLocation', 'distanceMeters']);
			expect(real).toMatchObject({ eventLabel: 'Location Updated', previousLocation: null });
			expect(real.location).toEqual({
				deviceId: real.deviceId,
				deviceName: real.deviceName,
				dateTime: fix.dateTime,
				latitude: fix.latitude,
				longitude: fix.longitude,
				speed: fix.speed,
				battery: fix.battery,
				mapLink: `https://www.openstreetmap.org/?mlat=${fix.latitude}&mlon=${fix.longitude}#map=16/${fix.latitude}/${fix.longitude}`,
				alerts: [],
			});
			expect(items.find((event) => event.event === 'valueCrossed')).toMatchObject({ eventLabel: 'Telemetry Threshold', sample: true });
			const raw = await h.poll({ ...SAVED, simplify: false }, {}, 'manual', 2);
			expect(raw.find((event) => event.eventId === real.eventId)).toEqual({ ...real, location: fix });
		});
	});
});
