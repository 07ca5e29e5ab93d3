// @host-zones: matrix
import { advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { sampleEvents } from '../../nodes/SatelliteTrackingTrigger/detection/samples';
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { daysToCount, planReads } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { emptyState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type { DayCounts, DetectionSettings, DeviceInfo, DeviceState, TriggerState } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { dayRange } from '../../nodes/shared/zonedDay';
import { detectionSettings, frozen, pollDevice } from '../support/trigger';

const NOW = new Date('2026-03-10T12:00:00Z');
const DAY = '2026-03-10';
const device: DeviceInfo = { id: 'dev-1', name: 'Truck 01', expires: null };
const lastFix: Location = { dateTime: '2026-03-10T11:58:00Z', latitude: 1, longitude: 2 };

function settings(extra: Partial<DetectionSettings> = {}): DetectionSettings {
	return detectionSettings({
		events: ['dailyLimitNear'],
		dailyLimit: { limits: { email: 10, sms: 5 }, share: 0.8, timeZone: 'UTC' },
		...extra,
	});
}

const counted = (day: string, email: number, sms = 0): DayCounts => ({ day, counts: { email, sms } });

/** Polls in sequence with the day counts given, carrying state; the first one is the baseline. */
function run(polls: Array<DayCounts[] | undefined>, options = settings(), start?: DeviceState) {
	const { events: all, state } = pollDevice(device, polls.map((notifications) => ({ fixes: [lastFix], now: NOW, notifications })), options, start);
	const seen = all.map((events) => events.map((event) => `${event.day} ${event.channel}:${event.threshold}`));
	return { seen, all, state };
}

describe('dailyLimitNear detection', () => {
	it('takes the first count as the baseline, then reports near once and the limit once over many polls', () => {
		const { seen, all, state } = run([
			[counted(DAY, 1)],
			[counted(DAY, 7)],
			[counted(DAY, 8)],
			[counted(DAY, 8)],
			[counted(DAY, 9)],
			[counted(DAY, 10)],
			[counted(DAY, 12)],
			[counted(DAY, 12)],
		]);
		expect(seen).toEqual([[], [], [`${DAY} email:near`], [], [], [`${DAY} email:limit`], [], []]);
		expect(all[2][0]).toEqual({
			event: 'dailyLimitNear',
			eventId: expect.any(String),
			deviceId: 'dev-1',
			deviceName: 'Truck 01',
			location: lastFix,
			channel: 'email',
			threshold: 'near',
			count: 8,
			limit: 10,
			day: DAY,
		});
		expect(state.limits).toEqual({ day: DAY, reported: ['email:near', 'email:limit'] });
	});

	it('reports both thresholds, near first, when a count jumps past both in one poll; channels apart', () => {
		const { seen, all } = run([[counted(DAY, 0, 0)], [counted(DAY, 11, 4)], [counted(DAY, 11, 5)]]);
		expect(seen).toEqual([[], [`${DAY} email:near`, `${DAY} email:limit`, `${DAY} sms:near`], [`${DAY} sms:limit`]]);
		expect(all[1].map((event) => [event.count, event.limit])).toEqual([
			[11, 10],
			[11, 10],
			[4, 5],
		]);
	});

	it('reports nothing for a device below the share', () => {
		const { seen, state } = run([[counted(DAY, 0)], [counted(DAY, 7, 3)], [counted(DAY, 7, 3)]]);
		expect(seen).toEqual([[], [], []]);
		expect(state.limits).toEqual({ day: DAY });
	});

	it('starts afresh on the next day', () => {
		const next = '2026-03-11';
		const { seen } = run([[counted(DAY, 0)], [counted(DAY, 10)], [counted(next, 0)], [counted(next, 8)], [counted(next, 10)]]);
		expect(seen).toEqual([[], [`${DAY} email:near`, `${DAY} email:limit`], [], [`${next} email:near`], [`${next} email:limit`]]);
	});

	it('reports what the previous day crossed after its last count, then today', () => {
		const yesterday = '2026-03-09';
		const { seen, state } = run([[counted(yesterday, 2)], [counted(yesterday, 9), counted(DAY, 10)]]);
		expect(seen).toEqual([[], [`${yesterday} email:near`, `${DAY} email:near`, `${DAY} email:limit`]]);
		expect(state.limits).toEqual({ day: DAY, reported: ['email:near', 'email:limit'] });
	});

	it('does not report a day older than the one already counted', () => {
		const start: DeviceState = { limits: { day: DAY, reported: ['email:near'] } };
		const { seen, state } = run([[counted('2026-03-09', 10), counted(DAY, 8)]], settings(), start);
		expect(seen).toEqual([[]]);
		expect(state.limits).toEqual(start.limits);
	});

	it('keeps its record when the device was not counted this poll', () => {
		const start: DeviceState = { limits: { day: DAY, reported: ['sms:near'] } };
		const { seen, state } = run([undefined, [counted(DAY, 0, 5)]], settings(), start);
		expect(seen).toEqual([[], [`${DAY} sms:limit`]]);
		expect(state.limits).toEqual({ day: DAY, reported: ['sms:near', 'sms:limit'] });
	});

	it('watches only the channels with a limit, at the share chosen', () => {
		const emailOnly = settings({ dailyLimit: { limits: { email: 10 }, share: 0.5, timeZone: 'UTC' } });
		const { seen } = run([[counted(DAY, 0, 0)], [counted(DAY, 5, 100)]], emailOnly);
		expect(seen).toEqual([[], [`${DAY} email:near`]]);
	});

	it('reports the current crossings on first sight when asked to, with a null location if the device never reported', () => {
		const result = detectDeviceEvents(undefined, device, [], settings({ emitCurrentState: true }), NOW, [counted(DAY, 9, 1)]);
		expect(result.events.map((event) => [event.channel, event.threshold, event.location])).toEqual([['email', 'near', null]]);
	});

	it('keeps no record while the event is not selected', () => {
		const { state } = run([[counted(DAY, 10)]], settings({ events: ['locationUpdated'] }));
		expect(state.limits).toBeUndefined();
	});
});

describe('daysToCount', () => {
	it('counts today in the time zone, and the day before on the first count of a day', () => {
		const zone = 'America/New_York';
		// 02:00 UTC on the 10th is still the 9th in New York.
		const early = new Date('2026-03-10T02:00:00Z');
		expect(daysToCount(undefined, early, zone)).toEqual([{ day: '2026-03-09', ...dayRange('2026-03-09', zone) }]);
		expect(daysToCount({ limits: { day: '2026-03-09' } }, NOW, zone).map((d) => d.day)).toEqual(['2026-03-09', DAY]);
		expect(daysToCount({ limits: { day: DAY } }, NOW, zone).map((d) => d.day)).toEqual([DAY]);
		// A day longer ago is not counted again: what it crossed is no news.
		expect(daysToCount({ limits: { day: '2026-03-01' } }, NOW, zone).map((d) => d.day)).toEqual([DAY]);
		expect(daysToCount(undefined, NOW, 'UTC')).toEqual([{ day: DAY, from: `${DAY}T00:00:00.000Z`, to: `${DAY}T23:59:59.999Z` }]);
	});

	it('is planned for every device read only when counting', () => {
		const state: TriggerState = { version: 1, devices: { a: { limits: { day: '2026-03-09' } } } };
		const counting = planReads(['a', 'b'], state, 'latestFix', Infinity, NOW, 'UTC');
		expect(counting.reads.map((read) => [read.deviceId, read.days?.map((d) => d.day)])).toEqual([
			['a', ['2026-03-09', DAY]],
			['b', [DAY]],
		]);
		expect(planReads(['a', 'b'], state, 'latestFix', Infinity, NOW).reads.every((read) => read.days === undefined)).toBe(true);
	});
});

describe('dailyLimitNear across polls (advance)', () => {
	const ids = ['d0', 'd1', 'd2', 'd3'];
	const devices: DeviceInfo[] = ids.map((id) => ({ id, name: id, expires: null }));

	it('reports a device skipped by the budget when its turn comes, once', () => {
		const email = new Map(ids.map((id) => [id, 0]));
		let state = emptyState();
		const reported: string[] = [];
		for (let poll = 0; poll < 6; poll++) {
			if (poll === 1) for (const id of ids) email.set(id, 10);
			const plan = planReads(ids, state, 'latestFix', 2, NOW, 'UTC');
			const outcomes = new Map<string, ReadOutcome>(
				plan.reads.map((read) => [
					read.deviceId,
					{ ok: true, fixes: [lastFix], notifications: read.days!.map(({ day }) => counted(day, email.get(read.deviceId)!)) },
				]),
			);
			const result = advance(frozen(state), devices, plan, outcomes, settings(), NOW);
			reported.push(...result.events.map((event) => `${event.deviceId} ${event.threshold}`));
			state = result.state;
		}
		// Polls 0 and 1 take the baselines (d2 and d3 are first read at 10 already); d0 and d1, skipped when
		// their counts jumped, report both thresholds at their next turn (poll 2) and never again.
		expect(reported.sort()).toEqual(['d0 limit', 'd0 near', 'd1 limit', 'd1 near']);
	});

	it('"Fetch Test Event" of version 1 shows a sample crossing with the count of the day when none is reached', () => {
		const outcomes = new Map<string, ReadOutcome>([['d0', { ok: true, fixes: [lastFix], notifications: [counted(DAY, 3, 1)] }]]);
		expect(sampleEvents([devices[0]], outcomes, settings(), NOW, false)).toEqual([
			{
				event: 'dailyLimitNear',
				eventId: expect.stringMatching(/^sample-/),
				deviceId: 'd0',
				deviceName: 'd0',
				location: lastFix,
				channel: 'email',
				threshold: 'near',
				count: 3,
				limit: 10,
				day: DAY,
				sample: true,
			},
		]);
	});

	it('"Fetch Test Event" shows the current crossings', () => {
		const outcomes = new Map<string, ReadOutcome>([['d0', { ok: true, fixes: [lastFix], notifications: [counted(DAY, 0, 5)] }]]);
		const events = sampleEvents([devices[0]], outcomes, settings(), NOW, true);
		expect(events.map((event) => [event.event, event.channel, event.threshold])).toEqual([
			['dailyLimitNear', 'sms', 'near'],
			['dailyLimitNear', 'sms', 'limit'],
		]);
	});
});
