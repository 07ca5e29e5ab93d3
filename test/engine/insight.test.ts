// @host-zones: matrix
import { isExpired, isExpiringWithin } from '../../nodes/shared/devices';
import { dayOf } from '../../nodes/shared/zonedDay';
import type { Device } from '../../nodes/shared/wire';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

const ALERTS_ROUTE = 'POST /api/devices/{deviceId}/alerts';
const LIST_ROUTE = 'GET /api/devices';
const DAY_MS = 86_400_000;

// 2024-03-10 is the day New York springs forward: 23 hours, from 05:00Z to 04:00Z the next day.
const DAY = '2024-03-10';
const ZONE = 'America/New_York';
const DAY_FROM = '2024-03-10T05:00:00.000Z';
const DAY_TO = '2024-03-11T03:59:59.999Z';
const inDay = (minutes: number) => new Date(Date.parse(DAY_FROM) + minutes * 60_000).toISOString();
const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

const counters = (parameters: Record<string, unknown> = {}) => ({
	resource: 'device',
	operation: 'getNotificationCounters',
	timeZone: ZONE,
	options: { day: DAY },
	...parameters,
});
const limits = { dailyLimits: { emailLimit: 10, smsLimit: 5 } };

describe('account insight: notification counters and license usage', () => {
	const ctx = useSandbox();
	const added = (device: Device) => ctx.sandbox.store.addDevice(device);

	beforeAll(() => {
		const { store } = ctx.sandbox;
		added({ id: 'atLimit', name: 'At its e-mail limit', expires: null });
		added({ id: 'belowNear', name: 'One e-mail below 80 %', expires: null });
		added({ id: 'midnight', name: 'Alerts around midnight', expires: null });
		added({ id: 'quiet', name: 'Sent nothing', expires: null });
		for (let minute = 0; minute < 10; minute++) store.addAlert('atLimit', { dateTime: inDay(60 * minute), notifications: ['Email'] });
		store.addAlert('atLimit', { dateTime: inDay(30), notifications: ['SMS', 'Push'] });
		for (let minute = 0; minute < 7; minute++) store.addAlert('belowNear', { dateTime: inDay(minute), notifications: ['Email'] });
		store.addAlert('belowNear', { dateTime: inDay(8), notifications: [] });
		// Just before, at, and just after both midnights of the day in New York.
		store.addAlert('midnight', { dateTime: shifted(DAY_FROM, -1), notifications: ['Email'] });
		store.addAlert('midnight', { dateTime: DAY_FROM, notifications: ['Email'] });
		store.addAlert('midnight', { dateTime: DAY_TO, notifications: ['SMS'] });
		store.addAlert('midnight', { dateTime: shifted(DAY_TO, 1), notifications: ['SMS', 'Email'] });
	});
	beforeEach(() => {
		ctx.sandbox.setOptions({ latencyMs: 0 });
		ctx.sandbox.resetStats();
	});

	describe('getNotificationCounters', () => {
		it("counts the day's e-mails and SMS per device against the limits, one alerts call per device", async () => {
			const ids = ['atLimit', 'belowNear', 'midnight', 'quiet'];
			const { items, error } = await ctx.engine.runNode(counters({ deviceId: fromItem('id'), ...limits }), {
				items: ids.map((id) => ({ id })),
			});
			expect(error).toBeUndefined();
			const common = { day: DAY, timeZone: ZONE, emailLimit: 10, smsLimit: 5 };
			expect(jsonOf(items)).toEqual([
				{ ...common, deviceId: 'atLimit', deviceName: 'At its e-mail limit', emailsToday: 10, smsToday: 1, emailRemaining: 0, smsRemaining: 4, limitReached: { email: true, sms: false } },
				{ ...common, deviceId: 'belowNear', deviceName: 'One e-mail below 80 %', emailsToday: 7, smsToday: 0, emailRemaining: 3, smsRemaining: 5, limitReached: { email: false, sms: false } },
				{ ...common, deviceId: 'midnight', deviceName: 'Alerts around midnight', emailsToday: 1, smsToday: 1, emailRemaining: 9, smsRemaining: 4, limitReached: { email: false, sms: false } },
				{ ...common, deviceId: 'quiet', deviceName: 'Sent nothing', emailsToday: 0, smsToday: 0, emailRemaining: 10, smsRemaining: 5, limitReached: { email: false, sms: false } },
			]);
			expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
			expect(ctx.sandbox.stats.byRoute[ALERTS_ROUTE]).toBe(4);
			expect(ctx.sandbox.stats.byRoute[LIST_ROUTE]).toBe(1);
			const bodies = ctx.sandbox.requestLog.filter((entry) => entry.route === ALERTS_ROUTE).map((entry) => entry.body);
			expect(new Set(bodies.map((body) => JSON.stringify(body)))).toEqual(new Set([JSON.stringify({ from: DAY_FROM, to: DAY_TO })]));
		});

		it('moves the day with the time zone: the same alerts split differently in UTC', async () => {
			const { items } = await ctx.engine.runNode(counters({ deviceId: byId('midnight'), timeZone: 'UTC', options: { day: '2024-03-11' } }));
			// 2024-03-11 UTC holds the alerts at New York's second midnight and just after it.
			expect(items[0].json).toEqual({ deviceId: 'midnight', deviceName: 'Alerts around midnight', day: '2024-03-11', timeZone: 'UTC', emailsToday: 1, smsToday: 2 });
		});

		it('leaves the limit fields out without limits, and gives only those of the limits entered', async () => {
			const none = await ctx.engine.runNode(counters({ deviceId: byId('atLimit') }));
			expect(Object.keys(none.items[0].json).sort()).toEqual(['day', 'deviceId', 'deviceName', 'emailsToday', 'smsToday', 'timeZone']);
			const emailOnly = await ctx.engine.runNode(counters({ deviceId: byId('atLimit'), dailyLimits: { emailLimit: 12 } }));
			expect(emailOnly.items[0].json).toMatchObject({ emailLimit: 12, emailRemaining: 2, limitReached: { email: false } });
			expect(emailOnly.items[0].json).not.toHaveProperty('smsLimit');
		});

		it('counts selected devices, one output item each, in the order chosen', async () => {
			const { items } = await ctx.engine.runNode(
				counters({
					deviceSelection: 'selected',
					selectedDevices: { device: [{ deviceId: byId('quiet') }, { deviceId: byId('atLimit') }, { deviceId: byId('quiet') }] },
				}),
			);
			expect(jsonOf(items).map((item) => [item.deviceId, item.emailsToday])).toEqual([
				['quiet', 0],
				['atLimit', 10],
			]);
			expect(ctx.sandbox.stats.byRoute[ALERTS_ROUTE]).toBe(2);
		});

		it('counts all devices for each input item, within Max Concurrent Requests', async () => {
			const latencyMs = 40;
			ctx.sandbox.setOptions({ latencyMs });
			const devices = ctx.sandbox.store.listDevices();
			const { items, error } = await ctx.engine.runNode(
				counters({ deviceSelection: 'all', ...limits, requestSettings: { maxConcurrency: 3 } }),
				{ items: [{}, {}] },
			);
			expect(error).toBeUndefined();
			expect(jsonOf(items).map((item) => item.deviceId)).toEqual([...devices, ...devices].map((device) => device.id));
			expect(jsonOf(items).map((item) => item.deviceName)).toEqual([...devices, ...devices].map((device) => device.name));
			expect(items.slice(0, devices.length).every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);
			expect(jsonOf(items).find((item) => item.deviceId === 'atLimit')).toMatchObject({ emailsToday: 10, limitReached: { email: true } });
			expect(ctx.sandbox.stats.byRoute[ALERTS_ROUTE]).toBe(2 * devices.length);
			expect(ctx.sandbox.stats.byRoute[LIST_ROUTE]).toBe(1);
			// A fourth request can only start once one of three has had its answer.
			const arrivals = ctx.sandbox.requestLog.filter((entry) => entry.route === ALERTS_ROUTE).map((entry) => entry.at).sort((a, b) => a - b);
			for (let index = 3; index < arrivals.length; index++) expect(arrivals[index] - arrivals[index - 3]).toBeGreaterThanOrEqual(latencyMs - 5);
		});

		it('names the device that failed when it counts several, for each input item alike', async () => {
			// The vendor's message for a device over its own limit names no device: of all the account's,
			// the user could not tell which one failed (helper-47).
			ctx.sandbox.faults.inject({ match: { path: '/api/devices/atLimit/alerts' }, kind: 'status', status: 403, message: 'Daily results limit reached for this device.' });
			const { items } = await ctx.engine.runNode(counters({ deviceSelection: 'all' }), { items: [{}, {}], continueOnFail: true });
			ctx.sandbox.faults.clear();
			expect(items.map((item) => [item.pairedItem, item.json.error])).toEqual([0, 1].map((item) => [
				{ item },
				'The tracking API answered 403: Daily results limit reached for this device. (device id "atLimit")',
			]));
			// An outage of the service is no device's: naming the first device in order would blame it (helper-48).
			ctx.sandbox.faults.inject({ match: { path: /\/alerts$/ }, kind: 'status', status: 500, message: 'Internal error.' });
			const outage = await ctx.engine.runNode(counters({ deviceSelection: 'all', requestSettings: { maxRetries: 0 } }), { items: [{}], continueOnFail: true });
			ctx.sandbox.faults.clear();
			expect(jsonOf(outage.items).map((item) => item.error)).toEqual(['The tracking API answered 500: Internal error.']);
		});

		it("counts today in the chosen zone when no day is given", async () => {
			ctx.sandbox.store.addDevice({ id: 'today', name: 'Alerted just now', expires: null });
			const now = new Date();
			ctx.sandbox.store.addAlert('today', { dateTime: now.toISOString(), notifications: ['SMS'] });
			const { items } = await ctx.engine.runNode(counters({ deviceId: byId('today'), timeZone: 'Asia/Tokyo', options: {} }));
			expect(items[0].json).toMatchObject({ deviceId: 'today', day: dayOf(now, 'Asia/Tokyo'), smsToday: 1, emailsToday: 0 });
		});

		it('fails an item with the vendor message for an unknown device, and names bad input', async () => {
			const { items } = await ctx.engine.runNode(counters({ deviceId: fromItem('id') }), {
				items: [{ id: 'no-such-device' }, { id: 'quiet' }],
				continueOnFail: true,
			});
			expect(items.map((item) => item.json.error ?? item.json.deviceId)).toEqual(['The tracking API answered 404: Device not found. (device id "no-such-device")', 'quiet']);

			const zone = await ctx.engine.runNode(counters({ deviceId: byId('quiet'), timeZone: 'Mars/Olympus' }));
			expect(zone.error?.message).toBe('Invalid "Time Zone" in item 0: Time Zone is not an IANA time zone such as Europe/Berlin (got "Mars/Olympus")');
			const day = await ctx.engine.runNode(counters({ deviceId: byId('quiet'), options: { day: '2024-02-30' } }));
			expect(day.error?.message).toBe('Invalid "Day" in item 0: Day is not a calendar day (got "2024-02-30")');
			expect(ctx.sandbox.stats.byRoute[ALERTS_ROUTE]).toBe(2);
		});
	});

	describe('getLicenseUsage', () => {
		it('summarises the account in one item per input item from one device listing', async () => {
			const now = Date.now();
			added({ id: 'lapsed', name: 'Expired yesterday', expires: new Date(now - DAY_MS).toISOString() });
			added({ id: 'lapsing', name: 'Expires in ten days', expires: new Date(now + 10 * DAY_MS).toISOString() });
			const { items, error } = await ctx.engine.runNode(
				{ resource: 'device', operation: 'getLicenseUsage', expiringWithinDays: 30, options: { licensesOwned: 40 } },
				{ items: [{}, {}] },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(ctx.sandbox.stats.byRoute[LIST_ROUTE]).toBe(1);

			const devices = ctx.sandbox.store.listDevices();
			const at = new Date();
			const expired = devices.filter((device) => isExpired(device, at));
			const expiring = devices.filter((device) => isExpiringWithin(device, at, 30));
			const usage = items[0].json as Record<string, unknown> & { expiringDevices: Array<Record<string, string>>; expiredDevices: Array<Record<string, string>> };
			expect(usage).toMatchObject({
				devicesTotal: devices.length,
				devicesActive: devices.length - expired.length,
				devicesExpired: expired.length,
				expiringWithinDays: 30,
				devicesExpiring: expiring.length,
				licensesOwned: 40,
				licensesFree: 40 - (devices.length - expired.length),
			});
			const { facts } = ctx.sandbox.store;
			expect(usage.expiredDevices.map((entry) => entry.deviceId).sort()).toEqual([...facts.expiredDeviceIds, 'lapsed'].sort());
			expect(usage.expiringDevices.map((entry) => entry.deviceId).sort()).toEqual([...facts.expiringSoonDeviceIds, 'lapsing'].sort());
			expect(usage.expiringDevices.find((entry) => entry.deviceId === 'lapsing')).toEqual({
				deviceId: 'lapsing',
				deviceName: 'Expires in ten days',
				expires: ctx.sandbox.store.getDevice('lapsing')!.expires,
			});
			const dates = usage.expiringDevices.map((entry) => Date.parse(entry.expires));
			expect(dates).toEqual([...dates].sort((a, b) => a - b));
			expect(items[1].json).toEqual(items[0].json);
		});

		it('leaves free licenses out when the owned count is not given', async () => {
			const { items } = await ctx.engine.runNode({ resource: 'device', operation: 'getLicenseUsage', expiringWithinDays: 7 });
			expect(items[0].json).not.toHaveProperty('licensesFree');
			expect(items[0].json).toMatchObject({ expiringWithinDays: 7 });
		});
	});
});
