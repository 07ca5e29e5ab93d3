/**
 * P10: Read Priority on a big fleet under a request budget. A working day of a fleet where each
 * device makes two 30-minute drives (out across a geofence band, and back), about a tenth of the
 * fleet driving at any time, standing devices reporting every 5 minutes; polled every minute with a
 * tenth of the fleet's reads a poll, once in each order, side by side on the same fake clock. The
 * trigger's own planning and detection run (planReads, advance, markReads); the service's answers
 * come from the fleet's script, range by range, so a day of 10,000 devices takes minutes, not the
 * hours its 600,000 requests would take through HTTP (P3 measures that path). Every Fix: every fix
 * makes an event, so both orders must report the same ones.
 */
import { advance } from '../../nodes/SatelliteTrackingTrigger/detection/advance';
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { planReads, type FixRead } from '../../nodes/SatelliteTrackingTrigger/detection/plan';
import { withReadMarks, type ReadPriority } from '../../nodes/SatelliteTrackingTrigger/detection/priority';
import { emptyState } from '../../nodes/SatelliteTrackingTrigger/detection/state';
import type { TriggerEvent, TriggerState } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { DEFAULT_MAX_STALE_MINUTES } from '../../nodes/SatelliteTrackingTrigger/settings';
import { pointsGeofence } from '../../nodes/shared/geo/geofence';
import { TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings } from '../../test/support/trigger';
import type { BenchContext } from '../context';
import { verdict } from '../report';

const MINUTE = 60_000;
/** 07:00 UTC on a Monday: the day's first poll. */
const DAY_START = Date.parse('2026-03-02T07:00:00Z');
/** Polls before the day, the fleet standing: the trigger's baseline of every device, in either order the same. */
const WARM_UP_MINUTES = 30;
/** Polls after the last upload: every fix uploaded is read by then, in either order. */
const CATCH_UP_MINUTES = 30;
const DRIVE_MINUTES = 30;
/** 50 km/h northwards, a fix a minute. */
const DEGREES_PER_MINUTE = 0.0075;
const HOME_LATITUDE = 48;
/** A band across every device's way out, 2 km deep, 6 minutes' drive from home: an entry and an exit each drive. */
const BAND = (() => {
	const band = pointsGeofence('Band', '48.1, 0; 48.1, 10; 48.12, 10; 48.12, 0');
	if (!band.ok) throw new Error(`P10: the geofence band ${band.problem}`);
	return band.value;
})();
const KINDS = ['locationUpdated', 'geofenceEntered', 'geofenceExited', 'tripStarted', 'tripEnded'] as const;

interface Fleet {
	devices: number;
	minutes: number;
	/** Minute of the day each device's two drives start. */
	out: Int32Array;
	back: Int32Array;
}

/** A deterministic fleet: drives start spread over the day (the second at least 10 minutes after the first ends, both ended 20 minutes before the day's). */
function fleetOf(devices: number, minutes: number): Fleet {
	const out = new Int32Array(devices);
	const back = new Int32Array(devices);
	let seed = 12_345;
	const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
	const latest = minutes - 20 - 2 * DRIVE_MINUTES - 10;
	for (let index = 0; index < devices; index++) {
		out[index] = Math.floor(random() * latest);
		back[index] = out[index] + DRIVE_MINUTES + 10 + Math.floor(random() * (latest - out[index]));
	}
	return { devices, minutes, out, back };
}

/** Device `index`'s fix at `minute` of the day (negative: before it), or none: a fix a minute while driving, one every 5 minutes standing. */
function fixAt(fleet: Fleet, index: number, minute: number): Location | undefined {
	const out = fleet.out[index];
	const back = fleet.back[index];
	const driving = (minute >= out && minute < out + DRIVE_MINUTES) || (minute >= back && minute < back + DRIVE_MINUTES);
	if (!driving && (minute + index) % 5 !== 0) return undefined;
	if (minute >= fleet.minutes) return undefined;
	const away = minute < out ? 0 : minute < out + DRIVE_MINUTES ? minute - out + 1 : minute < back ? DRIVE_MINUTES : minute < back + DRIVE_MINUTES ? DRIVE_MINUTES - (minute - back + 1) : 0;
	return {
		dateTime: new Date(DAY_START + minute * MINUTE).toISOString(),
		latitude: HOME_LATITUDE + away * DEGREES_PER_MINUTE,
		longitude: 1 + index * 0.0005,
		speed: driving ? 50 : 0,
	} as Location;
}

/** What the service answers a read at minute `now`: the fixes of a range uploaded by then, or the last one. */
function answer(fleet: Fleet, read: FixRead, now: number): Location[] {
	const index = Number(read.deviceId.slice(1));
	if (read.kind !== 'range') {
		for (let minute = now; minute >= -WARM_UP_MINUTES - 10; minute--) {
			const fix = fixAt(fleet, index, minute);
			if (fix) return [fix];
		}
		return [];
	}
	const fixes: Location[] = [];
	const from = Math.ceil((Date.parse(read.from) - DAY_START) / MINUTE);
	for (let minute = Math.max(from, -WARM_UP_MINUTES - 10); minute <= now; minute++) {
		const fix = fixAt(fleet, index, minute);
		if (fix) fixes.push(fix);
	}
	return fixes;
}

interface DayResult {
	/** Event kind → minutes from each event's fix to the poll that reported it. */
	latency: Record<string, number[]>;
	/** Location Updated of fixes taken while driving. */
	movingLocation: number[];
	eventIds: Set<string>;
	duplicates: number;
	requests: number;
	longestUnreadMinutes: number;
	stateBytesPerDevice: number;
}

function playDay(fleet: Fleet, readsPerPoll: number, readPriority: ReadPriority, maxStaleMinutes: number): DayResult {
	const ids = Array.from({ length: fleet.devices }, (_, index) => `d${String(index).padStart(5, '0')}`);
	const devices = ids.map((id) => ({ id, name: id }));
	const settings = detectionSettings({
		events: [...KINDS],
		geofences: [BAND],
		trip: TRIP_DEFAULTS,
	});
	const priority = { readPriority, maxStaleMs: maxStaleMinutes * MINUTE };
	let state: TriggerState = emptyState();
	const latency: Record<string, number[]> = Object.fromEntries(KINDS.map((kind) => [kind, []]));
	const movingLocation: number[] = [];
	const eventIds = new Set<string>();
	let duplicates = 0;
	let requests = 0;
	const lastRead = new Int32Array(fleet.devices).fill(-WARM_UP_MINUTES);
	let longest = 0;
	for (let minute = -WARM_UP_MINUTES; minute < fleet.minutes + CATCH_UP_MINUTES; minute++) {
		// Half a minute into the minute: the minute's fixes are uploaded.
		const now = new Date(DAY_START + minute * MINUTE + 30_000);
		const plan = planReads(ids, state, 'everyFix', readsPerPoll, now, undefined, priority);
		requests += 1 + plan.reads.length;
		const outcomes = new Map<string, ReadOutcome>();
		for (const read of plan.reads) {
			const coveredFrom = read.kind === 'range' ? Date.parse(read.from) : undefined;
			outcomes.set(read.deviceId, { ok: true, fixes: answer(fleet, read, minute), ...(coveredFrom !== undefined && { coveredFrom }) });
			const index = Number(read.deviceId.slice(1));
			if (minute >= 0) longest = Math.max(longest, minute - lastRead[index]);
			lastRead[index] = minute;
		}
		const result = advance(state, devices, plan, outcomes, settings, now);
		state = withReadMarks(state, result.state, plan, outcomes, new Set(), now, priority);
		if (minute < 0) continue;
		for (const event of result.events) record(event, now.getTime());
	}
	function record(event: TriggerEvent, polledAt: number) {
		if (eventIds.has(event.eventId)) duplicates++;
		eventIds.add(event.eventId);
		const location = event.location as Location;
		const minutes = (polledAt - Date.parse(location.dateTime)) / MINUTE;
		latency[event.event].push(minutes);
		if (event.event === 'locationUpdated' && (location.speed ?? 0) > 0) movingLocation.push(minutes);
	}
	for (let index = 0; index < fleet.devices; index++) longest = Math.max(longest, fleet.minutes + CATCH_UP_MINUTES - 1 - lastRead[index]);
	const stateBytesPerDevice = Buffer.byteLength(JSON.stringify(state)) / fleet.devices;
	return { latency, movingLocation, eventIds, duplicates, requests, longestUnreadMinutes: longest, stateBytesPerDevice };
}


const percentile = (values: number[], share: number) => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');

export function fleetScenario(ctx: BenchContext): void {
	const { devices, readsPerPoll, hours } = ctx.sizes.fleet;
	const maxStale = DEFAULT_MAX_STALE_MINUTES;
	ctx.log(`P10: ${devices} devices, ${readsPerPoll} reads a poll, polled every minute for ${hours} h, rotate beside activeFirst (Max Stale Minutes ${maxStale})`);
	const fleet = fleetOf(devices, hours * 60);
	const rotate = playDay(fleet, readsPerPoll, 'rotate', maxStale);
	ctx.log('P10: rotate done');
	const activeFirst = playDay(fleet, readsPerPoll, 'activeFirst', maxStale);
	const rows: Array<{ id: string; name: string; of: (day: DayResult) => number[]; target?: (r: number[], a: number[]) => { text: string; met: boolean } }> = [
		{ id: 'movingLocation', name: 'Location Updated, moving', of: (day) => day.movingLocation, target: medianCut },
		{ id: 'geofence', name: 'Geofence Entered/Exited', of: (day) => [...day.latency.geofenceEntered, ...day.latency.geofenceExited], target: medianCut },
		{ id: 'tripEnded', name: 'Trip Ended', of: (day) => day.latency.tripEnded, target: medianCut },
		{
			id: 'tripStarted',
			name: 'Trip Started',
			of: (day) => day.latency.tripStarted,
			target: (r, a) => ({ text: `p95 ≤ 1.5 × rotate's = ${fixed(1.5 * percentile(r, 0.95))} min`, met: percentile(a, 0.95) <= 1.5 * percentile(r, 0.95) }),
		},
	];
	for (const row of rows) {
		const r = row.of(rotate);
		const a = row.of(activeFirst);
		const target = row.target?.(r, a);
		ctx.figures.push({
			id: `P10.${row.id}`,
			figure: `P10 ${row.name}: median (p95) minutes from fix to the poll reporting it, activeFirst`,
			value: Number(fixed(percentile(a, 0.5))),
			unit: 'min',
			target: target?.text,
			verdict: target ? verdict(target.met) : 'info',
			note: `activeFirst ${fixed(percentile(a, 0.5))} (${fixed(percentile(a, 0.95))}); rotate ${fixed(percentile(r, 0.5))} (${fixed(percentile(r, 0.95))}); ${a.length} events`,
		});
	}
	const equal = rotate.eventIds.size === activeFirst.eventIds.size && [...rotate.eventIds].every((id) => activeFirst.eventIds.has(id));
	ctx.figures.push(
		{
			id: 'P10.longestUnread',
			figure: 'P10 longest any device went unread, activeFirst, minutes',
			value: activeFirst.longestUnreadMinutes,
			unit: 'min',
			target: `≤ Max Stale Minutes (${maxStale})`,
			verdict: verdict(activeFirst.longestUnreadMinutes <= maxStale),
			note: `rotate ${rotate.longestUnreadMinutes} min`,
		},
		{
			id: 'P10.events',
			figure: 'P10 events reported, activeFirst (same eventIds as rotate, none twice)',
			value: activeFirst.eventIds.size,
			unit: 'events',
			target: 'equal to rotate, same requests',
			verdict: verdict(equal && rotate.duplicates + activeFirst.duplicates === 0 && rotate.requests === activeFirst.requests),
			note: `rotate ${rotate.eventIds.size} events; repeated ${rotate.duplicates} / ${activeFirst.duplicates}; requests ${rotate.requests} / ${activeFirst.requests}; state ${rotate.stateBytesPerDevice.toFixed(0)} / ${activeFirst.stateBytesPerDevice.toFixed(0)} bytes a device`,
		},
	);
	ctx.details.P10 = {
		devices,
		readsPerPoll,
		hours,
		maxStaleMinutes: maxStale,
		rotate: summary(rotate),
		activeFirst: summary(activeFirst),
	};
}

/** Target of the moving devices' events: activeFirst's median at most a third of rotate's. */
function medianCut(rotate: number[], activeFirst: number[]) {
	const r = percentile(rotate, 0.5);
	return { text: `median ≤ rotate's ÷ 3 = ${fixed(r / 3)} min`, met: percentile(activeFirst, 0.5) <= r / 3 };
}

function summary(day: DayResult) {
	const of = (values: number[]) => ({ count: values.length, median: percentile(values, 0.5), p95: percentile(values, 0.95) });
	return {
		...Object.fromEntries(Object.entries(day.latency).map(([kind, values]) => [kind, of(values)])),
		movingLocation: of(day.movingLocation),
		events: day.eventIds.size,
		duplicates: day.duplicates,
		requests: day.requests,
		longestUnreadMinutes: day.longestUnreadMinutes,
		stateBytesPerDevice: Math.round(day.stateBytesPerDevice),
	};
}
