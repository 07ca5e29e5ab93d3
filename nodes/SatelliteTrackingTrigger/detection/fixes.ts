/**
 * Which fetched fixes are new: sorted oldest first (the API may answer in any order), duplicates and
 * fixes already processed removed. A fix dated before the newest one processed is past: the trigger
 * reports forward in time. Fixes sharing the newest processed timestamp are told apart by fingerprint.
 */
import { hash32, shortHash } from '../../shared/hash';
import { LOCATION_BOOLEAN_LIST_FIELDS, LOCATION_NUMBER_FIELDS, type Location } from '../../shared/wire';
import type { DeviceState, FixPosition, NumericFixField, SeenFix } from './types';
import { parseServiceTime } from '../../shared/validation';

/**
 * Fingerprints at the newest timestamp kept one by one: all of them up to this many (usually one; a
 * tracker without a GPS lock repeating its time makes two a reading, so some 16 hours of readings
 * every 5 minutes), exact in any order the service answers. Past it, the newest this many, and how
 * many records share the timestamp, taken in the service's order. Some 7 characters each in state.
 */
const MAX_KEYS = 400;

export const MINUTE_MS = 60_000;

/**
 * A fix dated further than this after the poll is a clock glitch (a GPS date decoded wrongly), not
 * news: taken as the newest fix it would hide every real fix after it until that date, and the
 * device could never be silent. A device whose clock runs hours ahead (a zone taken for UTC) still
 * works: its fixes are consistently ahead, by less than this.
 */
export const FUTURE_TOLERANCE_MS = 24 * 60 * MINUTE_MS;

/**
 * Every Fix reads this far back before the newest fix processed: a fix buffered by the device and
 * uploaded after a newer one (out of coverage, a queue on the device) that is dated within it is
 * still reported once, as a late fix, for its alerts.
 */
export const LATE_FIX_WINDOW_MS = 30 * MINUTE_MS;

/**
 * In a range read, a fix dated more than FUTURE_SLACK_MS after the poll with no other fix (read, or
 * the newest processed) within LONE_FIX_GAP_MS of it is a glitch, not a clock running ahead (whose
 * fixes come close together, all ahead): it is left out. A clock-ahead device's first fix after a
 * silence waits for the next one, a poll later.
 */
const FUTURE_SLACK_MS = 5 * MINUTE_MS;
const LONE_FIX_GAP_MS = 60 * MINUTE_MS;

export function fixTime(fix: { dateTime: unknown }): number {
	return parseServiceTime(fix.dateTime);
}

/**
 * The poll's time (ISO) when the fix it fetched, dated `fixAt`, was already `lateMs` old or dated
 * ahead of it: a device whose clock runs behind or ahead (its zone taken for UTC), or which uploads
 * late. A silence after such a fix is timed from this poll (silenceClock), not from the fix's date.
 */
export function heardLate(now: Date, fixAt: number, lateMs: number): string | undefined {
	const lag = now.getTime() - fixAt;
	return lag < 0 || lag >= lateMs ? now.toISOString() : undefined;
}

/** The time a silence since the fix dated `fixAt` is measured at: the poll's, less the lag the fix was fetched with (heardLate). */
export const silenceClock = (now: Date, fixAt: number, heard: string | undefined): number =>
	heard === undefined ? now.getTime() : fixAt + now.getTime() - parseServiceTime(heard);

/**
 * What tells fixes apart: when, where, and what they raised; with `telemetry`, also the values and
 * lines it carries. A bare position has raised nothing.
 */
export function fixFingerprint(fix: Location | FixPosition, telemetry = false): unknown[] {
	const raised = fix as Partial<Location>;
	const base = [fixTime(fix), fix.latitude, fix.longitude, raised.hasCriticalAlert ?? false, raised.alertTexts ?? NONE, raised.alerts ?? NONE];
	if (!telemetry) return base;
	return [...base, ...LOCATION_NUMBER_FIELDS.map((field) => raised[field] ?? null), ...LOCATION_BOOLEAN_LIST_FIELDS.map((field) => raised[field] ?? null)];
}

/** What a fix that raised nothing has in a fingerprint's lists: one array for every fix and poll. */
const NONE: readonly never[] = Object.freeze([]);

/** A telemetry field's value when the fix carries it as a number; undefined when absent, null, text or NaN. */
export function numericValue(fix: Partial<Location>, field: NumericFixField): number | undefined {
	const value = fix[field];
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * `a - b` rounded to nine decimals. Telemetry comes with a few decimals, and binary floating point
 * makes 8 - 7.8 come out as 0.20000000000000018: "more than" a hysteresis of 0.2 for a value that
 * is exactly on its edge.
 */
export function difference(a: number, b: number): number {
	return Math.round((a - b) * 1e9) / 1e9;
}

export function fixKey(fix: Location, telemetry = false): string {
	return shortHash(JSON.stringify(fixFingerprint(fix, telemetry)));
}

export function toSeenFix(fix: FixPosition): SeenFix {
	return { at: fix.dateTime, lat: fix.latitude, lon: fix.longitude };
}

export function toPosition(fix: SeenFix): FixPosition {
	return { dateTime: fix.at, latitude: fix.lat, longitude: fix.lon };
}

/** A record with a readable time and numeric coordinates; anything else the service sends is skipped. */
function isUsable(fix: Location): boolean {
	return (
		typeof fix === 'object' &&
		fix !== null &&
		Number.isFinite(fixTime(fix)) &&
		typeof fix.latitude === 'number' &&
		typeof fix.longitude === 'number' &&
		Number.isFinite(fix.latitude) &&
		Number.isFinite(fix.longitude)
	);
}

export interface FreshFixes {
	/** New fixes, oldest first. */
	fresh: Location[];
	/**
	 * `fresh` and, with telemetry, the records repeating a processed fix's time, position and alerts
	 * with other telemetry: news for the events reading telemetry only. Oldest first.
	 */
	readings: Location[];
	/** The newest fix fetched, when it is not older than the newest processed one. */
	newest?: Location;
	/** Fixes dated before the newest one processed, within LATE_FIX_WINDOW_MS of it, never read before: uploaded late. Oldest first. */
	late: Location[];
	/** The state's `fix`, `keys` and `count` (or a legacy `digest`), `seenSince` and `seenKeys` after these fixes. */
	fix?: SeenFix;
	keys?: string[];
	count?: number;
	digest?: string;
	seenSince?: string;
	seenKeys?: string[];
	/** Records fetched that are no fix at all (no readable time, no numeric position): skipped. */
	unreadable: number;
}

type SeenAtNewest = Pick<DeviceState, 'keys' | 'count' | 'digest'>;

/**
 * `now`: the poll's time; fixes dated more than a day after it are left out. `telemetry`: records
 * differing only in telemetry are told apart (`readsTelemetry` in needs.ts). `coveredFrom` (epoch
 * ms): the fetched fixes are every one the service holds from then on (a range read), so what the
 * window before the newest fix holds is known and a later read tells the fixes uploaded late.
 */
export function freshFixes(
	previous: Pick<DeviceState, 'fix' | 'keys' | 'count' | 'digest' | 'seenSince' | 'seenKeys'>,
	fetched: Location[],
	now?: Date,
	telemetry = false,
	coveredFrom?: number,
): FreshFixes {
	// Loops rather than chained filters and maps: this runs for every device of every poll, and
	// their arrays were a sixth of what a 5,000-device poll allocates of its own (bench P3).
	let unreadable = 0;
	const plausible: Location[] = [];
	for (const fix of fetched) {
		if (!isUsable(fix)) unreadable++;
		else if (isPlausiblyDated(fix, now)) plausible.push(fix);
	}
	// Array#sort is stable: records sharing a time keep the service's order.
	plausible.sort((a, b) => fixTime(a) - fixTime(b));
	const seenAt = previous.fix ? parseServiceTime(previous.fix.at) : -Infinity;
	const sorted = coveredFrom === undefined || now === undefined ? plausible : withoutLoneFutureFixes(plausible, now.getTime(), seenAt);
	const seen: SeenAtNewest = { keys: previous.keys, count: previous.count, digest: previous.digest };
	const seenByPosition = processedInOrder(seen, countAt(sorted, seenAt));
	const taken = new Set<string>();
	const fresh: Location[] = [];
	const readings: Location[] = [];
	// Each record's fingerprint once, by its place in `sorted`: the loop, the late window and the state all read it.
	const baseKeys = sorted.map((fix) => fixKey(fix));
	const readingKeys: string[] = [];
	const late = lateFixes(previous, sorted, seenAt, baseKeys);
	let atSeen = 0;
	for (let index = 0; index < sorted.length; index++) {
		const fix = sorted[index];
		const time = fixTime(fix);
		const base = baseKeys[index];
		const key = telemetry ? fixKey(fix, true) : base;
		const position = time === seenAt ? atSeen++ : -1;
		if (time < seenAt || (time === seenAt && (position < seenByPosition || isSeen(seen, key))) || taken.has(key)) continue;
		const repeat = (time === seenAt && isSeen(seen, base)) || taken.has(base);
		taken.add(key).add(base);
		readings.push(fix);
		readingKeys.push(base);
		if (!repeat) fresh.push(fix);
	}
	const candidate = sorted[sorted.length - 1];
	const newest = candidate && fixTime(candidate) >= seenAt ? candidate : undefined;
	if (readings.length === 0) {
		const window = previous.fix ? seenWindow(sorted, seenAt, baseKeys, coveredFrom) : {};
		return { fresh, readings, late, newest, fix: previous.fix, ...seen, ...window, unreadable };
	}
	const last = readings[readings.length - 1];
	const lastTime = fixTime(last);
	// The readings at the newest time, the last ones; with telemetry both fingerprints of each: the
	// repeat of a fix is then known across polls too.
	const added: string[] = [];
	for (let index = 0; index < readings.length; index++) {
		if (fixTime(readings[index]) !== lastTime) continue;
		added.push(readingKeys[index]);
		if (telemetry) added.push(fixKey(readings[index], true));
	}
	const before = lastTime === seenAt ? seen : {};
	const window = seenWindow(sorted, lastTime, baseKeys, coveredFrom);
	return { fresh, readings, late, newest, fix: toSeenFix(last), ...withSeen(before, added, countAt(sorted, lastTime)), ...window, unreadable };
}

/** How many of `fixes` are dated `time`. */
function countAt(fixes: Location[], time: number): number {
	let count = 0;
	for (const fix of fixes) if (fixTime(fix) === time) count++;
	return count;
}

/**
 * The records dated in the late window before the newest processed one (from where the last range
 * read began) that that read did not hold, told by fingerprint (an alarm record may repeat the time of
 * a position record): uploaded since. Each once, oldest first.
 */
function lateFixes(previous: Pick<DeviceState, 'seenSince' | 'seenKeys'>, sorted: Location[], seenAt: number, baseKeys: string[]): Location[] {
	if (previous.seenSince === undefined) return [];
	const from = Math.max(parseServiceTime(previous.seenSince), seenAt - LATE_FIX_WINDOW_MS);
	const held = new Set(previous.seenKeys ?? []);
	return sorted.filter((fix, index) => {
		const time = fixTime(fix);
		if (time < from || time >= seenAt) return false;
		const key = baseKeys[index];
		if (held.has(key)) return false;
		held.add(key);
		return true;
	});
}

/**
 * What the late window before `newestAt` holds after a range read from `coveredFrom`: where the
 * read began, and the fingerprints of its records in the window. Nothing without a range read: a
 * last-location read says nothing of the fixes before it.
 */
function seenWindow(sorted: Location[], newestAt: number, baseKeys: string[], coveredFrom?: number): Pick<FreshFixes, 'seenSince' | 'seenKeys'> {
	if (coveredFrom === undefined || !Number.isFinite(newestAt)) return {};
	const from = Math.max(coveredFrom, newestAt - LATE_FIX_WINDOW_MS);
	const inWindow = sorted.flatMap((fix, index) => (fixTime(fix) >= from && fixTime(fix) < newestAt ? [index] : []));
	// The newest MAX_KEYS records at most (a tracker reporting every second): the window then begins at the oldest kept.
	const held = inWindow.slice(-MAX_KEYS);
	const since = held.length === MAX_KEYS ? fixTime(sorted[held[0]]) : coveredFrom;
	const keys = [...new Set(held.map((index) => baseKeys[index]))];
	return { seenSince: new Date(since).toISOString(), seenKeys: keys.length > 0 ? keys : undefined };
}

/**
 * How many records at the newest timestamp seen are taken as processed by their place in the
 * service's answer: when more than MAX_KEYS share it, state keeps only the newest fingerprints, and
 * a read of the whole series (Every Fix) gives the ones processed first, in the service's order,
 * the new ones after them. A single record (Latest Fix) is told by its fingerprint.
 */
function processedInOrder(seen: SeenAtNewest, recordsAtSeen: number): number {
	return seen.count !== undefined && recordsAtSeen >= 2 && recordsAtSeen >= seen.count ? seen.count : 0;
}

/**
 * `sorted` by time; `seenAt` the newest fix processed (-Infinity for none). Only a fix at
 * another time, itself dated after the poll, vouches for one ahead: a glitch comes as several records
 * at its one date too (a position and its alarm record, a record sent twice).
 */
function withoutLoneFutureFixes(sorted: Location[], now: number, seenAt: number): Location[] {
	if (sorted.length === 0 || fixTime(sorted[sorted.length - 1]) <= now + FUTURE_SLACK_MS) return sorted;
	const times = [...new Set(sorted.map(fixTime))];
	const place = new Map(times.map((time, i) => [time, i]));
	// Dated after the poll itself: a device with a true clock has its newest fixes just before it, and they
	// would vouch for a glitch dated up to an hour ahead.
	const near = (a: number | undefined, b: number) => a !== undefined && a > now && Math.abs(a - b) <= LONE_FIX_GAP_MS;
	return sorted.filter((fix) => {
		const time = fixTime(fix);
		if (time <= now + FUTURE_SLACK_MS) return true;
		// With nothing to judge it by (a device's very first fix), it stands.
		if (times.length === 1 && !Number.isFinite(seenAt)) return true;
		const i = place.get(time)!;
		return near(times[i - 1], time) || near(times[i + 1], time) || near(seenAt, time);
	});
}

/** Not dated more than FUTURE_TOLERANCE_MS after `now`: a later date is a clock glitch. */
export function isPlausiblyDated(fix: { dateTime: unknown }, now?: Date): boolean {
	return now === undefined || fixTime(fix) <= now.getTime() + FUTURE_TOLERANCE_MS;
}

function isSeen(seen: SeenAtNewest, key: string): boolean {
	if (seen.keys?.includes(key)) return true;
	return seen.digest !== undefined && inLegacyDigest(seen.digest, key);
}

/**
 * The fingerprints one by one while they are few; past MAX_KEYS, the newest of them and how many
 * records share the timestamp in this read (`recordsAtLast`: the whole series, in Every Fix).
 */
function withSeen(seen: SeenAtNewest, added: string[], recordsAtLast: number): SeenAtNewest {
	const newest = added.length > 1 ? [...new Set(added)] : added;
	const kept = seen.keys?.filter((key) => !newest.includes(key)) ?? [];
	const keys = kept.length > 0 ? [...kept, ...newest] : newest;
	if (seen.count === undefined && seen.digest === undefined && keys.length <= MAX_KEYS) return { keys };
	return { keys: keys.slice(-MAX_KEYS), count: recordsAtLast };
}

const LEGACY_DIGEST_BITS = 1024;
const LEGACY_DIGEST_PROBES = 7;

/**
 * States saved before the count replaced it folded fingerprints past MAX_KEYS into a 1,024-bit
 * Bloom filter, which filled up after a few hundred readings at one timestamp (a tracker without a
 * GPS lock) and took every new reading for seen. Read, never written, until the timestamp moves on.
 */
function inLegacyDigest(digest: string, key: string): boolean {
	const first = hash32(key);
	const step = (hash32(`${key}#`) | 1) >>> 0;
	return Array.from({ length: LEGACY_DIGEST_PROBES }, (_, i) => (first + i * step) % LEGACY_DIGEST_BITS).every((bit) => {
		const word = parseInt(digest.slice((bit >>> 5) * 8, (bit >>> 5) * 8 + 8), 16) || 0;
		return (word & (1 << (bit & 31))) !== 0;
	});
}
