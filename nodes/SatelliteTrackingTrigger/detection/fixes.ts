/**
 * Which fetched fixes are new: sorted oldest first (the API may answer in any order), duplicates and
 * fixes already processed removed. A fix dated before the newest one processed is past: the trigger
 * reports forward in time. Fixes sharing the newest processed timestamp are told apart by fingerprint.
 */
import { shortHash } from '../../shared/hash';
import type { Location } from '../../shared/wire';
import type { DeviceState, FixPosition, SeenFix } from './types';

/** Enough fingerprints for any burst of fixes sharing one timestamp, small enough for state. */
const MAX_KEYS = 20;

export function fixTime(fix: { dateTime: string }): number {
	return Date.parse(fix.dateTime);
}

export function fixKey(fix: Location): string {
	return shortHash(
		JSON.stringify([fixTime(fix), fix.latitude, fix.longitude, fix.hasCriticalAlert ?? false, fix.alertTexts ?? [], fix.alerts ?? []]),
	);
}

export function toSeenFix(fix: FixPosition): SeenFix {
	return { at: fix.dateTime, lat: fix.latitude, lon: fix.longitude };
}

export function toPosition(fix: SeenFix): FixPosition {
	return { dateTime: fix.at, latitude: fix.lat, longitude: fix.lon };
}

function isUsable(fix: Location): boolean {
	return (
		typeof fix === 'object' &&
		fix !== null &&
		Number.isFinite(fixTime(fix)) &&
		Number.isFinite(fix.latitude) &&
		Number.isFinite(fix.longitude)
	);
}

export interface FreshFixes {
	/** New fixes, oldest first. */
	fresh: Location[];
	/** The newest fix fetched, when it is not older than the newest processed one. */
	newest?: Location;
	/** The state's `fix` and `keys` after these fixes. */
	fix?: SeenFix;
	keys?: string[];
}

export function freshFixes(previous: Pick<DeviceState, 'fix' | 'keys'>, fetched: Location[]): FreshFixes {
	const sorted = fetched
		.filter(isUsable)
		.map((fix, index) => ({ fix, index, time: fixTime(fix) }))
		.sort((a, b) => a.time - b.time || a.index - b.index)
		.map(({ fix }) => fix);
	const seenAt = previous.fix ? Date.parse(previous.fix.at) : -Infinity;
	const seenKeys = new Set(previous.keys ?? []);
	const taken = new Set<string>();
	const fresh: Location[] = [];
	for (const fix of sorted) {
		const time = fixTime(fix);
		const key = fixKey(fix);
		if (time < seenAt || (time === seenAt && seenKeys.has(key)) || taken.has(key)) continue;
		taken.add(key);
		fresh.push(fix);
	}
	const candidate = sorted[sorted.length - 1];
	const newest = candidate && fixTime(candidate) >= seenAt ? candidate : undefined;
	if (fresh.length === 0) return { fresh, newest, fix: previous.fix, keys: previous.keys };
	const last = fresh[fresh.length - 1];
	const lastTime = fixTime(last);
	const keys = new Set(lastTime === seenAt ? seenKeys : []);
	for (const fix of fresh) if (fixTime(fix) === lastTime) keys.add(fixKey(fix));
	return { fresh, newest, fix: toSeenFix(last), keys: [...keys].slice(-MAX_KEYS) };
}
