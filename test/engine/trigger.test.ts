/**
 * The polling trigger driven the way n8n's poller drives it: poll() again and again in n8n-core's
 * PollContext with persistent static data, against the sandbox while devices move. The clock is
 * jest's fake Date (timers stay real), shared by the node and the sandbox, so minutes pass per poll.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';
import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Device, Location } from '../../nodes/shared/wire';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type FixInput, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { Engine, TRIGGER_NODE_TYPE, registerNodeType } from '../support/engine';
import { byId } from '../support/sandboxed';
import { fakeDateFrom } from '../support/clock';

const MINUTE = 60_000;
const TOKEN_ROUTE = 'POST /api/Auth/Token';

afterEach(() => jest.useRealTimers());

interface Harness {
	sandbox: Sandbox;
	engine: Engine;
	/** Events of one poll, as the workflow would receive them. */
	poll(parameters: INodeParameters, staticData: IDataObject, mode?: 'trigger' | 'manual'): Promise<TriggerEvent[]>;
	/** The API requests (token calls aside) the last poll made. */
	lastPollRequests(): Array<{ route: string | null; deviceId?: string; body: unknown }>;
	/** A new node instance and engine, as after an n8n restart. */
	restart(): void;
}

async function withSandbox(options: SandboxOptions, test: (harness: Harness) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox({ port: 0, ...options });
	let engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	let logStart = 0;
	let logEnd = 0;
	const harness: Harness = {
		sandbox,
		get engine() {
			return engine;
		},
		async poll(parameters, staticData, mode = 'trigger') {
			logStart = sandbox.requestLog.length;
			try {
				const output = await engine.poll(parameters, staticData, mode);
				return (output?.[0] ?? []).map((item) => item.json as unknown as TriggerEvent);
			} finally {
				logEnd = sandbox.requestLog.length;
			}
		},
		lastPollRequests: () =>
			sandbox.requestLog
				.slice(logStart, logEnd)
				.filter((entry) => entry.route !== TOKEN_ROUTE)
				.map((entry) => ({ route: entry.route, deviceId: entry.deviceId, body: entry.body })),
		restart() {
			registerNodeType(TRIGGER_NODE_TYPE, new SatelliteTrackingTrigger());
			engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		},
	};
	try {
		await test(harness);
	} finally {
		await sandbox.close();
	}
}

const key = (event: TriggerEvent) => [event.event, event.deviceId, event.geofence].filter(Boolean).join('|');
const keys = (events: TriggerEvent[]) => events.map(key).sort();
const restartedFrom = (staticData: IDataObject): IDataObject => JSON.parse(JSON.stringify(staticData));

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
		await withSandbox({ deviceCount: 8 }, async (h) => {
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
						if (texts.some((text) => text.toLowerCase().includes('sos'))) expected.push(`criticalAlert|${id}`);
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
		await withSandbox({ deviceCount: 6 }, async (h) => {
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

	it('Every-fix mode reports a geofence entry and exit that happened entirely between two polls', async () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const setNow = fakeDateFrom(T0);
		await withSandbox({ deviceCount: 2 }, async (h) => {
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
					body: { from: new Date(T0 - 10 * MINUTE).toISOString(), to: expect.stringMatching(/^2026-05-04T08:05:00\.\d{3}Z$/) },
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
		await withSandbox({ deviceCount: 1 }, async (h) => {
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
			expect((staticData['node:Trigger'] as IDataObject).state).toMatchObject({ retry: ['dev-b'] });

			h.sandbox.faults.remove(fault.id);
			for (const id of ids) addFix(h.sandbox, id, T0 + 6 * MINUTE, { latitude: 1.1, longitude: 1 });
			setNow(T0 + 10 * MINUTE);
			const recovered = await h.poll(parameters, staticData);
			expect(fixTimes(recovered, 'dev-a')).toEqual([iso(6)]);
			expect(fixTimes(recovered, 'dev-b')).toEqual([iso(1), iso(2), iso(6)]);
			expect(fixTimes(recovered, 'dev-c')).toEqual([iso(6)]);
			expect((staticData['node:Trigger'] as IDataObject).state).not.toHaveProperty('retry');

			h.sandbox.faults.inject({ match: { path: /\/locations$/ }, kind: 'status', status: 403, message: 'Simulated: no access' });
			for (const id of ids) addFix(h.sandbox, id, T0 + 11 * MINUTE, { latitude: 1.2, longitude: 1 });
			setNow(T0 + 15 * MINUTE);
			const before = restartedFrom(staticData);
			await expect(h.poll(parameters, staticData)).rejects.toThrow(/no access/i);
			expect(restartedFrom(staticData)).toEqual(before);
			h.sandbox.faults.clear();
			const after = await h.poll(parameters, staticData);
			expect(keys(after)).toEqual(['locationUpdated|dev-a', 'locationUpdated|dev-b', 'locationUpdated|dev-c']);
		});
	});

	it('makes N+1 requests per poll in Latest-fix mode, and keeps to Max Requests per Poll by round robin', async () => {
		await withSandbox({ deviceCount: 12 }, async (h) => {
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
		await withSandbox({ deviceCount: 9 }, async (h) => {
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
		await withSandbox({ deviceCount: 4 }, async (h) => {
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
		await withSandbox({ deviceCount: 8 }, async (h) => {
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

	it('prunes devices that left the account from its state', async () => {
		await withSandbox({ deviceCount: 3 }, async (h) => {
			const staticData: IDataObject = {};
			await h.poll({ events: ['locationUpdated'] }, staticData);
			const state = () => (staticData['node:Trigger'] as { state: { devices: IDataObject } }).state;
			expect(Object.keys(state().devices).sort()).toEqual(['device001', 'device002', 'device003']);
			h.sandbox.store.removeDevice('device002');
			await h.poll({ events: ['locationUpdated'] }, staticData);
			expect(Object.keys(state().devices).sort()).toEqual(['device001', 'device003']);
		});
	});

	it('"Fetch Test Event" returns real current items and leaves the state untouched', async () => {
		await withSandbox({ deviceCount: 8 }, async (h) => {
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

	it('emits the current state on the first poll when asked to', async () => {
		await withSandbox({ deviceCount: 8 }, async (h) => {
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
			await withSandbox({ deviceCount: 2 }, async (h) => {
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
			await withSandbox({ deviceCount: 1 }, async (h) => {
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
			await withSandbox({ deviceCount: 1 }, async (h) => {
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
