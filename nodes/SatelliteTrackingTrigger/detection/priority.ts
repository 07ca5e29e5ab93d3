/**
 * Read Priority: which devices a poll that cannot read them all reads first. `rotate` goes round
 * the fleet in id order (plan.ts). `activeFirst` reads first the devices whose unread time would pass
 * Max Stale Minutes before the next poll, then the devices likely to have news (moving, in a trip, a
 * geofence or idling state pending), then the longest unread. It keeps two numbers a device (when it
 * was last read, whether it was moving) and one a trigger (when it last polled). Pure.
 */
import { distanceMeters } from '../../shared/geo/distance';
import { TRIP_DEFAULTS } from '../../shared/trips/segment';
import type { Location } from '../../shared/wire';
import { fixTime } from './fixes';
import type { DeviceState, ReadOutcome, TriggerState } from './types';

export type ReadPriority = 'rotate' | 'activeFirst';

export interface PrioritySettings {
	readPriority: ReadPriority;
	/** activeFirst: the longest any device may go unread, in ms. */
	maxStaleMs: number;
}

/** Faster than GPS wander or a walking pace, as a trip's default Moving Speed: a vehicle under way. */
const MOVING_KMH = TRIP_DEFAULTS.movingSpeed;
/** Farther than a parked tracker's fixes scatter (bench P9's wander is 10 m; urban canyons reach 100 m). */
const MOVED_METERS = 200;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What a poll of activeFirst picks, besides the retried devices, and how many went unread past the bound anyway. */
export interface PriorityPick {
	picked: string[];
	/** Devices read before and unread longer than Max Stale Minutes since, that this poll cannot read either. */
	overdue: number;
}

/**
 * `candidates` in id order, `room` reads for them. Due (the next poll would find them unread past
 * the bound; never read counts as longest), then likely active, then the rest; each group longest
 * unread first, ties in id order. The gap to the next poll is taken to be the last one's.
 */
export function pickByPriority(candidates: string[], state: TriggerState, room: number, now: Date, maxStaleMs: number): PriorityPick {
	const nowSeconds = seconds(now);
	const gap = state.polledAt === undefined ? 0 : Math.max(0, nowSeconds - state.polledAt);
	const bound = maxStaleMs / 1000;
	const unreadFor = (deviceId: string) => {
		const readAt = state.devices[deviceId]?.readAt;
		return readAt === undefined ? Infinity : nowSeconds - readAt;
	};
	const ranked = candidates.map((deviceId, index) => {
		const age = unreadFor(deviceId);
		const rank = age + gap > bound ? 0 : likelyActive(state.devices[deviceId], now, maxStaleMs) ? 1 : 2;
		return { deviceId, index, age, rank };
	});
	ranked.sort((a, b) => a.rank - b.rank || (b.age === a.age ? a.index - b.index : b.age - a.age));
	const picked = ranked.slice(0, Math.max(0, room));
	// Never read is not overdue: a device new to the trigger (or the first polls' fleet) is read first anyway.
	const overdue = ranked.slice(picked.length).filter(({ age }) => age > bound && age !== Infinity).length;
	return { picked: picked.map(({ deviceId }) => deviceId), overdue };
}

/**
 * Likely to have news at the next read: it was moving at the last, is in a trip or about to confirm
 * one, or a geofence side, stay or idling period is pending (reported only if read on time). Not
 * a device silent for longer than the bound: one switched off mid-trip stays in its trip, and was
 * read every poll for good, taking the moving devices' reads.
 */
export function likelyActive(device: DeviceState | undefined, now: Date, maxStaleMs: number): boolean {
	if (device === undefined) return false;
	if (device.moving === true) return true;
	const newest = device.fix === undefined ? NaN : fixTime({ dateTime: device.fix.at });
	if (!(now.getTime() - newest <= maxStaleMs)) return false;
	const trips = device.trips;
	if (trips !== undefined && (trips.mode === 'trip' || trips.candidate !== undefined)) return true;
	if (device.turning !== undefined && Object.keys(device.turning).length > 0) return true;
	if (device.stays !== undefined && Object.values(device.stays).some((since) => since !== '')) return true;
	return device.idleSince !== undefined && device.idleSince !== '';
}

/**
 * The state a poll saves, `next` as detection left it, stamped (markReads) when activeFirst had to
 * choose: a poll that read every device keeps a state as small as rotate's, and the round robin
 * stands in for the order there.
 */
export function withReadMarks(
	previous: TriggerState,
	next: TriggerState,
	plan: { complete: boolean },
	outcomes: Map<string, ReadOutcome>,
	unanswered: ReadonlySet<string>,
	now: Date,
	priority: PrioritySettings,
): TriggerState {
	return priority.readPriority === 'activeFirst' && !plan.complete ? markReads(previous, next, outcomes, unanswered, now) : next;
}

/**
 * The state after a poll of activeFirst: each device read (or sent and not answered in time: it
 * had its turn) stamped with the poll's time and whether its fixes show it moving. A failed read is
 * not stamped: the retry list reads it first next poll.
 */
export function markReads(
	previous: TriggerState,
	next: TriggerState,
	outcomes: Map<string, ReadOutcome>,
	unanswered: ReadonlySet<string>,
	now: Date,
): TriggerState {
	const readAt = seconds(now);
	const devices = { ...next.devices };
	const stamp = (deviceId: string, moving: boolean) => {
		const device = devices[deviceId];
		if (device === undefined) return;
		const stamped: DeviceState = { ...device, readAt };
		if (moving) stamped.moving = true;
		else delete stamped.moving;
		devices[deviceId] = stamped;
	};
	for (const [deviceId, outcome] of outcomes) {
		if (outcome.ok) stamp(deviceId, showsMoving(previous.devices[deviceId], outcome.fixes));
	}
	for (const deviceId of unanswered) stamp(deviceId, previous.devices[deviceId]?.moving === true);
	return { ...next, devices, polledAt: readAt };
}

/**
 * A fix new to this read at driving speed, or the newest fix far from the one before the read. Not
 * the fixes of the late window re-read before the newest processed: a range read holds half an hour
 * of them, and a device parked for that long counted as moving.
 */
function showsMoving(before: DeviceState | undefined, fixes: Location[]): boolean {
	const known = before?.fix === undefined ? -Infinity : fixTime({ dateTime: before.fix.at });
	let newest: Location | undefined;
	for (const fix of fixes) {
		if (typeof fix !== 'object' || fix === null || !(fixTime(fix) > known)) continue;
		if (typeof fix.speed === 'number' && fix.speed > MOVING_KMH) return true;
		if (newest === undefined || fixTime(fix) > fixTime(newest)) newest = fix;
	}
	const from = before?.fix;
	if (newest === undefined || from === undefined) return false;
	const { latitude, longitude } = newest;
	if (typeof latitude !== 'number' || typeof longitude !== 'number') return false;
	return distanceMeters({ latitude: from.lat, longitude: from.lon }, { latitude, longitude }) > MOVED_METERS;
}
