/**
 * The polling trigger driven the way n8n's poller drives it: poll() again and again in n8n-core's
 * PollContext with persistent static data, against the sandbox while devices move. The clock is
 * jest's fake Date (timers stay real), shared by the node and the sandbox, so minutes pass per poll.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Device, Location } from '../../nodes/shared/wire';
import type { FixInput, Sandbox } from '../../sandbox/server';
import { byId } from '../support/sandboxed';
import { fakeDateFrom } from '../support/clock';
import { addScriptedDevice, restartedFrom, SCRIPTED_DEVICES, triggerState, withTriggerSandbox } from '../support/trigger';
import { ABSENT_RETENTION_MS } from '../../nodes/SatelliteTrackingTrigger/detection/advance';

const MINUTE = 60_000;

afterEach(() => jest.useRealTimers());

const key = (event: TriggerEvent) => [event.event, event.deviceId, event.geofence].filter(Boolean).join('|');
const keys = (events: TriggerEvent[]) => events.map(key).sort();

function addDevice(sandbox: Sandbox, id: string, extra: Partial<Device> = {}): void {
	sandbox.store.addDevice({ id, name: `Scripted ${id}`, tags: { scripted: 'yes' }, expires: null, ...extra });
}

function addFix(sandbox: Sandbox, deviceId: string, at: number, position: { latitude: number; longitude: number }, extra: Partial<FixInput> = {}): Location {
	return sandbox.store.addFix(deviceId, { ...position, dateTime: new Date(at).toISOString(), ...extra });
}

const DEPOT = { name: 'Depot', latitude: 10, longitude: 10, radius: 1000 };
const IN_DEPOT = { latitude: 10.001, longitude: 10 };
const OUT_OF_DEPOT = { latitude: 10.1, longitude: 10 };
const YARD = { name: 'Yard', format: 'points', points: '20, 20\n20, 20.01\n20.01, 20.01\n20.01, 20' };
const IN_YARD = { latitude: 20.005, longitude: 20.005 };
const OUT_OF_YARD = { latitude: 20.05, longitude: 20.05 };
const geofences = { circle: [DEPOT], polygon: [YARD] };

describe('Satellite Tracking Trigger', () => {
	it('reports every event type exactly once per real occurrence over 26 polls, across a restart', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		const at = (poll: number) => T0 + poll * 5 * MINUTE;
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const { sandbox } = h;
			const silentSeeded = sandbox.store.facts.silentDeviceIds;
			const movingSeeded = sandbox.store.listDevices().map((device) => device.id).filter((id) => !silentSeeded.includes(id));
			for (const id of ['fence-1', 'yard-1', 'alert-1', 'quiet-1']) addDevice(sandbox, id);
			addDevice(sandbox, 'expiry-1', { expires: new Date(T0 + 7 * 24 * 60 * MINUTE + 62 * MINUTE).toISOString() });

			const fenceInside = (poll: number) => (poll >= 3 && poll <= 6) || (poll >= 12 && poll <= 14);
			const yardInside = (poll: number) => poll >= 4 && poll <= 17;
			const alertAt: Record<number, Partial<FixInput>> = {
				5: { hasCriticalAlert: true, alertTexts: ['SOS button pressed'], alerts: ['SOS'] },
				9: { alertTexts: ['Overspeed: 96 km/h'], alerts: ['Overspeed'] },
				14: { hasCriticalAlert: true, alertTexts: ['SOS button pressed'], alerts: ['SOS'] },
			};
			const quietReports = (poll: number) => poll <= 6 || poll === 16;
			const script = (poll: number) => {
				const fixAt = at(poll) - MINUTE;
				addFix(sandbox, 'fence-1', fixAt, fenceInside(poll) ? IN_DEPOT : OUT_OF_DEPOT);
				addFix(sandbox, 'yard-1', fixAt, yardInside(poll) ? IN_YARD : OUT_OF_YARD);
				addFix(sandbox, 'alert-1', fixAt, { latitude: 30, longitude: 30 + poll / 100 }, alertAt[poll] ?? {});
				if (quietReports(poll)) addFix(sandbox, 'quiet-1', fixAt, { latitude: 40, longitude: 40 + poll / 100 });
				addFix(sandbox, 'expiry-1', fixAt, { latitude: 50, longitude: 50 });
				sandbox.moveDevices({ minutes: 5, deviceIds: movingSeeded });
			};
			const scripted: Record<string, number[]> = {
				'geofenceEntered|fence-1|Depot': [3, 12],
				'geofenceExited|fence-1|Depot': [7, 15],
				'geofenceEntered|yard-1|Yard': [4],
				'geofenceExited|yard-1|Yard': [18],
				'deviceSilent|quiet-1': [12, 22],
				'deviceExpiring|expiry-1': [13],
			};

			const parameters: INodeParameters = {
				events: ['locationUpdated', 'geofenceEntered', 'geofenceExited', 'deviceSilent', 'criticalAlert', 'deviceExpiring'],
				readMode: 'latestFix',
				deviceSelection: 'all',
				geofences,
				silentAfterMinutes: 30,
				expiringWithinDays: 7,
				alertFilter: 'SOS',
			};
			let staticData: IDataObject = {};
			let previousLatest = new Map<string, Location | null | undefined>();
			const counts = new Map<string, number>();
			for (let poll = 0; poll < 26; poll++) {
				setNow(at(poll));
				script(poll);
				const ids = sandbox.store.listDevices().map((device) => device.id);
				const latest = new Map(ids.map((id) => [id, sandbox.store.lastLocation(id)]));
				// Ground truth, independent of the node: what changed in the store since the last poll.
				const expected: string[] = [];
				if (poll > 0) {
					for (const id of ids) {
						const now = latest.get(id);
						if (!now || now.dateTime === previousLatest.get(id)?.dateTime) continue;
						expected.push(`locationUpdated|${id}`);
						const texts = [...(now.alertTexts ?? []), ...(now.alerts ?? [])];
						// The filter keeps SOS texts; a fix flagged critical passes whatever its texts.
						if (now.hasCriticalAlert || texts.some((text) => text.toLowerCase().includes('sos'))) expected.push(`criticalAlert|${id}`);
					}
					for (const [event, polls] of Object.entries(scripted)) if (polls.includes(poll)) expected.push(event);
				}
				if (poll === 10) {
					staticData = restartedFrom(staticData);
					h.restart();
				}
				const events = await h.poll(parameters, staticData);
				expect({ poll, events: keys(events) }).toEqual({ poll, events: expected.sort() });
				for (const event of events.filter((e) => e.event === 'locationUpdated')) {
					expect(event.location).toEqual(latest.get(event.deviceId));
					expect(event.previousLocation?.dateTime).toBe(previousLatest.get(event.deviceId)?.dateTime);
					expect(event.deviceName).toBe(sandbox.store.getDevice(event.deviceId)?.name);
				}
				for (const event of events) counts.set(event.event, (counts.get(event.event) ?? 0) + 1);
				previousLatest = latest;
			}
			expect(Object.fromEntries(counts)).toMatchObject({
				geofenceEntered: 3,
				geofenceExited: 3,
				deviceSilent: 2,
				deviceExpiring: 1,
				criticalAlert: expect.any(Number),
				locationUpdated: expect.any(Number),
			});
			expect(counts.get('criticalAlert')).toBeGreaterThanOrEqual(2);
		});
	});

	it('re-emits nothing after a restart, and the restarted trigger reports what comes next', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 6 }, async (h) => {
			const parameters = { events: ['locationUpdated', 'criticalAlert', 'deviceSilent', 'deviceExpiring'], silentAfterMinutes: 30 };
			const staticData: IDataObject = {};
			expect(await h.poll(parameters, staticData)).toEqual([]);
			setNow(T0 + 10 * MINUTE);
			h.sandbox.moveDevices({ minutes: 10, deviceIds: ['device001', 'device002'] });
			expect(keys(await h.poll(parameters, staticData))).toEqual(['locationUpdated|device001', 'locationUpdated|device002']);

			const restarted = restartedFrom(staticData);
			h.restart();
			expect(await h.poll(parameters, restarted)).toEqual([]);
			expect(restarted).toEqual(restartedFrom(staticData));
			h.sandbox.moveDevices({ minutes: 5, deviceIds: ['device003'] });
			expect(keys(await h.poll(parameters, restarted))).toEqual(['locationUpdated|device003']);
		});
	});

	it('Critical Alert with Alert Names reports only alerts of those documented names, and a fix flagged critical whatever the filter', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			addDevice(h.sandbox, 'van-9');
			addFix(h.sandbox, 'van-9', T0 - 10 * MINUTE, OUT_OF_DEPOT);
			const parameters = { events: ['criticalAlert'], readMode: 'everyFix', deviceSelection: 'tag', tagKey: 'scripted', alertNames: ['SOSButton', 'GPSOff'] };
			const staticData: IDataObject = {};
			expect(await h.poll(parameters, staticData)).toEqual([]);

			addFix(h.sandbox, 'van-9', T0 + 1 * MINUTE, OUT_OF_DEPOT, { alerts: ['SpeedLimit'], alertTexts: ['Speed limit exceeded'] });
			addFix(h.sandbox, 'van-9', T0 + 2 * MINUTE, OUT_OF_DEPOT, { alerts: ['SOSButton'], alertTexts: ['SOS pressed by driver'] });
			addFix(h.sandbox, 'van-9', T0 + 3 * MINUTE, OUT_OF_DEPOT, { alerts: ['SOSButtonPressed'] });
			addFix(h.sandbox, 'van-9', T0 + 4 * MINUTE, OUT_OF_DEPOT, { alerts: ['HarshBraking'], hasCriticalAlert: true });
			setNow(T0 + 5 * MINUTE);

			const events = await h.poll(parameters, staticData);
			expect(events.map((e) => [e.location?.dateTime, e.alerts])).toEqual([
				[new Date(T0 + 2 * MINUTE).toISOString(), ['SOSButton']],
				[new Date(T0 + 4 * MINUTE).toISOString(), ['HarshBraking']],
			]);
			await expect(h.poll({ ...parameters, alertNames: { SOSButton: true } }, {})).rejects.toThrow('Invalid "Alert Names"');
		});
	});

	it('Every-fix mode reports a geofence entry and exit that happened entirely between two polls', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
			addDevice(h.sandbox, 'van-7');
			addFix(h.sandbox, 'van-7', T0 - 10 * MINUTE, OUT_OF_DEPOT);
			const base = { events: ['geofenceEntered', 'geofenceExited', 'criticalAlert'], geofences, deviceSelection: 'tag', tagKey: 'scripted', tagValue: 'yes' };
			const every = { ...base, readMode: 'everyFix' };
			const latest = { ...base, readMode: 'latestFix' };
			const everyData: IDataObject = {};
			const latestData: IDataObject = {};
			expect(await h.poll(every, everyData)).toEqual([]);
			expect(await h.poll(latest, latestData)).toEqual([]);

			// In, an alert while inside, and out again: all between two polls, delivered out of order.
			addFix(h.sandbox, 'van-7', T0 + 3 * MINUTE, OUT_OF_DEPOT);
			addFix(h.sandbox, 'van-7', T0 + 1 * MINUTE, IN_DEPOT);
			addFix(h.sandbox, 'van-7', T0 + 2 * MINUTE, IN_DEPOT, { hasCriticalAlert: true, alertTexts: ['Power cut'] });
			setNow(T0 + 5 * MINUTE);

			const events = await h.poll(every, everyData);
			expect(events.map((e) => [e.event, e.geofence, e.location?.dateTime])).toEqual([
				['geofenceEntered', 'Depot', new Date(T0 + MINUTE).toISOString()],
				['criticalAlert', undefined, new Date(T0 + 2 * MINUTE).toISOString()],
				['geofenceExited', 'Depot', new Date(T0 + 3 * MINUTE).toISOString()],
			]);
			expect(events[1].alerts).toEqual(['Power cut']);
			expect(h.lastPollRequests()).toEqual([
				{ route: 'GET /api/devices', deviceId: undefined, body: undefined },
				{
					route: 'POST /api/devices/{deviceId}/locations',
					deviceId: 'van-7',
					// From the newest fix seen to now (the fake clock runs on by a few milliseconds).
					// From the late window (30 minutes) before the newest fix seen.
					body: { from: new Date(T0 - 40 * MINUTE).toISOString(), to: expect.stringMatching(/^2026-05-05T08:05:00\.\d{3}Z$/) },
				},
			]);
			// Latest-fix mode sees only the newest fix: outside, as before.
			expect(await h.poll(latest, latestData)).toEqual([]);
			// Nothing twice: the range read again starts at the newest fix seen, which is not new.
			setNow(T0 + 10 * MINUTE);
			expect(await h.poll(every, everyData)).toEqual([]);
		});
	});

	it('loses none of the events of devices whose reads fail; throws when every read fails', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const ids = ['dev-a', 'dev-b', 'dev-c'];
			for (const id of ids) {
				addDevice(h.sandbox, id);
				addFix(h.sandbox, id, T0 - MINUTE, { latitude: 1, longitude: 1 });
			}
			const parameters = { events: ['locationUpdated'], readMode: 'everyFix', deviceSelection: 'tag', tagKey: 'scripted' };
			const staticData: IDataObject = {};
			expect(await h.poll(parameters, staticData)).toEqual([]);

			const fixTimes = (events: TriggerEvent[], id: string) =>
				events.filter((e) => e.deviceId === id).map((e) => (e.location as Location).dateTime);
			const iso = (minute: number) => new Date(T0 + minute * MINUTE).toISOString();
			for (const id of ids) for (const minute of [1, 2]) addFix(h.sandbox, id, T0 + minute * MINUTE, { latitude: 1 + minute / 100, longitude: 1 });
			const fault = h.sandbox.faults.inject({
				match: { path: '/api/devices/dev-b/locations' },
				kind: 'status',
				status: 400,
				message: 'Simulated failure for dev-b',
			});
			setNow(T0 + 5 * MINUTE);
			const partial = await h.poll(parameters, staticData);
			expect(fixTimes(partial, 'dev-a')).toEqual([iso(1), iso(2)]);
			expect(fixTimes(partial, 'dev-b')).toEqual([]);
			expect(fixTimes(partial, 'dev-c')).toEqual([iso(1), iso(2)]);
			expect(triggerState(staticData)).toMatchObject({ retry: ['dev-b'] });

			h.sandbox.faults.remove(fault.id);
			for (const id of ids) addFix(h.sandbox, id, T0 + 6 * MINUTE, { latitude: 1.1, longitude: 1 });
			setNow(T0 + 10 * MINUTE);
			const recovered = await h.poll(parameters, staticData);
			expect(fixTimes(recovered, 'dev-a')).toEqual([iso(6)]);
			expect(fixTimes(recovered, 'dev-b')).toEqual([iso(1), iso(2), iso(6)]);
			expect(fixTimes(recovered, 'dev-c')).toEqual([iso(6)]);
			expect(triggerState(staticData)).not.toHaveProperty('retry');

			h.sandbox.faults.inject({ match: { path: /\/locations$/ }, kind: 'status', status: 403, message: 'Simulated: no access' });
			for (const id of ids) addFix(h.sandbox, id, T0 + 11 * MINUTE, { latitude: 1.2, longitude: 1 });
			setNow(T0 + 15 * MINUTE);
			const before = restartedFrom(staticData);
			await expect(h.poll(parameters, staticData)).rejects.toThrow(/no access/i);
			// What the devices showed stays as it was; the failing reads are marked for retry.
			expect(triggerState(restartedFrom(staticData))).toEqual({ ...triggerState(before), retry: ids });
			h.sandbox.faults.clear();
			const after = await h.poll(parameters, staticData);
			expect(keys(after)).toEqual(['locationUpdated|dev-a', 'locationUpdated|dev-b', 'locationUpdated|dev-c']);
		});
	});

	it('makes N+1 requests per poll in Latest-fix mode, and keeps to Max Requests per Poll by round robin', async () => {
		await withTriggerSandbox({ deviceCount: 12 }, async (h) => {
			const devices = h.sandbox.store.listDevices().map((device) => device.id).sort();
			const unlimited = { events: ['locationUpdated'] };
			await h.poll(unlimited, {});
			const all = h.lastPollRequests();
			expect(all).toHaveLength(devices.length + 1);
			expect(all.filter((r) => r.route === 'GET /api/devices/{deviceId}/lastLocation').map((r) => r.deviceId).sort()).toEqual(devices);

			const budgeted = { events: ['locationUpdated'], requestSettings: { maxRequestsPerPoll: 5 } };
			const staticData: IDataObject = {};
			const readPerPoll: string[][] = [];
			for (let poll = 0; poll < 6; poll++) {
				await h.poll(budgeted, staticData);
				const requests = h.lastPollRequests();
				expect(requests).toHaveLength(5);
				expect(requests.filter((r) => r.route === 'GET /api/devices')).toHaveLength(1);
				readPerPoll.push(requests.filter((r) => r.deviceId).map((r) => r.deviceId!));
			}
			// Three polls read every device once; the next three go round again in the same order.
			expect(readPerPoll.slice(0, 3).flat().sort()).toEqual(devices);
			expect(readPerPoll.slice(3)).toEqual(readPerPoll.slice(0, 3));

			const group = h.sandbox.store.getGroup('grp-3')!;
			const inGroup = { events: ['locationUpdated'], deviceSelection: 'group', groupId: byId('grp-3'), requestSettings: { maxRequestsPerPoll: 4 } };
			const groupData: IDataObject = {};
			const groupReads: string[] = [];
			const members = group.devices!.filter((id) => devices.includes(id));
			// Two listing calls (devices, group) leave two device reads per poll.
			for (let poll = 0; poll < Math.ceil(members.length / 2); poll++) {
				await h.poll(inGroup, groupData);
				const requests = h.lastPollRequests();
				expect(requests.length).toBeLessThanOrEqual(4);
				expect(requests.filter((r) => r.route === 'GET /api/groups/{groupId}')).toHaveLength(1);
				groupReads.push(...requests.filter((r) => r.deviceId && r.route !== 'GET /api/groups/{groupId}').map((r) => r.deviceId!));
			}
			expect(groupReads.sort()).toEqual([...members].sort());
		});
	});

	it('loses no fix in Every-fix mode when the budget spreads devices over several polls', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 9 }, async (h) => {
			const parameters = { events: ['locationUpdated'], readMode: 'everyFix', requestSettings: { maxRequestsPerPoll: 4 } };
			const staticData: IDataObject = {};
			const baselineAt = new Map<string, number>();
			const reported = new Map<string, string[]>();
			const moving = h.sandbox.store.listDevices().map((d) => d.id).filter((id) => h.sandbox.store.lastLocation(id));
			for (let poll = 0; poll < 12; poll++) {
				setNow(T0 + poll * 5 * MINUTE);
				if (poll > 0) h.sandbox.moveDevices({ minutes: 5, deviceIds: moving });
				const latestBefore = new Map(moving.map((id) => [id, h.sandbox.store.lastLocation(id)!.dateTime]));
				const events = await h.poll(parameters, staticData);
				const requests = h.lastPollRequests();
				expect(requests).toHaveLength(4);
				for (const request of requests) {
					if (request.deviceId && !baselineAt.has(request.deviceId) && latestBefore.has(request.deviceId)) {
						baselineAt.set(request.deviceId, Date.parse(latestBefore.get(request.deviceId)!));
					}
				}
				for (const event of events) reported.set(event.deviceId, [...(reported.get(event.deviceId) ?? []), (event.location as Location).dateTime]);
			}
			// A final poll without a budget catches up every device.
			setNow(T0 + 12 * 5 * MINUTE);
			for (const event of await h.poll({ ...parameters, requestSettings: {} }, staticData)) {
				reported.set(event.deviceId, [...(reported.get(event.deviceId) ?? []), (event.location as Location).dateTime]);
			}
			for (const id of moving) {
				const since = baselineAt.get(id)!;
				const expected = h.sandbox.store.locations(id)!.map((fix) => fix.dateTime).filter((time) => Date.parse(time) > since);
				expect({ id, reported: reported.get(id) ?? [] }).toEqual({ id, reported: expected });
				expect(expected.length).toBeGreaterThanOrEqual(9);
			}
		});
	});

	it('backs off on a 429 without failing the poll', async () => {
		await withTriggerSandbox({ deviceCount: 4 }, async (h) => {
			const parameters = { events: ['locationUpdated'] };
			const staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			h.sandbox.moveDevices({ minutes: 5, deviceIds: ['device003'] });
			h.sandbox.faults.inject({
				match: { path: '/api/devices/device003/lastLocation' },
				kind: 'status',
				status: 429,
				retryAfter: 1,
				times: 1,
			});
			const started = Date.now();
			expect(keys(await h.poll(parameters, staticData))).toEqual(['locationUpdated|device003']);
			expect(Date.now() - started).toBeGreaterThanOrEqual(900);
			expect(h.sandbox.stats.tooManyRequests).toBe(1);
		});
	});

	it('watches only the selected devices, or those with a tag', async () => {
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const selected = {
				events: ['locationUpdated'],
				deviceSelection: 'selected',
				devices: { device: [{ deviceId: byId('device002') }, { deviceId: { __rl: true, mode: 'list', value: 'device005' } }] },
			};
			await h.poll(selected, {});
			expect(h.lastPollRequests().map((r) => r.deviceId ?? r.route)).toEqual(['GET /api/devices', 'device002', 'device005']);
			const tagged = { events: ['locationUpdated'], deviceSelection: 'tag', tagKey: 'fleet', tagValue: 'north' };
			await h.poll(tagged, {});
			const north = h.sandbox.store.listDevices().filter((d) => d.tags?.fleet === 'north').map((d) => d.id).sort();
			expect(h.lastPollRequests().flatMap((r) => (r.deviceId ? [r.deviceId] : []))).toEqual(north);
		});
	});

	it('prunes a device that left the account from its state after ABSENT_RETENTION_MS', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 3 }, async (h) => {
			const staticData: IDataObject = {};
			await h.poll({ events: ['locationUpdated'] }, staticData);
			expect(Object.keys(triggerState(staticData).devices).sort()).toEqual(['device001', 'device002', 'device003']);
			h.sandbox.store.removeDevice('device002');
			await h.poll({ events: ['locationUpdated'] }, staticData);
			// Kept, marked with when it went missing (the fake clock runs on by a few milliseconds).
			expect(triggerState(staticData).devices.device002).toMatchObject({ absentSince: expect.stringMatching(/^2026-05-04T08:00:/) });
			setNow(T0 + ABSENT_RETENTION_MS + MINUTE);
			await h.poll({ events: ['locationUpdated'] }, staticData);
			expect(Object.keys(triggerState(staticData).devices).sort()).toEqual(['device001', 'device003']);
		});
	});

	it('loses nothing a device did while one device listing left it out, in either mode', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
			addDevice(h.sandbox, 'van-7');
			addFix(h.sandbox, 'van-7', T0 - MINUTE, IN_DEPOT);
			const base = { events: ['locationUpdated', 'geofenceExited'], geofences, deviceSelection: 'tag', tagKey: 'scripted', tagValue: 'yes' };
			const modes = { everyFix: { ...base, readMode: 'everyFix' }, latestFix: { ...base, readMode: 'latestFix' } };
			const data: Record<keyof typeof modes, IDataObject> = { everyFix: {}, latestFix: {} };
			for (const mode of ['everyFix', 'latestFix'] as const) expect(await h.poll(modes[mode], data[mode])).toEqual([]);

			// An API hiccup: the next listing of each trigger leaves van-7 out, while it drives out of the depot.
			h.sandbox.faults.inject({ match: { method: 'GET', path: '/api/devices' }, kind: 'dropListed', ids: ['van-7'], times: 2 });
			addFix(h.sandbox, 'van-7', T0 + 2 * MINUTE, OUT_OF_DEPOT);
			setNow(T0 + 5 * MINUTE);
			for (const mode of ['everyFix', 'latestFix'] as const) {
				expect(await h.poll(modes[mode], data[mode])).toEqual([]);
				expect(h.lastPollRequests().map((r) => r.route)).toEqual(['GET /api/devices']);
			}
			addFix(h.sandbox, 'van-7', T0 + 6 * MINUTE, { latitude: 10.11, longitude: 10 });
			addFix(h.sandbox, 'van-7', T0 + 7 * MINUTE, { latitude: 10.12, longitude: 10 });
			setNow(T0 + 10 * MINUTE);

			const iso = (minute: number) => new Date(T0 + minute * MINUTE).toISOString();
			const seen = (events: TriggerEvent[]) => events.map((e) => [e.event, e.location?.dateTime]);
			expect(seen(await h.poll(modes.everyFix, data.everyFix))).toEqual([
				['locationUpdated', iso(2)],
				['geofenceExited', iso(2)],
				['locationUpdated', iso(6)],
				['locationUpdated', iso(7)],
			]);
			expect(seen(await h.poll(modes.latestFix, data.latestFix))).toEqual([
				['locationUpdated', iso(7)],
				['geofenceExited', iso(7)],
			]);
			for (const mode of ['everyFix', 'latestFix'] as const) expect(triggerState(data[mode]).devices['van-7']).not.toHaveProperty('absentSince');
		});
	});

	it('Every-fix mode reports each of 25 fixes sharing a timestamp once, poll after poll', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			addDevice(h.sandbox, 'burst-1');
			addFix(h.sandbox, 'burst-1', T0 - MINUTE, { latitude: 1, longitude: 1 });
			const parameters = { events: ['locationUpdated'], readMode: 'everyFix', deviceSelection: 'tag', tagKey: 'scripted', tagValue: 'yes' };
			const staticData: IDataObject = {};
			expect(await h.poll(parameters, staticData)).toEqual([]);
			// A device uploading a buffer of fixes that all carry the time it reconnected.
			const burstAt = T0 + MINUTE;
			for (let i = 0; i < 25; i++) addFix(h.sandbox, 'burst-1', burstAt, { latitude: 1 + i / 1000, longitude: 1 });
			const reported: number[] = [];
			for (let poll = 1; poll <= 5; poll++) {
				setNow(T0 + poll * 5 * MINUTE);
				reported.push(...(await h.poll(parameters, staticData)).map((e) => (e.location as Location).latitude));
			}
			expect(reported).toEqual(Array.from({ length: 25 }, (_, i) => 1 + i / 1000));
			expect(JSON.stringify(triggerState(staticData)).length).toBeLessThan(500);
			// One more arriving late with the same time is new; a newer fix ends the burst.
			addFix(h.sandbox, 'burst-1', burstAt, { latitude: 2, longitude: 2 });
			setNow(T0 + 30 * MINUTE);
			expect((await h.poll(parameters, staticData)).map((e) => (e.location as Location).latitude)).toEqual([2]);
			addFix(h.sandbox, 'burst-1', T0 + 31 * MINUTE, { latitude: 3, longitude: 3 });
			setNow(T0 + 35 * MINUTE);
			expect((await h.poll(parameters, staticData)).map((e) => (e.location as Location).latitude)).toEqual([3]);
			expect(await h.poll(parameters, staticData)).toEqual([]);
		});
	});

	it('gives every item an eventId: a poll repeated from the same saved state yields the same ids, distinct events distinct ids', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 6 }, async (h) => {
			// Its license comes within the 7-day window between the two polls.
			addDevice(h.sandbox, 'van-7', { expires: new Date(T0 + 7 * 24 * 60 * MINUTE + 3 * MINUTE).toISOString() });
			addFix(h.sandbox, 'van-7', T0 - 10 * MINUTE, IN_DEPOT);
			// Its last fix comes 30 minutes old between the two polls.
			addDevice(h.sandbox, 'van-8');
			addFix(h.sandbox, 'van-8', T0 - 27 * MINUTE, IN_DEPOT);
			const parameters = {
				events: ['locationUpdated', 'geofenceEntered', 'geofenceExited', 'criticalAlert', 'deviceSilent', 'deviceExpiring'],
				readMode: 'everyFix',
				geofences,
				silentAfterMinutes: 30,
			};
			const staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			addFix(h.sandbox, 'van-7', T0 + MINUTE, OUT_OF_DEPOT, { hasCriticalAlert: true, alertTexts: ['SOS button pressed'] });
			addFix(h.sandbox, 'van-7', T0 + 2 * MINUTE, IN_DEPOT);
			addFix(h.sandbox, 'van-7', T0 + 3 * MINUTE, IN_YARD);
			// The seeded silent devices stay silent: a fix they sent now, however old its date, is news from them.
			const { silentDeviceIds } = h.sandbox.store.facts;
			const moving = h.sandbox.store.listDevices().map((device) => device.id).filter((id) => !silentDeviceIds.includes(id) && id !== 'van-8');
			h.sandbox.moveDevices({ minutes: 5, deviceIds: moving.filter((id) => h.sandbox.store.lastLocation(id)) });
			setNow(T0 + 5 * MINUTE);
			// A crash after the poll, before n8n saved the state: the next poll starts from the same saved state.
			const saved = restartedFrom(staticData);
			const first = await h.poll(parameters, restartedFrom(saved));
			h.restart();
			setNow(T0 + 6 * MINUTE);
			const repeated = await h.poll(parameters, restartedFrom(saved));
			expect(first.length).toBeGreaterThan(8);
			expect(repeated.map((e) => [e.event, e.deviceId, e.eventId])).toEqual(first.map((e) => [e.event, e.deviceId, e.eventId]));
			expect(new Set(first.map((e) => e.eventId)).size).toBe(first.length);
			expect(new Set(first.map((e) => e.event))).toEqual(
				new Set(['locationUpdated', 'geofenceEntered', 'geofenceExited', 'criticalAlert', 'deviceSilent', 'deviceExpiring']),
			);
		});
	});

	it('gives the new events of one poll distinct ids, and the same ids when the poll is repeated from the saved state after a restart', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
			addDevice(h.sandbox, 'reefer-9');
			addFix(h.sandbox, 'reefer-9', T0 - 10 * MINUTE, IN_DEPOT, { temperature: 5, fuel: 60, speed: 0, inputs: [false, false], outputs: [false] });
			const parameters = {
				events: ['valueCrossed', 'fuelDropped', 'inputChanged', 'deviceBackOnline', 'geofenceDwell'],
				readMode: 'everyFix',
				deviceSelection: 'selected',
				devices: { device: [{ deviceId: 'reefer-9' }] },
				geofences,
				dwellMinutes: 30,
				silentAfterMinutes: 5,
				thresholdRules: { rule: [{ field: 'temperature', direction: 'above', value: 8 }, { field: 'temperature', direction: 'above', value: 8, hysteresis: 1 }] },
				fuelDropAmount: 10,
				inputLines: 'both',
			};
			const staticData: IDataObject = {};
			expect(await h.poll(parameters, staticData)).toEqual([]);
			// One fix switches input 0 and output 0 at once, crosses both rules and loses 20 l while parked.
			addFix(h.sandbox, 'reefer-9', T0 + MINUTE, IN_DEPOT, { temperature: 9, fuel: 40, speed: 0, inputs: [true, false], outputs: [true] });
			addFix(h.sandbox, 'reefer-9', T0 + 25 * MINUTE, IN_DEPOT, { temperature: 9, fuel: 40, speed: 0, inputs: [true, false], outputs: [true] });
			setNow(T0 + 26 * MINUTE);
			const saved = restartedFrom(staticData);
			const first = await h.poll(parameters, restartedFrom(saved));
			h.restart();
			setNow(T0 + 27 * MINUTE);
			const repeated = await h.poll(parameters, restartedFrom(saved));
			expect(first.map((e) => e.event).sort()).toEqual(
				['deviceBackOnline', 'fuelDropped', 'geofenceDwell', 'inputChanged', 'inputChanged', 'valueCrossed', 'valueCrossed'].sort(),
			);
			expect(new Set(first.map((e) => e.eventId)).size).toBe(first.length);
			expect(repeated.map((e) => [e.event, e.eventId])).toEqual(first.map((e) => [e.event, e.eventId]));
		});
	});

	it('"Fetch Test Event" returns real current items and leaves the state untouched', async () => {
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const staticData: IDataObject = {};
			const items = await h.poll({ events: ['locationUpdated', 'deviceSilent'], silentAfterMinutes: 60 }, staticData, 'manual');
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) {
				expect(item).toMatchObject({ deviceId: expect.any(String), deviceName: expect.any(String), location: expect.any(Object) });
				expect(item.location).toEqual(h.sandbox.store.lastLocation(item.deviceId));
			}
			expect(items.map((item) => item.event)).toEqual(expect.arrayContaining(['locationUpdated']));
			expect(staticData).toEqual({});
			// The next real poll still starts with a baseline.
			expect(await h.poll({ events: ['locationUpdated'] }, staticData)).toEqual([]);
		});
	});

	it('"Fetch Test Event" with only Geofence Exited selected returns geofenceExited samples with every field of the event', async () => {
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const items = await h.poll({ events: ['geofenceExited'], geofences }, {}, 'manual');
			expect(items).toHaveLength(1);
			const [sample] = items;
			expect(sample).toEqual({
				event: 'geofenceExited',
				eventId: expect.stringMatching(/^sample-/),
				deviceId: expect.any(String),
				deviceName: h.sandbox.store.getDevice(sample.deviceId)?.name,
				location: h.sandbox.store.lastLocation(sample.deviceId),
				geofence: expect.stringMatching(/^(Depot|Yard)$/),
				sample: true,
			});
		});
	});

	it('emits the current state on the first poll when asked to', async () => {
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const events = await h.poll({ events: ['deviceSilent', 'deviceExpiring'], silentAfterMinutes: 60, expiringWithinDays: 10, options: { emitCurrentState: true } }, {});
			const { silentDeviceIds, expiringSoonDeviceIds } = h.sandbox.store.facts;
			expect(keys(events)).toEqual(
				[...silentDeviceIds.map((id) => `deviceSilent|${id}`), ...expiringSoonDeviceIds.map((id) => `deviceExpiring|${id}`)].sort(),
			);
			expect(events.find((e) => e.event === 'deviceExpiring')?.expires).toBe(h.sandbox.store.getDevice(expiringSoonDeviceIds[0])?.expires);
		});
	});

	describe('dailyLimitNear', () => {
		const ALERTS_ROUTE = 'POST /api/devices/{deviceId}/alerts';
		const scripted = { deviceSelection: 'tag', tagKey: 'scripted', tagValue: 'yes' };
		const limits = { dailyLimits: { emailLimit: 10, smsLimit: 5 } };
		const times = (n: number, channel: string) => Array<string>(n).fill(channel);
		const crossing = (event: TriggerEvent) => `${event.deviceId} ${event.channel}:${event.threshold} ${event.day}`;

		it('fires each threshold once per device and day over 18 polls: near, limit, both at once, the next day, across a restart', async () => {
			// 20:00 in Berlin (UTC+2 in May): its midnight falls on poll 12.
			const T0 = Date.parse('2026-05-04T18:00:00Z');
			const setNow = fakeDateFrom(T0);
			const at = (poll: number) => T0 + poll * 20 * MINUTE;
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				const { sandbox } = h;
				for (const id of ['calm-1', 'climb-1', 'jump-1']) addDevice(sandbox, id);
				addFix(sandbox, 'climb-1', T0 - MINUTE, { latitude: 5, longitude: 5 });
				const send = (id: string, time: number, notifications: string[]) =>
					sandbox.store.addAlert(id, { dateTime: new Date(time).toISOString(), notifications });
				// Sent before each poll; e-mail limit 10 (near at 8), SMS limit 5 (near at 4).
				const script: Record<number, Array<[string, number, string[]]>> = {
					0: [
						['climb-1', at(0) - MINUTE, times(2, 'Email')],
						['calm-1', at(0) - MINUTE, [...times(3, 'Email'), 'SMS', 'Push']],
					],
					1: [['climb-1', at(1) - MINUTE, times(5, 'Email')]],
					2: [['climb-1', at(2) - MINUTE, ['Email']]],
					4: [['jump-1', at(4) - MINUTE, times(5, 'SMS')]],
					6: [['climb-1', at(6) - MINUTE, times(2, 'Email')]],
					7: [
						['climb-1', at(7) - MINUTE, times(2, 'Email')],
						['calm-1', at(7) - MINUTE, [...times(4, 'Email'), 'SMS', 'SMS']],
					],
					// 23:55 in Berlin, after poll 11's count: reported at poll 12, for the day it was sent.
					12: [['calm-1', at(12) - 5 * MINUTE, ['Email']]],
					13: [['climb-1', at(13) - MINUTE, times(8, 'Email')]],
					15: [['jump-1', at(15) - MINUTE, times(3, 'SMS')]],
					16: [['climb-1', at(16) - MINUTE, [...times(2, 'Email'), ...times(4, 'SMS')]]],
				};
				const expected: Record<number, string[]> = {
					2: ['climb-1 email:near 2026-05-04'],
					4: ['jump-1 sms:near 2026-05-04', 'jump-1 sms:limit 2026-05-04'],
					6: ['climb-1 email:limit 2026-05-04'],
					12: ['calm-1 email:near 2026-05-04'],
					13: ['climb-1 email:near 2026-05-05'],
					16: ['climb-1 email:limit 2026-05-05', 'climb-1 sms:near 2026-05-05'],
				};
				const parameters = { events: ['dailyLimitNear'], ...scripted, ...limits, timeZone: 'Europe/Berlin' };
				let staticData: IDataObject = {};
				for (let poll = 0; poll < 18; poll++) {
					setNow(at(poll));
					for (const [id, time, notifications] of script[poll] ?? []) send(id, time, notifications);
					if (poll === 5) {
						staticData = restartedFrom(staticData);
						h.restart();
					}
					const events = await h.poll(parameters, staticData);
					expect({ poll, events: events.map(crossing) }).toEqual({ poll, events: expected[poll] ?? [] });
					if (poll === 2) {
						expect(events[0]).toEqual({
							event: 'dailyLimitNear',
							eventId: expect.any(String),
							deviceId: 'climb-1',
							deviceName: 'Scripted climb-1',
							location: sandbox.store.lastLocation('climb-1'),
							channel: 'email',
							threshold: 'near',
							count: 8,
							limit: 10,
							day: '2026-05-04',
						});
					}
					if (poll === 4) expect(events[0]).toMatchObject({ location: null, count: 5, limit: 5 });
				}
				// A restart right after events re-emits none of them.
				const restarted = restartedFrom(staticData);
				h.restart();
				expect(await h.poll(parameters, restarted)).toEqual([]);
			});
		});

		it('adds one alerts call per device only when selected, keeps to Max Requests per Poll, and loses no crossing to the round robin', async () => {
			const T0 = Date.parse('2026-05-04T08:00:00Z');
			const setNow = fakeDateFrom(T0);
			await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
				const ids = ['dev-a', 'dev-b', 'dev-c', 'dev-d', 'dev-e', 'dev-f'];
				for (const id of ids) addDevice(h.sandbox, id);
				await h.poll({ events: ['locationUpdated', 'deviceSilent'], ...scripted, ...limits }, {});
				expect(h.lastPollRequests()).toHaveLength(ids.length + 1);
				expect(h.lastPollRequests().filter((r) => r.route === ALERTS_ROUTE)).toEqual([]);

				await h.poll({ events: ['locationUpdated', 'dailyLimitNear'], ...scripted, ...limits }, {});
				const requests = h.lastPollRequests();
				expect(requests).toHaveLength(2 * ids.length + 1);
				const alertCalls = requests.filter((r) => r.route === ALERTS_ROUTE);
				expect(alertCalls.map((r) => r.deviceId).sort()).toEqual(ids);
				expect(alertCalls[0].body).toEqual({ from: '2026-05-04T00:00:00.000Z', to: '2026-05-04T23:59:59.999Z' });

				// The device list and two devices of two calls each.
				const budgeted = { events: ['dailyLimitNear'], ...scripted, ...limits, requestSettings: { maxRequestsPerPoll: 5 } };
				const staticData: IDataObject = {};
				const reported: string[] = [];
				for (let poll = 0; poll < 9; poll++) {
					setNow(T0 + poll * 5 * MINUTE);
					// Every device reaches its limit while the budget reads only two of them per poll.
					if (poll === 3) for (const id of ids) h.sandbox.store.addAlert(id, { dateTime: new Date(T0 + 14 * MINUTE).toISOString(), notifications: times(10, 'Email') });
					reported.push(...(await h.poll(budgeted, staticData)).map(crossing));
					expect(h.lastPollRequests()).toHaveLength(5);
					expect(h.lastPollRequests().filter((r) => r.route === ALERTS_ROUTE)).toHaveLength(2);
				}
				expect(reported.sort()).toEqual(ids.flatMap((id) => [`${id} email:limit 2026-05-04`, `${id} email:near 2026-05-04`]));
				await expect(h.poll({ ...budgeted, requestSettings: { maxRequestsPerPoll: 2 } }, {})).rejects.toThrow(
					/leave room for one device read \(2 call/,
				);

				// "Fetch Test Event": today's crossings of up to five devices, state untouched.
				const sampleData: IDataObject = {};
				const sample = await h.poll({ events: ['dailyLimitNear'], ...scripted, ...limits }, sampleData, 'manual');
				expect(sample.map(crossing)).toEqual(
					ids.slice(0, 5).flatMap((id) => [`${id} email:near 2026-05-04`, `${id} email:limit 2026-05-04`]),
				);
				expect(sampleData).toEqual({});
			});
		});

		it('refuses a limit of 0, no limit at all, a share out of range and an unknown time zone, naming the field', async () => {
			await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
				const poll = (extra: IDataObject) => h.poll({ events: ['dailyLimitNear'], ...extra }, {});
				await expect(poll({ dailyLimits: { emailLimit: 0 } })).rejects.toThrow('Daily Email Limit must be 1 or more');
				await expect(poll({ dailyLimits: { emailLimit: 10, smsLimit: -1 } })).rejects.toThrow('Daily SMS Limit must be 1 or more');
				await expect(poll({ dailyLimits: {} })).rejects.toThrow('Add a Daily Email Limit or a Daily SMS Limit');
				await expect(poll({ ...limits, nearShare: 0 })).rejects.toThrow('Near Limit Share must be above 0');
				await expect(poll({ ...limits, timeZone: 'Mars/Olympus' })).rejects.toThrow('Invalid "Time Zone"');
				// Not selected: its fields are not read at all.
				await expect(h.poll({ events: ['locationUpdated'], dailyLimits: { emailLimit: 0 } }, {})).resolves.toEqual([]);
			});
		});
	});
});

describe('telemetry, inputs, back online, dwell and new devices (issue 18)', () => {
	// The sandbox's seeded stories (sandbox/telemetry.ts): device001's battery drains, device002's
	// reefer fails, device003's door opens twice an hour apart, device008 is parked over the night
	// and loses fuel at once. device005 went silent before the start, reports at polls 15 and 16 only.
	const STORY = { battery: 'device001', reefer: 'device002', door: 'device003', silent: 'device005', parked: 'device008' };
	const T0 = Date.parse('2026-05-05T01:00:00Z');
	const at = (poll: number) => T0 + poll * 5 * MINUTE;
	const detail = (event: TriggerEvent) =>
		[event.event, event.deviceId, event.field ?? event.geofence ?? (event.input !== undefined ? `input${event.input}` : undefined), event.direction]
			.filter((part) => part !== undefined)
			.join('|');

	it.each(['latestFix', 'everyFix'])(
		'reports each in %s mode exactly once per real occurrence over 28 polls, across two restarts, without flapping',
		async (readMode) => {
			const setNow = fakeDateFrom(T0);
			await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
				const { sandbox } = h;
				const store = sandbox.store;
				expect(store.facts.telemetryDeviceIds).toMatchObject({
					batteryDrain: [STORY.battery],
					reefer: [STORY.reefer],
					doorSensor: [STORY.door],
					fuelTheft: [STORY.parked],
				});
				const parkedAt = store.lastLocation(STORY.parked)!;
				const moving = store.listDevices().map((d) => d.id).filter((id) => id !== STORY.silent);
				const expiring = new Date(T0 + 3 * 24 * 60 * MINUTE).toISOString();
				const parameters: INodeParameters = {
					events: ['valueCrossed', 'fuelDropped', 'inputChanged', 'deviceSilent', 'deviceBackOnline', 'geofenceDwell', 'deviceExpiring'],
					readMode,
					thresholdRules: {
						rule: [
							{ field: 'temperature', direction: 'above', value: 8, hysteresis: 1, tagKey: 'cargo', tagValue: 'chilled' },
							{ field: 'temperature', direction: 'below', value: 2, hysteresis: 1, tagKey: 'cargo', tagValue: 'chilled' },
							{ field: 'battery', direction: 'below', value: 20, hysteresis: 2 },
						],
					},
					fuelDropAmount: 20,
					fuelDropWithinMinutes: 15,
					fuelDropMaxSpeed: 5,
					inputIndexes: '1',
					inputDirection: 'on',
					silentAfterMinutes: 30,
					geofences: { circle: [{ name: 'Parking', latitude: parkedAt.latitude, longitude: parkedAt.longitude, radius: 200 }] },
					dwellMinutes: 30,
					expiringWithinDays: 7,
				};

				// Ground truth, from the store's fixes and the stories, not from the node.
				const expected = new Map<string, number[]>();
				const expect_ = (key: string, poll: number) => expected.set(key, [...(expected.get(key) ?? []), poll]);
				const history = new Map<string, Location[]>();
				const firstPoll = (key: string, poll: number) => !expected.has(key) && expect_(key, poll);
				let staticData: IDataObject = {};
				const reported = new Map<string, number[]>();
				for (let poll = 0; poll < 28; poll++) {
					setNow(at(poll));
					if (poll > 0) store.moveDevices({ minutes: 5, deviceIds: moving });
					if (poll === 15 || poll === 16) addFix(sandbox, STORY.silent, at(poll) - MINUTE, store.lastLocation(STORY.silent)!);
					if (poll >= 18) {
						if (poll === 18) addDevice(sandbox, 'late-1', { tags: { cargo: 'chilled' }, expires: expiring });
						addFix(sandbox, 'late-1', at(poll) - MINUTE, { latitude: 5, longitude: 5 }, { temperature: 9 });
					}
					for (const device of store.listDevices()) {
						const fix = store.lastLocation(device.id);
						if (fix) history.set(device.id, [...(history.get(device.id) ?? []), fix]);
					}
					if (poll > 0) {
						const last = (id: string, back = 0) => history.get(id)![history.get(id)!.length - 1 - back];
						if (last(STORY.reefer).temperature! > 8) firstPoll(`valueCrossed|${STORY.reefer}|temperature|above`, poll);
						if (last(STORY.battery).battery! < 20) firstPoll(`valueCrossed|${STORY.battery}|battery|below`, poll);
						if (last(STORY.parked, 1).fuel! - last(STORY.parked).fuel! > 20) expect_(`fuelDropped|${STORY.parked}`, poll);
						if (!last(STORY.door, 1).inputs![1] && last(STORY.door).inputs![1]) expect_(`inputChanged|${STORY.door}|input1`, poll);
						if (Date.parse(last(STORY.parked).dateTime) - Date.parse(history.get(STORY.parked)![0].dateTime) >= 30 * MINUTE) {
							firstPoll(`geofenceDwell|${STORY.parked}|Parking`, poll);
						}
						if (poll === 15) expect_(`deviceBackOnline|${STORY.silent}`, poll);
						if (at(poll) - Date.parse(last(STORY.silent).dateTime) >= 30 * MINUTE && poll > 16) firstPoll(`deviceSilent|${STORY.silent}`, poll);
						if (poll === 18) {
							expect_('deviceExpiring|late-1', poll);
							expect_('valueCrossed|late-1|temperature|above', poll);
						}
					}
					if (poll === 10 || poll === 20) {
						staticData = restartedFrom(staticData);
						h.restart();
					}
					for (const event of await h.poll(parameters, staticData)) reported.set(detail(event), [...(reported.get(detail(event)) ?? []), poll]);
				}
				expect(Object.fromEntries([...reported].sort())).toEqual(Object.fromEntries([...expected].sort()));
				// Each story happened, once (the door twice), and the battery wobbled back over 20 after
				// first dropping below it: the hysteresis is what kept that to one event.
				expect([...expected.keys()].sort()).toEqual(
					[
						`valueCrossed|${STORY.reefer}|temperature|above`,
						`valueCrossed|${STORY.battery}|battery|below`,
						`fuelDropped|${STORY.parked}`,
						`inputChanged|${STORY.door}|input1`,
						`geofenceDwell|${STORY.parked}|Parking`,
						`deviceBackOnline|${STORY.silent}`,
						`deviceSilent|${STORY.silent}`,
						'deviceExpiring|late-1',
						'valueCrossed|late-1|temperature|above',
					].sort(),
				);
				expect(expected.get(`inputChanged|${STORY.door}|input1`)).toHaveLength(2);
				const battery = history.get(STORY.battery)!.map((fix) => fix.battery!);
				expect(battery.slice(battery.findIndex((value) => value < 20)).some((value) => value >= 20)).toBe(true);
			});
		},
	);

	it('reports a device that joins after the first poll: its first fix (previousLocation null) and its expiry', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 3 }, async (h) => {
			const parameters = { events: ['locationUpdated', 'deviceExpiring'], expiringWithinDays: 7 };
			const staticData: IDataObject = {};
			addDevice(h.sandbox, 'old-expiring', { expires: new Date(T0 + 2 * 24 * 60 * MINUTE).toISOString() });
			expect(await h.poll(parameters, staticData)).toEqual([]);
			setNow(at(1));
			addDevice(h.sandbox, 'joined-1', { expires: new Date(T0 + 2 * 24 * 60 * MINUTE).toISOString() });
			addDevice(h.sandbox, 'joined-2');
			const fix = addFix(h.sandbox, 'joined-1', at(1) - MINUTE, { latitude: 1, longitude: 1 });
			const events = await h.poll(parameters, staticData);
			expect(keys(events)).toEqual(['deviceExpiring|joined-1', 'locationUpdated|joined-1']);
			expect(events.find((e) => e.event === 'locationUpdated')).toMatchObject({ location: fix, previousLocation: null });
			// joined-2 never reported: its first fix is news when it comes, and only then.
			setNow(at(2));
			expect(await h.poll(parameters, restartedFrom(staticData))).toEqual([]);
			addFix(h.sandbox, 'joined-2', at(2), { latitude: 2, longitude: 2 });
			const first = await h.poll(parameters, staticData);
			expect(first.map((e) => [e.event, e.deviceId, e.previousLocation])).toEqual([['locationUpdated', 'joined-2', null]]);
			expect(await h.poll(parameters, staticData)).toEqual([]);
		});
	});

	it('"Fetch Test Event" shows a value already past a threshold as a real event, and leaves the state untouched', async () => {
		await withTriggerSandbox({ deviceCount: 8 }, async (h) => {
			const staticData: IDataObject = {};
			const parameters = {
				events: ['valueCrossed'],
				deviceSelection: 'tag',
				tagKey: 'cargo',
				tagValue: 'chilled',
				thresholdRules: { rule: [{ field: 'temperature', direction: 'above', value: 8 }] },
			};
			const items = await h.poll(parameters, staticData, 'manual');
			const [failed] = h.sandbox.store.facts.telemetryDeviceIds.reeferFailed;
			const temperature = h.sandbox.store.lastLocation(failed)!.temperature!;
			expect(temperature).toBeGreaterThan(8);
			expect(items.filter((item) => item.event === 'valueCrossed')).toEqual([
				expect.objectContaining({ deviceId: failed, field: 'temperature', value: temperature, threshold: 8, direction: 'above' }),
			]);
			expect(staticData).toEqual({});
		});
	});

	it('refuses bad rule values from expressions, naming the rule and field', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const poll = (parameters: INodeParameters) => h.poll(parameters, {});
			const rule = { field: 'temperature', direction: 'above', value: 8 };
			await expect(poll({ events: ['valueCrossed'], thresholdRules: { rule: [rule, { ...rule, value: 'warm' }] } })).rejects.toThrow(
				'Invalid "Rule 2 Threshold": Rule 2 Threshold must be a number (got "warm")',
			);
			await expect(poll({ events: ['valueCrossed'], thresholdRules: { rule: [{ ...rule, field: 'colour' }] } })).rejects.toThrow('Invalid "Rule 1 Field"');
			await expect(poll({ events: ['valueCrossed'], thresholdRules: { rule: [{ ...rule, hysteresis: -1 }] } })).rejects.toThrow('Invalid "Rule 1 Threshold Hysteresis"');
			await expect(poll({ events: ['valueCrossed'] })).rejects.toThrow('Add at least one threshold rule');
			await expect(poll({ events: ['inputChanged'], inputIndexes: '1, two' })).rejects.toThrow('Invalid "Inputs"');
			await expect(poll({ events: ['fuelDropped'], fuelDropWithinMinutes: 0 })).rejects.toThrow('Invalid "Fuel Drop Within (Minutes)"');
			await expect(poll({ events: ['geofenceDwell'], dwellMinutes: 30 })).rejects.toThrow('Add at least one geofence');
			await expect(poll({ events: ['geofenceDwell'], geofences, dwellMinutes: 'long' })).rejects.toThrow('Invalid "Dwell (Minutes)"');
		});
	});

	// Issue 47: Geofence Entered's sample "moved" the newest truck into the depot while Van 15, past the
	// few devices read, really was parked there.
	it('Fetch Test Event reads on to a device parked in the geofence for Geofence Entered and Dwell (version 2); version 1 as before', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const ids = Array.from({ length: 8 }, (_, index) => `d-${index + 1}`);
			for (const [index, id] of ids.entries()) {
				addScriptedDevice(h.sandbox, id);
				// Only the last device lies inside the depot (10, 1); the others are 5 km and more away.
				const inside = id === 'd-8';
				h.sandbox.store.addFix(id, { latitude: inside ? 10 : 10.05 + index / 100, longitude: 1, speed: 0, dateTime: new Date(Date.now() - (inside ? 30 : 1) * 60_000).toISOString() });
			}
			const parameters = { events: ['geofenceEntered', 'geofenceDwell'], ...SCRIPTED_DEVICES, geofences: { circle: [{ name: 'Depot', latitude: 10, longitude: 1, radius: 300 }] } };
			const current = await h.poll(parameters, {}, 'manual', 2);
			// Entered is what d-8 shows now; Dwell has no stay on record yet, so it is a sample, of d-8 as it is.
			expect(current.map((event) => [event.event, event.deviceId, event.sample === true, event.location?.dateTime]).sort()).toEqual([
				['geofenceDwell', 'd-8', true, h.sandbox.store.lastLocation('d-8')?.dateTime],
				['geofenceEntered', 'd-8', false, h.sandbox.store.lastLocation('d-8')?.dateTime],
			]);
			const version1 = await h.poll(parameters, {}, 'manual', 1);
			expect(version1.filter((event) => event.event === 'geofenceEntered').map((event) => [event.deviceId === 'd-8', event.sample])).toEqual([[false, true]]);
		});
	});

	it('takes Events from an expression that gives one name or a comma-separated text, and names what it cannot read', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const poll = (parameters: INodeParameters) => h.poll(parameters, {}, 'manual', 2);
			// It failed with "parameter(...).filter is not a function".
			expect((await poll({ events: '={{ "locationUpdated" }}' })).map((event) => event.event)).toEqual(['locationUpdated']);
			expect((await poll({ events: '={{ "locationUpdated, deviceSilent" }}' })).map((event) => event.event).sort()).toEqual(['deviceSilent', 'locationUpdated']);
			await expect(poll({ events: '={{ 42 }}' })).rejects.toThrow('Invalid "Events"');
			await expect(poll({ events: ['geofenceEnterd'] })).rejects.toThrow('Choose at least one event to watch for (not an event: "geofenceEnterd")');
		});
	});

	it('refuses the older events\' bad numbers from expressions instead of reading them as 0 or NaN, and takes an alert filter given as a list', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const poll = (parameters: INodeParameters) => h.poll(parameters, {});
			// NaN made every device silent at once; a negative number was read as 0, which did the same.
			await expect(poll({ events: ['deviceSilent'], silentAfterMinutes: 'abc' })).rejects.toThrow('Invalid "Silent After (Minutes)"');
			await expect(poll({ events: ['deviceBackOnline'], silentAfterMinutes: -5 })).rejects.toThrow('Invalid "Silent After (Minutes)"');
			await expect(poll({ events: ['locationUpdated'], minDistanceMeters: 'far' })).rejects.toThrow('Invalid "Minimum Distance (Meters)"');
			await expect(poll({ events: ['deviceExpiring'], expiringWithinDays: 'soon' })).rejects.toThrow('Invalid "Expiring Within (Days)"');
			await expect(poll({ events: ['deviceExpiring'], expiringWithinDays: -1 })).rejects.toThrow('Invalid "Expiring Within (Days)"');
			await expect(poll({ events: ['criticalAlert'], alertFilter: { sos: true } })).rejects.toThrow('Invalid "Alert Text Filter"');
			// An expression may hand over a list: each entry is one text, as the comma-separated form.
			await expect(poll({ events: ['criticalAlert'], alertFilter: ['SOS', 'Power cut'] })).resolves.toEqual(expect.any(Array));
		});
	});

	// Issue 47 (red team): the editor keeps an event's settings, shown "(Only for …)", after the event is
	// removed from Events. Such a kept value (a cleared number, an expression that no longer fits, a
	// half-drawn geofence) is no setting of the events selected: it failed their every poll.
	it('never reads the kept settings of events not selected: they neither fail the poll nor change its output', async () => {
		await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
			const selected = { events: ['locationUpdated'] };
			const kept = {
				alertFilter: { sos: true },
				alertNames: '={{ 42 }}',
				silentAfterMinutes: null,
				expiringWithinDays: -1,
				geofenceMinMinutes: 'long',
				geofences: { polygon: [{ name: 'Half drawn', format: 'points', points: '1, 1\n1, 2' }] },
			};
			for (const typeVersion of [1, 2, 3]) {
				const plain = await h.poll(selected, {}, 'manual', typeVersion);
				const withKept = await h.poll({ ...selected, ...kept }, {}, 'manual', typeVersion);
				expect(withKept.map((event) => [event.event, event.deviceId, event.location])).toEqual(plain.map((event) => [event.event, event.deviceId, event.location]));
				expect(withKept.length).toBeGreaterThan(0);
			}
		});
	});
});
