/**
 * Issue 46.6 through n8n's PollContext against the sandbox: a tracker that sleeps at ignition off has
 * its trip ended at the first poll Min Stop Minutes after its last fix, not at the next morning's fix;
 * one that loses coverage while driving, after Silence Ends Trip. The state goes through JSON each
 * poll and the node is restarted on the way; fixes buffered inside a silence arrive late. Trip Ended's
 * trips are Get Trips and Stops' trips through n8n for the same fixes, each reported once.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { fakeDateFrom } from '../support/clock';
import { jsonOf } from '../support/sandboxed';
import { addScriptedDevice, eventsOfKind, restartedFrom, SCRIPTED_DEVICES, withTriggerSandbox, type TriggerHarness } from '../support/trigger';

const MINUTE = 60_000;
/** Two days ago at 16:00 UTC: Get Trips reads it as the past. */
const T0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000 + 16 * 60 * MINUTE;
const PARAMETERS = { ...SCRIPTED_DEVICES, events: ['tripStarted', 'tripEnded'], readMode: 'everyFix', simplify: false };

afterEach(() => jest.useRealTimers());

interface Planned {
	/** When the fix is uploaded (a buffer: later than its time). */
	arrives: number;
	fix: Location;
}

/** A fix `minute` minutes after T0, `km` north of the depot, at `speed` km/h. */
const at = (minute: number, km: number, speed: number, arrivesMinute = minute): Planned => ({
	arrives: T0 + arrivesMinute * MINUTE,
	fix: { dateTime: new Date(T0 + minute * MINUTE).toISOString(), latitude: 52.5 + km / 111.195, longitude: 13.4, speed } as Location,
});

/** Parked `minutes` at `km`, a fix a minute, from `from`. */
const parked = (from: number, minutes: number, km: number) => Array.from({ length: minutes }, (_, i) => at(from + i, km, 0));
/** Driving at 40 km/h for `minutes`, from `from` and `km`. */
const drive = (from: number, minutes: number, km: number) => Array.from({ length: minutes }, (_, i) => at(from + i + 1, km + ((i + 1) * 40) / 60, 40));

/** Uploads each fix when it arrives, polls every `everyMinutes` up to `until`, restarting n8n at poll 10. */
async function play(h: TriggerHarness, plan: Planned[], everyMinutes: number, until: number) {
	addScriptedDevice(h.sandbox, 'van');
	const pending = [...plan].sort((a, b) => a.arrives - b.arrives);
	const setNow = fakeDateFrom(T0);
	let staticData: IDataObject = {};
	const polls: Array<{ now: number; events: TriggerEvent[] }> = [];
	for (let now = Math.min(T0, pending[0].arrives), poll = 0; now <= T0 + until * MINUTE; now += everyMinutes * MINUTE, poll++) {
		while (pending.length > 0 && pending[0].arrives <= now) h.sandbox.store.addFix('van', pending.shift()!.fix);
		setNow(now);
		staticData = restartedFrom(staticData);
		if (poll === 10) h.restart();
		polls.push({ now, events: await h.poll({ ...PARAMETERS }, staticData, 'trigger', 2) });
	}
	jest.useRealTimers();
	return polls;
}

async function getTrips(h: TriggerHarness, until: number) {
	const { items, error } = await h.engine.runNode({
		resource: 'location',
		operation: 'getTrips',
		deviceId: { __rl: true, mode: 'id', value: 'van' },
		from: new Date(T0).toISOString(),
		to: new Date(T0 + until * MINUTE).toISOString(),
	});
	expect(error).toBeUndefined();
	return jsonOf(items).filter((segment) => segment.type === 'trip');
}

const endedIn = (polls: Array<{ now: number; events: TriggerEvent[] }>) =>
	polls.flatMap(({ now, events }) => eventsOfKind(events, 'tripEnded').map((event) => ({ now, trip: event.trip! })));

describe('a silence ends a trip through n8n (issue 46.6)', () => {
	it('ends the trip of a tracker asleep at ignition off at the first poll after Min Stop Minutes, and the morning trip after it', async () => {
		// Evening: parked, 20 minutes' drive home, parked two minutes, switched off (the tracker sleeps).
		// Morning, 10 hours later: on again 5 km further north (moved while asleep), drives 15 minutes, parks.
		const evening = [...parked(0, 10, 0), ...drive(9, 20, 0), ...parked(30, 2, 20 * (40 / 60))];
		const morning = [...parked(630, 3, 18.3), ...drive(632, 15, 18.3), ...parked(648, 10, 18.3 + 10)];
		await withTriggerSandbox({}, async (h) => {
			const polls = await play(h, [...evening, ...morning], 3, 680);
			const ended = endedIn(polls);
			expect(ended).toHaveLength(2);
			// The last evening fix is at minute 31; Min Stop Minutes (5) later is 36: the poll at 36 reports it.
			expect(ended[0].now).toBe(T0 + 36 * MINUTE);
			expect(ended[0].trip.end.dateTime).toBe(evening[evening.length - 2].fix.dateTime);
			const trips = await getTrips(h, 680);
			expect(ended.map((event) => event.trip)).toEqual(trips);
			// No trip across the night.
			expect(trips.map((trip) => trip.durationMinutes)).toEqual([21, 16]);
		});
	});

	it('a tracker whose clock runs behind (or whose fixes reach the service late) gets one Trip Ended, for the trip Get Trips gives, not one per poll behind', async () => {
		// Every fix reaches the service 2 hours after its time (the device's zone taken for UTC, or a
		// queue): by the poll's clock alone the device looks silent for 2 hours at every poll.
		const day = [...parked(0, 10, 0), ...drive(9, 30, 0), ...parked(40, 20, 20)];
		const behind = day.map((planned) => ({ ...planned, arrives: planned.arrives + 120 * MINUTE }));
		await withTriggerSandbox({}, async (h) => {
			const polls = await play(h, behind, 3, 200);
			const ended = endedIn(polls);
			const trips = await getTrips(h, 200);
			expect(trips).toHaveLength(1);
			expect(ended.map((event) => event.trip)).toEqual(trips);
		});
	});

	it('a tracker whose clock runs 2 hours ahead has its trip ended Min Stop Minutes after its last fix reached the service, not 2 hours later', async () => {
		// Drives home and is switched off; every fix is dated 2 hours after the moment it is sent.
		const day = [...parked(0, 10, 0), ...drive(9, 30, 0), ...parked(40, 2, 20)];
		const ahead = day.map((planned) => ({ ...planned, arrives: planned.arrives - 120 * MINUTE }));
		await withTriggerSandbox({}, async (h) => {
			const polls = await play(h, ahead, 3, 200);
			const ended = endedIn(polls);
			const trips = await getTrips(h, 200);
			expect(ended.map((event) => event.trip)).toEqual(trips);
			// The last fix (dated 41) arrived at -79; Min Stop Minutes (5) later is -74: the poll at -72 reports it.
			expect(ended[0].now).toBe(T0 - 72 * MINUTE);
		});
	});

	it('ends a trip out of coverage after Silence Ends Trip; fixes buffered inside the silence arriving later report no second or phantom Trip Ended', async () => {
		// Drives 30 minutes and loses coverage; the tracker buffers 80 minutes of driving and parking and
		// uploads them when coverage returns at minute 150. A second trip follows, uploaded as it goes.
		const before = [...parked(0, 10, 0), ...drive(9, 30, 0)];
		const buffered = [...drive(39, 40, 20), ...parked(80, 40, 20 + 40 * (40 / 60))].map((planned) => ({ ...planned, arrives: T0 + 150 * MINUTE }));
		const after = [...drive(150, 15, 20 + 40 * (40 / 60)), ...parked(166, 10, 20 + 55 * (40 / 60))];
		await withTriggerSandbox({}, async (h) => {
			const polls = await play(h, [...before, ...buffered, ...after], 5, 200);
			const ended = endedIn(polls);
			// Silence Ends Trip (60) after the last fix it had (minute 39): the poll at 100 ends the trip there.
			expect(ended[0]).toMatchObject({ now: T0 + 100 * MINUTE, trip: { end: { dateTime: before[before.length - 1].fix.dateTime } } });
			const trips = await getTrips(h, 200);
			// Get Trips, reading the buffer too, has the first trip go on: the trigger reported it once, as it
			// knew it; the trip after the buffer is the same for both.
			expect(trips).toHaveLength(2);
			expect(ended).toHaveLength(2);
			expect(ended.map((event) => event.trip.start)).toEqual(trips.map((trip) => trip.start));
			expect(ended[1].trip).toEqual(trips[1]);
		});
	});
});
