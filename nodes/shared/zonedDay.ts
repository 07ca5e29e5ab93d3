/**
 * Calendar days in an IANA time zone, on Intl alone: a community package keeps no runtime
 * dependencies, so there is no time-zone library to lean on. Days are `YYYY-MM-DD` strings.
 */
import type { DateRange } from './wire';
import { preview, toIsoDateTime, toNonEmptyText, type Check } from './validation';

export const DEFAULT_TIME_ZONE = 'UTC';

export const DAY_MS = 86_400_000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let format = formatters.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(timeZone, format);
	}
	return format;
}

/** The wall-clock time at `instant` in the zone, as the epoch milliseconds of a UTC time with the same fields. */
function wallClock(instant: number, timeZone: string): number {
	const fields: Record<string, number> = {};
	for (const part of formatter(timeZone).formatToParts(new Date(instant))) fields[part.type] = Number(part.value);
	const milliseconds = ((instant % 1000) + 1000) % 1000;
	return (
		Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second) + milliseconds
	);
}

const dayText = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);

function parseDay(day: string): number {
	const match = DAY_PATTERN.exec(day);
	if (!match) throw new RangeError(`Not a calendar day: ${day}`);
	return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

/** The zone's canonical name (`utc` → `UTC`), or undefined when Intl does not know it. */
export function canonicalTimeZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

/** The calendar day an instant falls on in the zone. */
export function dayOf(instant: Date | number, timeZone: string): string {
	return dayText(wallClock(new Date(instant).getTime(), timeZone));
}

export function nextDay(day: string): string {
	return dayText(parseDay(day) + DAY_MS);
}

/**
 * The instants at which the zone's clocks may show `wall`, earliest first. Any transition near it lies
 * within a day of it, so the offsets in force a day before, at, and a day after it include the one
 * that applies.
 */
function candidateInstants(wall: number, timeZone: string): number[] {
	const offsets = new Set([wall - DAY_MS, wall, wall + DAY_MS].map((t) => wallClock(t, timeZone) - t));
	return [...offsets].map((offset) => wall - offset).sort((a, b) => a - b);
}

/**
 * The first instant of the day in the zone. That is local midnight, except where a daylight-saving
 * jump skips midnight (e.g. America/Santiago): then the day begins when the jump ends.
 */
export function startOfDay(day: string, timeZone: string): number {
	const midnight = parseDay(day);
	const candidates = candidateInstants(midnight, timeZone);
	const start = candidates.find((t) => wallClock(t, timeZone) >= midnight && wallClock(t - 1, timeZone) < midnight);
	return start ?? candidates[candidates.length - 1];
}

/**
 * The instant at which the zone's clocks show the wall-clock time given as the epoch milliseconds of
 * a UTC time with the same fields. A time the zone skips (a daylight-saving jump forward) is read
 * with the offset before the jump, so it lands that far after the jump; one it shows twice (the jump
 * back) is the first.
 */
export function instantOfWallClock(wall: number, timeZone: string): number {
	return candidateInstants(wall, timeZone).find((t) => wallClock(t, timeZone) === wall) ?? wall - (wallClock(wall - DAY_MS, timeZone) - (wall - DAY_MS));
}

/**
 * The instant as ISO 8601 in the zone's wall-clock time with its offset (`2024-05-01T18:00:00.000-05:00`):
 * the same instant as the UTC form, read as the zone's people read it.
 */
export function toZonedIso(instant: number, timeZone: string): string {
	const offsetMinutes = Math.round((wallClock(instant, timeZone) - instant) / 60_000);
	const sign = offsetMinutes < 0 ? '-' : '+';
	const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
	const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
	return `${new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, -1)}${sign}${hours}:${minutes}`;
}

/** The day as an inclusive range of ISO instants (23 or 25 hours long on a daylight-saving day). */
export function dayRange(day: string, timeZone: string): DateRange {
	return {
		from: new Date(startOfDay(day, timeZone)).toISOString(),
		to: new Date(startOfDay(nextDay(day), timeZone) - 1).toISOString(),
	};
}

export function toTimeZone(value: unknown): Check<string> {
	const text = toNonEmptyText(value);
	if (!text.ok) return text;
	const zone = canonicalTimeZone(text.value);
	return zone === undefined
		? { ok: false, problem: `is not an IANA time zone such as Europe/Berlin (got ${preview(text.value)})` }
		: { ok: true, value: zone };
}

/**
 * A calendar day from user input: `2024-03-10` (a time without a zone after it is ignored) is that
 * day; anything that names an instant (`…Z`, an offset, a Date, epoch milliseconds) is the day it
 * falls on in the zone.
 */
export function toCalendarDay(value: unknown, timeZone: string): Check<string> {
	if (typeof value === 'string' && !/(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value.trim())) {
		const match = DAY_PATTERN.exec(value.trim());
		if (match) {
			const day = match.slice(1, 4).join('-');
			return dayText(parseDay(day)) === day
				? { ok: true, value: day }
				: { ok: false, problem: `is not a calendar day (got ${preview(value)})` };
		}
	}
	const instant = toIsoDateTime(value);
	return instant.ok ? { ok: true, value: dayOf(Date.parse(instant.value), timeZone) } : instant;
}
