/**
 * Read Priority (issue 50) through n8n's PollContext against the sandbox: the same fleet watched by
 * two triggers, one of each order, polled at the same minutes. With a budget that covers the fleet
 * they report the same events poll by poll; with one that does not, the same events in all (same
 * eventIds, none twice), activeFirst sooner for the moving devices, across a restart in the middle.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { fakeDateFrom } from '../support/clock';
import { addFix, addScriptedDevice, restartedFrom, SCRIPTED_DEVICES, triggerState, withTriggerSandbox, type TriggerHarness } from '../support/trigger';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-05T08:00:00Z');
const DEVICES = Array.from({ length: 12 }, (_, i) => `v${String(i).padStart(2, '0')}`);
/** The last drive ends at minute 65; fixes until minute 75, then more than Max Stale Minutes (10) of polls to read them all in either order. */
const UPLOADS = 76;
const MINUTES = 88;
/** Two triggers polled every minute: 172 polls, some 16 s alone, several times that beside the other suites. */
const PLAYED_DAY_TIMEOUT_MS = 300_000;

afterEach(() => jest.useRealTimers());

/**
 * Devices 0–5 each drive 20 minutes, a fix a minute (steps of 1.1 km), starting 7 minutes apart;
 * the rest, and the drivers outside their drive, stand where they are with a fix every 5 minutes.
 */
function drivesAt(index: number, minute: number): boolean {
	const start = 10 + 7 * index;
	return index < 6 && minute >= start && minute < start + 20;
}

function uploadMinute(h: TriggerHarness, minute: number, position: Map<string, number>) {
	if (minute >= UPLOADS) return;
	DEVICES.forEach((id, index) => {
		const driving = drivesAt(index, minute);
		if (driving) position.set(id, (position.get(id) ?? 0) + 1);
		if (driving || minute % 5 === 0) addFix(h.sandbox, id, T0 + minute * MINUTE, position.get(id) ?? 0, { speed: driving ? 66 : 0 });
	});
}

type Reported = { eventId: string; event: string; deviceId: string; fixAt: number; polledAt: number };

const reported = (events: TriggerEvent[], polledAt: number): Reported[] =>
	events.map((event) => ({ eventId: event.eventId, event: event.event, deviceId: event.deviceId, fixAt: Date.parse((event.location as Location).dateTime), polledAt }));

/** Both orders polled every minute over the same uploads; `restartAt`: a minute after which n8n restarts from the saved static data. */
async function playBoth(h: TriggerHarness, requestSettings: IDataObject, restartAt?: number) {
	const setNow = fakeDateFrom(T0);
	for (const id of DEVICES) addScriptedDevice(h.sandbox, id);
	const parameters = (readPriority: string) => ({
		events: ['locationUpdated', 'geofenceEntered', 'geofenceExited', 'tripStarted', 'tripEnded'],
		readMode: 'everyFix',
		...SCRIPTED_DEVICES,
		geofences: { circle: [{ name: 'Crossing', latitude: 10.05, longitude: 1, radius: 600 }] },
		requestSettings: { ...requestSettings, readPriority, maxStaleMinutes: 10 },
	});
	const orders = ['rotate', 'activeFirst'] as const;
	const staticData: Record<string, IDataObject> = { rotate: {}, activeFirst: {} };
	const events: Record<string, Reported[][]> = { rotate: [], activeFirst: [] };
	const position = new Map<string, number>();
	for (let minute = 0; minute < MINUTES; minute++) {
		uploadMinute(h, minute, position);
		setNow(T0 + minute * MINUTE + 30_000);
		if (minute === restartAt) {
			h.restart();
			for (const order of orders) staticData[order] = restartedFrom(staticData[order]);
		}
		for (const order of orders) events[order].push(reported(await h.poll(parameters(order), staticData[order]), minute));
	}
	return { events, staticData };
}

const ids = (events: Reported[][]) => events.flat().map((event) => event.eventId);
/** Location Updated for the fixes of a drive (the standing ones come on the 5-minute marks). */
const moving = (events: Reported[][]) => events.flat().filter((event) => event.event === 'locationUpdated' && event.fixAt % (5 * MINUTE) !== 0);
/** Minutes from a fix to the poll that reported it, the median. */
function medianDelay(events: Reported[]): number {
	const delays = events.map((event) => (T0 + event.polledAt * MINUTE + 30_000 - event.fixAt) / MINUTE).sort((a, b) => a - b);
	return delays[Math.floor(delays.length / 2)];
}

describe('Read Priority against the sandbox', () => {
	it('not set: version 3 reads active first, saved version 1 and 2 triggers keep the round robin', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			fakeDateFrom(T0);
			for (const id of DEVICES) {
				addScriptedDevice(h.sandbox, id);
				addFix(h.sandbox, id, T0 - MINUTE, 0);
			}
			const parameters = { events: ['locationUpdated'], ...SCRIPTED_DEVICES, requestSettings: { maxRequestsPerPoll: 4 } };
			const orderOf = async (typeVersion: number) => {
				const staticData: IDataObject = {};
				await h.poll(parameters, staticData, 'trigger', typeVersion);
				const state = triggerState(staticData) as IDataObject;
				return { cursor: state.cursor, stamped: state.polledAt !== undefined };
			};
			expect(await orderOf(1)).toEqual({ cursor: 'v02', stamped: false });
			expect(await orderOf(2)).toEqual({ cursor: 'v02', stamped: false });
			expect(await orderOf(3)).toEqual({ cursor: undefined, stamped: true });
		});
	});

	it('a budget that covers the fleet: both orders report the same events at the same polls', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { events } = await playBoth(h, { maxRequestsPerPoll: 0 });
			expect(events.activeFirst).toEqual(events.rotate);
			expect(events.rotate.flat().filter((event) => event.event === 'tripEnded')).toHaveLength(6);
		});
	}, PLAYED_DAY_TIMEOUT_MS);

	it('a budget of 3 devices a poll for 12, restarted in the middle: the same eventIds, none twice, moving devices reported sooner, none unread past the bound', async () => {
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { events, staticData } = await playBoth(h, { maxRequestsPerPoll: 4 }, 40);
			const rotate = ids(events.rotate);
			const activeFirst = ids(events.activeFirst);
			expect(new Set(rotate).size).toBe(rotate.length);
			expect(new Set(activeFirst).size).toBe(activeFirst.length);
			expect([...activeFirst].sort()).toEqual([...rotate].sort());
			for (const kind of ['geofenceEntered', 'geofenceExited', 'tripStarted', 'tripEnded']) {
				expect({ kind, count: events.rotate.flat().filter((event) => event.event === kind).length }).toEqual({ kind, count: 6 });
			}
			// Rotate reads each device every 4th poll; activeFirst spends what the bound leaves on the moving ones.
			// Measured: a median of 0.5 minutes against 2.5.
			expect(medianDelay(moving(events.activeFirst))).toBeLessThanOrEqual(medianDelay(moving(events.rotate)) / 3);
			// Every device read within the last 10 minutes, as Max Stale Minutes asks.
			const state = triggerState(staticData.activeFirst) as IDataObject & { devices: Record<string, { readAt?: number }> };
			const lastPoll = Math.floor((T0 + (MINUTES - 1) * MINUTE + 30_000) / 1000);
			for (const id of DEVICES) expect({ id, unread: lastPoll - (state.devices[id].readAt ?? 0) <= 10 * 60 }).toEqual({ id, unread: true });
		});
	}, PLAYED_DAY_TIMEOUT_MS);
});
