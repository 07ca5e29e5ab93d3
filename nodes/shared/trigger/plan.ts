/**
 * What one poll reads, within the request budget: devices whose read failed last time first (up
 * to half the budget, so one broken device cannot starve the rest), then round robin from where
 * the previous poll stopped. Pure.
 */
import type { TriggerState } from './types';

export type ReadMode = 'latestFix' | 'everyFix';

/** `last`: the lastLocation call. `range`: every fix from the newest one seen, through the date-range read. */
export type FixRead = { deviceId: string } & ({ kind: 'last' } | { kind: 'range'; from: string; to: string });

export interface ReadPlan {
	reads: FixRead[];
	/** Where the next poll goes on; undefined when every device fits in one poll. */
	cursor?: string;
}

/** `deviceIds` sorted; `maxReads` Infinity for no budget. */
export function planReads(deviceIds: string[], state: TriggerState, mode: ReadMode, maxReads: number, now: Date): ReadPlan {
	const { picked, cursor } = pickDevices(deviceIds, state.cursor, state.retry ?? [], maxReads);
	return { reads: picked.map((deviceId) => fixRead(deviceId, state, mode, now)), cursor };
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
	const to = new Date(Math.max(now.getTime(), Date.parse(from))).toISOString();
	return { deviceId, kind: 'range', from, to };
}
