/**
 * Issue 25 through n8n's PollContext against the sandbox: the story devices' days (sandbox/stories.ts)
 * uploaded as the day goes on, the trigger polled every few minutes with its state kept as n8n keeps
 * it (a restart on the way). Trips come out as Get Trips and Stops gives them through n8n for the same
 * day; idling and the service mark once each.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { STORY_FACTS } from '../../sandbox/stories';
import { fakeDateFrom } from '../support/clock';
import { jsonOf } from '../support/sandboxed';
import { addScriptedDevice, eventsOfKind, restartedFrom, SCRIPTED_DEVICES, withTriggerSandbox, type TriggerHarness } from '../support/trigger';

const MINUTE = 60_000;

afterEach(() => jest.useRealTimers());

/**
 * Plays the story device's day on a scripted device of its own: fixes are uploaded as their time
 * comes, the trigger polled every `everyMinutes` (the first poll a baseline), restarted from a JSON
 * copy of its static data on the way. Returns every event reported.
 */
async function playDay(h: TriggerHarness, role: 'deliveryRound' | 'depotIdling' | 'serviceDue', parameters: IDataObject, everyMinutes: number) {
	const storyId = h.sandbox.store.facts.storyDeviceIds[role][0];
	const history = h.sandbox.store.locations(storyId)!;
	// The story's day, without the depot truck's idling "now" (the quarter hour before the sandbox's start),
	// which falls on that day when the suite runs just after UTC midnight.
	const idlingNow = Math.max(...history.map((fix) => Date.parse(fix.dateTime))) - (STORY_FACTS.idlingNowMinutes + 1) * MINUTE;
	const dayEnd = Math.min(Date.parse(`${h.sandbox.store.facts.storyDay}T00:00:00Z`) + 24 * 60 * MINUTE, idlingNow);
	const story = [...history]
		.filter((fix) => Date.parse(fix.dateTime) < dayEnd)
		.sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime));
	// From half an hour before the engine first runs to an hour after it last does: the hours parked
	// around the script (up to the sandbox's start) tell nothing more, and each poll costs time.
	const running = story.filter((fix) => (fix.rpm ?? 0) > 0).map((fix) => Date.parse(fix.dateTime));
	const fixes = story.filter((fix) => Date.parse(fix.dateTime) >= running[0] - 30 * MINUTE && Date.parse(fix.dateTime) <= running[running.length - 1] + 60 * MINUTE);
	addScriptedDevice(h.sandbox, role);
	const first = Date.parse(fixes[0].dateTime);
	const last = Date.parse(fixes[fixes.length - 1].dateTime);
	const setNow = fakeDateFrom(first);
	let staticData: IDataObject = {};
	let uploaded = 0;
	const events: TriggerEvent[] = [];
	for (let now = first, poll = 0; now <= last + everyMinutes * MINUTE; now += everyMinutes * MINUTE, poll++) {
		while (uploaded < fixes.length && Date.parse(fixes[uploaded].dateTime) <= now) h.sandbox.store.addFix(role, fixes[uploaded++] as Location);
		setNow(now);
		// As n8n 2.41's durable scheduler gives it: a copy of the saved state each poll (a new Workflow per
		// poll over one object would wrap it in proxies once more each run, which over hundreds of polls
		// overflowed the stack).
		staticData = restartedFrom(staticData);
		if (poll === 12) h.restart();
		events.push(...(await h.poll({ ...SCRIPTED_DEVICES, ...parameters }, staticData, 'trigger', 2)));
	}
	jest.useRealTimers();
	return { events, day: { from: new Date(first).toISOString(), to: new Date(last).toISOString() } };
}

describe('trip, idling and service events through n8n (issue 25)', () => {
	it("report the van's trips as Get Trips and Stops gives them (Every Fix)", async () => {
		await withTriggerSandbox({}, async (h) => {
			const { events, day } = await playDay(h, 'deliveryRound', { events: ['tripStarted', 'tripEnded'], readMode: 'everyFix', simplify: false }, 10);
			const { items, error } = await h.engine.runNode({ resource: 'location', operation: 'getTrips', deviceId: { __rl: true, mode: 'id', value: 'deliveryRound' }, ...day });
			expect(error).toBeUndefined();
			const trips = jsonOf(items).filter((segment) => segment.type === 'trip');
			expect(trips).toHaveLength(3);
			const ended = eventsOfKind(events, 'tripEnded');
			expect(ended.map((event) => event.trip)).toEqual(trips);
			expect(eventsOfKind(events, 'tripStarted').map((event) => event.trip!.start)).toEqual(trips.map((trip) => trip.start));
			expect(ended[0]).toMatchObject({ eventLabel: 'Trip Ended', deviceId: 'deliveryRound' });
		});
	});

	it("report the van's three trips from one fix a poll (Latest Fix, polls every 2 minutes)", async () => {
		await withTriggerSandbox({}, async (h) => {
			const { events } = await playDay(h, 'deliveryRound', { events: ['tripStarted', 'tripEnded'], readMode: 'latestFix' }, 2);
			// Every other fix while driving: the distances from fewer positions, the same trips.
			expect(eventsOfKind(events, 'tripEnded').map((event) => Math.round(event.trip!.distanceKm!))).toEqual([20, 10, 30]);
			expect(eventsOfKind(events, 'tripStarted')).toHaveLength(3);
		});
	});

	it('report the depot truck idling twice on its day and the service truck passing its mark once (Every Fix)', async () => {
		await withTriggerSandbox({}, async (h) => {
			const idling = await playDay(h, 'depotIdling', { events: ['idling', 'maintenanceDue'], readMode: 'everyFix', idleMinutes: 10 }, 10);
			// The 25-minute warm-up and the 12 minutes after the run.
			expect(eventsOfKind(idling.events, 'idling').map((event) => event.idleMinutes)).toEqual([10, 10]);
			expect(eventsOfKind(idling.events, 'maintenanceDue')).toEqual([]);
		});
		await withTriggerSandbox({}, async (h) => {
			const { serviceIntervalKm, dueKm } = STORY_FACTS;
			const service = await playDay(h, 'serviceDue', { events: ['maintenanceDue'], readMode: 'everyFix', serviceIntervalKm }, 10);
			const due = eventsOfKind(service.events, 'maintenanceDue');
			expect(due.map((event) => event.serviceDueKm)).toEqual([dueKm]);
			expect(due[0].milleage).toBeGreaterThanOrEqual(dueKm);
		});
	});
});
