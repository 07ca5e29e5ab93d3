// @host-zones: matrix
/**
 * Issue 46.5 and 46.7 through n8n: times in the zone the user chose. Node version 2.2 reads a From/To
 * without a zone in the workflow's time zone (n8n's date picker gives none) and gives the daily
 * summary's first and last fix in its Time Zone with the offset; 2.1 keeps UTC for both. The daily
 * report example sums up yesterday in its own Time Zone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { fakeDateFrom } from '../support/clock';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const LOCATIONS_ROUTE = 'POST /api/devices/{deviceId}/locations';

afterEach(() => jest.useRealTimers());

describe('times in the chosen zone (issue 46.7)', () => {
	const ctx = useSandbox();
	const story = () => ctx.sandbox.store.facts.storyDeviceIds.deliveryRound[0];
	const lastRangeSent = () => ctx.sandbox.requestLog.filter((entry) => entry.route === LOCATIONS_ROUTE).pop()!.body;

	it.each([
		[2.2, { from: '2024-05-01T13:00:00.000Z', to: '2024-05-01T21:30:00.000Z' }],
		[2.1, { from: '2024-05-01T09:00:00.000Z', to: '2024-05-01T17:30:00.000Z' }],
	])('version %s reads From/To picked without a zone on a workflow in America/New_York as shown', async (typeVersion, sent) => {
		const parameters = { resource: 'location', operation: 'getTrips', deviceId: byId(story()), from: '2024-05-01T09:00:00', to: '2024-05-01 17:30:00' };
		const { error } = await ctx.engine.runNode(parameters, { typeVersion, timezone: 'America/New_York' });
		expect(error).toBeUndefined();
		expect(lastRangeSent()).toEqual(sent);
		// A From/To with its zone is that instant at every version.
		await ctx.engine.runNode({ ...parameters, from: '2024-05-01T09:00:00+02:00', to: '2024-05-01T17:30:00Z' }, { typeVersion, timezone: 'America/New_York' });
		expect(lastRangeSent()).toEqual({ from: '2024-05-01T07:00:00.000Z', to: '2024-05-01T17:30:00.000Z' });
	});

	it.each([
		[2.2, '2024-05-01T13:00:00.000Z'],
		[2.1, '2024-05-01T09:00:00.000Z'],
	])('version %s stores a fix whose Date Time was picked without a zone on a workflow in America/New_York as shown, where a range picked the same way finds it', async (typeVersion, stored) => {
		const options = { typeVersion, timezone: 'America/New_York' };
		const submitted = await ctx.engine.runNode({ resource: 'location', operation: 'submit', deviceId: byId(story()), latitude: 40.7, longitude: -74, dateTime: '2024-05-01T09:00:00' }, options);
		expect(submitted.error).toBeUndefined();
		// The answer's range defaults to the fix's own time.
		expect(lastRangeSent()).toMatchObject({ from: stored, to: stored, location: { dateTime: stored } });
		const read = await ctx.engine.runNode({ resource: 'location', operation: 'getAll', deviceId: byId(story()), from: '2024-05-01T08:59:00', to: '2024-05-01 09:01:00', returnAll: true }, options);
		expect(read.error).toBeUndefined();
		expect(jsonOf(read.items).map((fix) => Date.parse(fix.dateTime as string))).toContain(Date.parse(stored));
	});

	it('version 2.2 gives the summary\'s first and last fix in its Time Zone with the offset, the same instants as 2.1 gives in UTC', async () => {
		const parameters = { resource: 'location', operation: 'getDailySummary', deviceId: byId(story()), timeZone: 'America/Chicago', options: { day: ctx.sandbox.store.facts.storyDay } };
		const [zoned] = jsonOf((await ctx.engine.runNode(parameters, { typeVersion: 2.2 })).items);
		const [utc] = jsonOf((await ctx.engine.runNode(parameters, { typeVersion: 2.1 })).items);
		for (const end of ['firstFix', 'lastFix'] as const) {
			const shown = (zoned[end] as { dateTime: string }).dateTime;
			expect(shown).toMatch(/-0[56]:00$/);
			expect(Date.parse(shown)).toBe(Date.parse((utc[end] as { dateTime: string }).dateTime));
			expect((utc[end] as { dateTime: string }).dateTime).toMatch(/Z$/);
		}
	});
});

describe('the daily report example (issue 46.5)', () => {
	const ctx = useSandbox();
	const example = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'daily-fleet-report.json'), 'utf8')) as {
		nodes: Array<{ name: string; typeVersion: number; parameters: Record<string, unknown> }>;
	};
	const summary = example.nodes.find((node) => node.name === 'Yesterday per device')!;

	it.each([
		// 06:02 in Tokyo is 21:02 UTC the day before: yesterday there is two days before that UTC date.
		['Asia/Tokyo', '2024-05-01T21:02:00Z', '2024-05-01'],
		['America/Chicago', '2024-05-02T11:02:00Z', '2024-05-01'],
		['Asia/Kolkata', '2024-05-02T00:32:00Z', '2024-05-01'],
	])('sums up yesterday in its Time Zone (%s at 06:02)', async (timeZone, now, yesterday) => {
		fakeDateFrom(Date.parse(now));
		const { items, error } = await ctx.engine.runNode({ ...summary.parameters, timeZone }, { typeVersion: summary.typeVersion });
		jest.useRealTimers();
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((item) => item.day)).toEqual(jsonOf(items).map(() => yesterday));
		expect(items.length).toBeGreaterThan(0);
	});
});
