/**
 * What one poll reads, within the request budget: devices whose last read failed first (up to half
 * the budget, rounded down, so broken devices cannot starve the rest and a budget of one is pure
 * round robin), then round robin from where the previous poll stopped, or under Read Priority
 * activeFirst, the order of priority.ts. Pure.
 */
import { DAY_MS, dayOf, dayRange, nextDay } from '../../shared/zonedDay';
import { FUTURE_TOLERANCE_MS, LATE_FIX_WINDOW_MS } from './fixes';
import { pickByPriority, type PrioritySettings } from './priority';
import type { DeviceState, TriggerState } from './types';
import { parseServiceTime } from '../../shared/validation';

export type ReadMode = 'latestFix' | 'everyFix';

/** A calendar day whose alerts are counted, with the instants it spans in the chosen time zone. */
export interface CountedDay {
	day: string;
	from: string;
	to: string;
}

/**
 * `last`: the lastLocation call; when the service's last location is dated implausibly far ahead (a
 * glitch it keeps returning), the `recent` range is read too for the newest plausible fix, and from
 * then on `recent` alone, the glitch's date kept as `ahead`: one call a poll, within Max Requests per
 * Poll. `range`: every fix from the newest one seen, through the date-range read. `days`
 * (dailyLimitNear): the days whose alerts one more call reads and counts, oldest first.
 */
export type FixRead = { deviceId: string; days?: CountedDay[] } & (
	| { kind: 'last'; recent: TimeRange }
	| { kind: 'recent'; recent: TimeRange; ahead: string }
	| ({ kind: 'range' } & TimeRange)
);

export interface TimeRange {
	from: string;
	to: string;
}

export interface ReadPlan {
	reads: FixRead[];
	/**
	 * The devices of the round robin this poll, in turn (the retried ones aside): the next poll goes
	 * on after the last of them whose read ended, every one before it included.
	 */
	rotation: string[];
	/** Every listed device is read this poll. */
	complete: boolean;
	/** activeFirst: devices already unread longer than Max Stale Minutes that this poll cannot read either. */
	overdue?: number;
}

/**
 * `deviceIds` sorted; `maxReads` (devices, not requests) Infinity for no budget; `timeZone` when
 * the devices' notifications are counted too; `priority` absent for rotate.
 */
export function planReads(
	deviceIds: string[],
	state: TriggerState,
	mode: ReadMode,
	maxReads: number,
	now: Date,
	timeZone?: string,
	priority?: PrioritySettings,
): ReadPlan {
	const { retried, rotation } = pickDevices(deviceIds, state.cursor, state.retry ?? [], maxReads);
	const retrying = new Set(retried);
	// A budget that covers the fleet reads every device in either order: the same reads, the same events.
	const ranked =
		priority?.readPriority === 'activeFirst' && deviceIds.length > maxReads
			? pickByPriority(
					deviceIds.filter((id) => !retrying.has(id)),
					state,
					maxReads - retried.length,
					now,
					priority.maxStaleMs,
				)
			: undefined;
	// Not a round robin: with no rotation, the cursor stays where rotate left it (nextCursor).
	const inTurn = ranked === undefined ? rotation : [];
	const chosen = [...retried, ...(ranked?.picked ?? inTurn)];
	// Range reads end a day ahead of the poll, as far as a fix may plausibly be dated: a device whose
	// clock runs hours ahead is read up to its newest fix, not held back until real time catches up.
	// Formatted once per poll, not per device (bench P3).
	const to = new Date(now.getTime() + FUTURE_TOLERANCE_MS).toISOString();
	const reads = chosen.map((deviceId): FixRead => {
		const read = fixRead(deviceId, state, mode, now, to);
		return timeZone === undefined ? read : { ...read, days: daysToCount(state.devices[deviceId], now, timeZone) };
	});
	return { reads, rotation: inTurn, complete: reads.length === deviceIds.length, ...(ranked && { overdue: ranked.overdue }) };
}

/**
 * The round robin's position after a poll: the last device of the rotation whose read ended with
 * every one before it; the previous position when none did; none when a full round ended, unless
 * some of it went `unanswered` in time: then after the last of those, so that the next round
 * starts with the devices the service answers rather than waiting on the slow one first again.
 */
export function nextCursor(
	plan: ReadPlan,
	ended: (deviceId: string) => boolean,
	previous?: string,
	unanswered: ReadonlySet<string> = new Set(),
): string | undefined {
	const done = plan.rotation.findIndex((deviceId) => !ended(deviceId));
	if (done < 0 && plan.complete) return [...plan.rotation].reverse().find((deviceId) => unanswered.has(deviceId));
	if (done < 0) return plan.rotation[plan.rotation.length - 1] ?? previous;
	return done === 0 ? previous : plan.rotation[done - 1];
}

/**
 * Today; and, on a device's first count of a day, the day before when it was counted last: a
 * threshold crossed after that count, before midnight, is then still reported (once).
 */
export function daysToCount(device: DeviceState | undefined, now: Date, timeZone: string): CountedDay[] {
	const today = dayOf(now, timeZone);
	const last = device?.limits?.day;
	const days = last !== undefined && nextDay(last) === today ? [last, today] : [today];
	return days.map((day) => ({ day, ...dayRange(day, timeZone) }));
}

/**
 * `retried`: devices whose last read failed, oldest failure first, read ahead of their turn; `rotation`:
 * the round robin from after `cursor`. Every device when all fit, still from after `cursor`, so a
 * poll cut short by its time budget is followed by one that starts where it stopped.
 */
export function pickDevices(
	deviceIds: string[],
	cursor: string | undefined,
	retry: string[],
	maxReads: number,
): { retried: string[]; rotation: string[] } {
	const start = cursor === undefined ? 0 : deviceIds.findIndex((id) => id > cursor);
	const from = start < 0 ? 0 : start;
	const turn = [...deviceIds.slice(from), ...deviceIds.slice(0, from)];
	if (deviceIds.length <= maxReads) return { retried: [], rotation: turn };
	const known = new Set(deviceIds);
	const retried = [...new Set(retry)].filter((id) => known.has(id)).slice(0, Math.floor(maxReads / 2));
	const skip = new Set(retried);
	return { retried, rotation: turn.filter((id) => !skip.has(id)).slice(0, maxReads - retried.length) };
}

/** One device's read, ending at `to` as every read of the poll does. */
function fixRead(deviceId: string, state: TriggerState, mode: ReadMode, now: Date, to: string): FixRead {
	const device = state.devices[deviceId];
	const from = device?.fix?.at ?? device?.since;
	// A device new to the trigger gets its baseline from its last fix, in either mode.
	if (mode === 'latestFix' || from === undefined) {
		const seen = from === undefined ? NaN : parseServiceTime(from);
		const recentFrom = Math.max(now.getTime() - DAY_MS, Number.isFinite(seen) ? seen : -Infinity);
		const recent = { from: new Date(Math.min(recentFrom, now.getTime())).toISOString(), to };
		// Until real time passes the glitch's date, not merely until it comes within FUTURE_TOLERANCE_MS:
		// read by its last location then, the glitch became the newest fix and hid every real one for up to a day.
		const ahead = device?.ahead;
		if (ahead !== undefined && parseServiceTime(ahead) > now.getTime()) return { deviceId, kind: 'recent', recent, ahead };
		return { deviceId, kind: 'last', recent };
	}
	// A device that had not reported at the last poll: every fix the service holds now arrived since,
	// whatever its date. Read as far back as a fix's date may lag (a batch uploaded late, a clock
	// behind): from that poll's time only, a device uploading every 10 minutes, or with its clock
	// behind, was never reported (the red team, issue 21).
	const since = parseServiceTime(from);
	if (device?.fix === undefined && Number.isFinite(since)) return { deviceId, kind: 'range', from: new Date(since - FUTURE_TOLERANCE_MS).toISOString(), to };
	// From the late window before the newest fix processed: fixes uploaded after a newer one are read too.
	if (!Number.isFinite(since)) return { deviceId, kind: 'range', from, to };
	return { deviceId, kind: 'range', from: new Date(since - LATE_FIX_WINDOW_MS).toISOString(), to };
}
