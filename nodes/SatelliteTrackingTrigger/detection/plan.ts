/**
 * What one poll reads, within the request budget: devices whose read failed last time first (up
 * to half the budget, so one broken device cannot starve the rest), then round robin from where
 * the previous poll stopped. Pure.
 */
import { dayOf, dayRange, nextDay } from '../../shared/zonedDay';
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
 * `last`: the lastLocation call. `range`: every fix from the newest one seen, through the date-range
 * read. `days` (dailyLimitNear): the days whose alerts one more call reads and counts, oldest first.
 */
export type FixRead = { deviceId: string; days?: CountedDay[] } & (
	| { kind: 'last' }
	| { kind: 'range'; from: string; to: string }
);

export interface ReadPlan {
	reads: FixRead[];
	/** Where the next poll goes on; undefined when every device fits in one poll. */
	cursor?: string;
}

/**
 * `deviceIds` sorted; `maxReads` (devices, not requests) Infinity for no budget; `timeZone` when
 * the devices' notifications are counted too.
 */
export function planReads(
	deviceIds: string[],
	state: TriggerState,
	mode: ReadMode,
	maxReads: number,
	now: Date,
	timeZone?: string,
): ReadPlan {
	const { picked, cursor } = pickDevices(deviceIds, state.cursor, state.retry ?? [], maxReads);
	const reads = picked.map((deviceId): FixRead => {
		const read = fixRead(deviceId, state, mode, now);
		return timeZone === undefined ? read : { ...read, days: daysToCount(state.devices[deviceId], now, timeZone) };
	});
	return { reads, cursor };
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

export function pickDevices(
	deviceIds: string[],
	cursor: string | undefined,
	retry: string[],
	maxReads: number,
): { picked: string[]; cursor?: string } {
	if (deviceIds.length <= maxReads) return { picked: deviceIds };
	const known = new Set(deviceIds);
	const retried = [...new Set(retry)].filter((id) => known.has(id)).slice(0, Math.ceil(maxReads / 2));
	const skip = new Set(retried);
	const start = cursor === undefined ? 0 : deviceIds.findIndex((id) => id > cursor);
	const from = start < 0 ? 0 : start;
	const rotation = [...deviceIds.slice(from), ...deviceIds.slice(0, from)].filter((id) => !skip.has(id));
	const next = rotation.slice(0, maxReads - retried.length);
	return { picked: [...retried, ...next], cursor: next.length > 0 ? next[next.length - 1] : cursor };
}

function fixRead(deviceId: string, state: TriggerState, mode: ReadMode, now: Date): FixRead {
	const device = state.devices[deviceId];
	const from = device?.fix?.at ?? device?.since;
	// A device new to the trigger gets its baseline from its last fix, in either mode.
	if (mode === 'latestFix' || from === undefined) return { deviceId, kind: 'last' };
	const to = new Date(Math.max(now.getTime(), parseServiceTime(from))).toISOString();
	return { deviceId, kind: 'range', from, to };
}
