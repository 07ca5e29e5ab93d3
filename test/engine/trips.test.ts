// @host-zones: matrix
import { dayRange } from '../../nodes/shared/zonedDay';
import { STORY_FACTS, STORY_SCRIPTS } from '../../sandbox/stories';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

const LOCATIONS_ROUTE = 'POST /api/devices/{deviceId}/locations';
const LIST_ROUTE = 'GET /api/devices';

/** Kilometres and minutes each script drives, from the script itself. */
function driven(role: keyof typeof STORY_SCRIPTS) {
	const drives = STORY_SCRIPTS[role].legs.flatMap((leg) => (leg.kind === 'drive' ? [leg] : []));
	return {
		km: drives.reduce((sum, leg) => sum + (leg.kmh * leg.minutes) / 60, 0),
		minutes: drives.reduce((sum, leg) => sum + leg.minutes, 0),
		idleMinutes: STORY_SCRIPTS[role].legs.reduce((sum, leg) => sum + (leg.kind === 'park' && leg.engine ? leg.minutes : 0), 0),
	};
}

describe('trips, stops and daily summaries through n8n (issue 25)', () => {
	const ctx = useSandbox();
	const facts = () => ctx.sandbox.store.facts;
	const story = (role: 'deliveryRound' | 'depotIdling' | 'serviceDue') => facts().storyDeviceIds[role][0];
	const wholeDay = () => ({ from: `${facts().storyDay}T00:00:00Z`, to: `${facts().storyDay}T23:59:59Z` });

	beforeEach(() => ctx.sandbox.resetStats());

	it("tells the van's round as trips and stops, the red light inside its trip, in one read", async () => {
		const { items, error } = await ctx.engine.runNode({ resource: 'location', operation: 'getTrips', deviceId: byId(story('deliveryRound')), ...wholeDay() });
		expect(error).toBeUndefined();
		const segments = jsonOf(items);
		expect(segments.map((segment) => segment.type)).toEqual(['stop', 'trip', 'stop', 'trip', 'stop', 'trip', 'stop']);
		const trips = segments.filter((segment) => segment.type === 'trip');
		// Out 20 km (a 2-minute red light inside), 10 km, and 30 km back.
		expect(trips.map((trip) => Math.round(trip.distanceKm as number))).toEqual([20, 10, 30]);
		for (const trip of trips) {
			expect(trip.milleageDifference as number).toBeCloseTo(trip.distanceKm as number, 0);
			expect(trip.maxSpeed).toBe(40);
			expect(trip.averageSpeed as number).toBeGreaterThan(30);
			expect(trip.averageSpeed as number).toBeLessThanOrEqual(40);
		}
		expect(trips[0].idleMinutes).toBeGreaterThanOrEqual(1);
		expect(trips[0].durationMinutes).toBeGreaterThanOrEqual(32);
		const [, , drop, , runningDrop] = segments;
		expect(drop).toMatchObject({ idleMinutes: 0 });
		expect(drop.durationMinutes as number).toBeGreaterThanOrEqual(10);
		expect(runningDrop.idleMinutes as number).toBeGreaterThanOrEqual(19);
		expect(segments[1]).toMatchObject({ deviceId: story('deliveryRound'), deviceName: 'Van 15', start: { dateTime: `${facts().storyDay}T07:00:00.000Z` } });
		expect(Object.keys(segments[1]).sort()).toEqual(
			['averageSpeed', 'deviceId', 'deviceName', 'distanceKm', 'durationMinutes', 'end', 'idleMinutes', 'maxSpeed', 'milleageDifference', 'start', 'type'].sort(),
		);
		expect(ctx.sandbox.stats.byRoute[LOCATIONS_ROUTE]).toBe(1);
		expect(ctx.sandbox.stats.byRoute[LIST_ROUTE]).toBe(1);
	});

	it.each(['UTC', 'Europe/Berlin', 'America/New_York'])('sums up each story device\'s day in %s, all devices in one item each', async (timeZone) => {
		const day = facts().storyDay;
		const { items, error } = await ctx.engine.runNode({
			resource: 'location',
			operation: 'getDailySummary',
			deviceSelection: 'selected',
			devices: { device: [{ deviceId: byId(story('deliveryRound')) }, { deviceId: byId(story('depotIdling')) }, { deviceId: byId(story('serviceDue')) }] },
			timeZone,
			options: { day },
		});
		expect(error).toBeUndefined();
		const [van, idler, serviced] = jsonOf(items);
		const round = driven('deliveryRound');
		expect(van).toMatchObject({ deviceId: story('deliveryRound'), day, timeZone, trips: 3, maxSpeed: 40 });
		expect(van.distanceKm as number).toBeCloseTo(round.km, 0);
		expect(Math.abs((van.drivingMinutes as number) - round.minutes)).toBeLessThanOrEqual(6);
		expect(Math.abs((van.idleMinutes as number) - round.idleMinutes)).toBeLessThanOrEqual(3);
		expect(van.fuelUsed as number).toBeCloseTo(round.km * STORY_FACTS.fuelPerKm, 0);
		expect(van.firstFix).toMatchObject({ dateTime: expect.any(String) });
		// The depot truck idles 25 minutes before its run and 12 after; and, from a quarter of an hour before the
		// sandbox's start, again: on the story's day too when the sandbox starts just after its midnight (that
		// day's last hours in America/New_York reach 5 a.m. UTC), adding at most the part of it on the day.
		const idlerFixes = ctx.sandbox.store.locations(story('depotIdling'))!;
		const idlingNowEnds = Math.max(...idlerFixes.map((fix) => Date.parse(fix.dateTime)));
		const { from, to } = dayRange(day, timeZone);
		const idlingNowOnDay = Math.max(0, Math.min(idlingNowEnds, Date.parse(to)) - Math.max(idlingNowEnds - STORY_FACTS.idlingNowMinutes * 60_000, Date.parse(from))) / 60_000;
		expect(idler.idleMinutes as number).toBeGreaterThanOrEqual(driven('depotIdling').idleMinutes - 3);
		expect(idler.idleMinutes as number).toBeLessThanOrEqual(driven('depotIdling').idleMinutes + idlingNowOnDay + 3);
		expect(idler).toMatchObject({ trips: 2 });
		expect(serviced.distanceKm as number).toBeCloseTo(driven('serviceDue').km, 0);
		// One read per device, each covering the day and its lead-in.
		expect(ctx.sandbox.stats.byRoute[LOCATIONS_ROUTE]).toBe(3);
	});

	it("splits the van's round where the zone's midnight falls, and the two days add up", async () => {
		const day = facts().storyDay;
		// At UTC−8 the round (07:00–09:07 UTC) starts at 23:00 the evening before and ends past midnight.
		const run = async (localDay: string, timeZone = 'Etc/GMT+8') =>
			jsonOf((await ctx.engine.runNode({ resource: 'location', operation: 'getDailySummary', deviceId: byId(story('deliveryRound')), timeZone, options: { day: localDay } })).items)[0];
		const [evening, morning, utc] = [await run(previousDay(day)), await run(day), await run(day, 'UTC')];
		// The second trip crosses midnight and counts on both days.
		expect(evening).toMatchObject({ trips: 2 });
		expect(morning).toMatchObject({ trips: 2 });
		expect((evening.drivingMinutes as number) + (morning.drivingMinutes as number)).toBeCloseTo(utc.drivingMinutes as number, 6);
		expect((evening.distanceKm as number) + (morning.distanceKm as number)).toBeCloseTo(utc.distanceKm as number, 2);
		expect((evening.idleMinutes as number) + (morning.idleMinutes as number)).toBeCloseTo(utc.idleMinutes as number, 1);
		expect(evening.lastFix).toMatchObject({ dateTime: `${day}T07:59:00.000Z` });
	});

	it("shows the odometer passing its service interval within the serviced truck's first trip", async () => {
		const truck = story('serviceDue');
		const fixes = ctx.sandbox.store.locations(truck)!;
		const crossing = fixes.find((fix) => (fix.milleage ?? 0) >= STORY_FACTS.dueKm)!;
		expect(fixes[0].milleage).toBeLessThan(STORY_FACTS.dueKm);
		expect(crossing.dateTime.slice(0, 10)).toBe(facts().storyDay);
		const { items } = await ctx.engine.runNode({ resource: 'location', operation: 'getTrips', deviceId: byId(truck), ...wholeDay() });
		const trips = jsonOf(items).filter((item) => item.type === 'trip');
		expect(trips).toHaveLength(2);
		const [out] = trips as Array<{ start: { dateTime: string }; end: { dateTime: string }; milleageDifference: number }>;
		expect(out.start.dateTime <= crossing.dateTime && crossing.dateTime <= out.end.dateTime).toBe(true);
		expect(out.milleageDifference).toBeCloseTo(50, 0);
	});

	it('reads every device of the account for All Devices, and names them', async () => {
		const { items, error } = await ctx.engine.runNode({ resource: 'location', operation: 'getDailySummary', deviceSelection: 'all', options: { day: facts().storyDay } });
		expect(error).toBeUndefined();
		const devices = ctx.sandbox.store.listDevices();
		expect(jsonOf(items).map((item) => [item.deviceId, item.deviceName])).toEqual(devices.map((device) => [device.id, device.name]));
		expect(ctx.sandbox.stats.byRoute[LIST_ROUTE]).toBe(1);
	});

	it('refuses a bad option naming the item and field; with Continue On Fail every item yields one', async () => {
		const parameters = {
			resource: 'location',
			operation: 'getTrips',
			deviceId: fromItem('id'),
			...wholeDay(),
			options: { minStopMinutes: '={{ $json.stop }}' },
		};
		const failed = await ctx.engine.runNode(parameters, { items: [{ id: story('deliveryRound'), stop: 'soon' }] });
		expect(failed.error?.message).toContain('Invalid "Min Stop Minutes" in item 0: Min Stop Minutes must be a number (got "soon")');
		const { items } = await ctx.engine.runNode(parameters, {
			items: [{ id: story('deliveryRound'), stop: 3 }, { id: story('deliveryRound'), stop: -1 }],
			continueOnFail: true,
		});
		expect(items.filter((item) => item.json.error !== undefined)).toHaveLength(1);
		expect(items.at(-1)?.json.error).toContain('Min Stop Minutes must be between 0');
		expect(items.filter((item) => (item.pairedItem as { item: number }).item === 0).length).toBeGreaterThanOrEqual(7);
	});
});

function previousDay(day: string): string {
	const date = new Date(`${day}T00:00:00Z`);
	date.setUTCDate(date.getUTCDate() - 1);
	return date.toISOString().slice(0, 10);
}
