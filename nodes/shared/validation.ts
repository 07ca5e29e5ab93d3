/** Checks and conversions of user input. Pure: plain values in, plain values out. */

export type Check<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Check<T> => ({ ok: true, value });
const fail = <T>(problem: string): Check<T> => ({ ok: false, problem });

const PREVIEW_LENGTH = 60;

/** A JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short, printable rendering of a bad value for an error message. */
export function preview(value: unknown): string {
	// JSON has no NaN or Infinity: it would show them as null.
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	let text: string;
	try {
		text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
	} catch {
		text = String(value);
	}
	return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}

/**
 * JavaScript rolls an impossible day over into the next month (2024-02-30 becomes March 1st), so
 * the calendar date as written is checked against the month's length.
 */
function impossibleDay(text: string): string | undefined {
	const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text)!.map(Number);
	if (month < 1 || month > 12) return undefined;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return day < 1 || day > daysInMonth ? text.slice(0, 10) : undefined;
}

const ZONE_SUFFIX = /([zZ]|[+-]\d{2}:?\d{2})$/;
/** An ISO 8601 date, alone or with a time, and an optional zone: the only texts read as dates. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[zZ]|[+-]\d{2}:?\d{2})?|[zZ])?$/;

/**
 * A date-time without a zone is UTC, as docs/operations.md promises, whichever separator it uses: the
 * spreadsheet and SQL form `2024-03-10 10:00:00` as much as `2024-03-10T10:00:00`. JavaScript would
 * read both in the n8n host's own zone. The service's own ISO 8601 timestamps are UTC too. Any
 * other text (`+2024-03-10`, `2024-03-10 (Berlin)`, `March 10, 2024`) JavaScript also reads in the
 * host's zone: undefined, not a date.
 */
function asUtcWhenZoneless(text: string): string | undefined {
	const iso = text.replace(/^(\d{4}-\d{2}-\d{2})(?: +|t)(?=\d)/, '$1T');
	if (!ISO_DATE_TIME.test(iso)) return undefined;
	return ZONE_SUFFIX.test(iso) || !iso.includes('T') ? iso : `${iso}Z`;
}

/**
 * A timestamp the service sent, as epoch milliseconds (NaN if unreadable); one without a zone is UTC.
 * Typed `unknown`: a record's date may come null, missing or as a number, and one such record must
 * be skipped by its reader, not throw out of a whole poll or run.
 */
export function parseServiceTime(text: unknown): number {
	if (typeof text !== 'string') return NaN;
	let time = parsedServiceTimes.get(text);
	if (time === undefined) {
		if (parsedServiceTimes.size >= MAX_PARSED_SERVICE_TIMES) parsedServiceTimes.clear();
		const iso = asUtcWhenZoneless(text.trim());
		time = iso === undefined ? NaN : Date.parse(iso);
		parsedServiceTimes.set(text, time);
	}
	return time;
}

/**
 * Times already parsed: a poll reads each fix's time many times (order, fingerprints, every
 * detector), and parsing was an eighth of the package's own CPU in a profile of bench P3. Bounded.
 */
const parsedServiceTimes = new Map<string, number>();
const MAX_PARSED_SERVICE_TIMES = 20_000;

interface DateLike {
	toJSDate?: () => Date;
	toISO?: () => string | null;
}

/**
 * Accepts what an n8n date field or expression can hold — an ISO string, a Date, epoch
 * milliseconds, a Luxon DateTime — and returns ISO 8601 UTC with `Z`, as the API expects.
 */
export function toIsoDateTime(value: unknown, zonelessIn?: (utcFieldsMs: number) => number): Check<string> {
	let date: Date | undefined;
	if (value instanceof Date) {
		date = value;
	} else if (typeof value === 'number' && Number.isFinite(value)) {
		date = new Date(value);
	} else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		// Date.parse accepts "1" or "March" as dates; require at least a calendar date.
		if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return fail(`is not an ISO 8601 date (got ${preview(value)})`);
		const impossible = impossibleDay(text);
		if (impossible) return fail(`is not a valid date: ${impossible} does not exist`);
		const iso = asUtcWhenZoneless(text);
		if (iso === undefined) return fail(`is not an ISO 8601 date (got ${preview(value)})`);
		date = new Date(iso);
		// Node version 2.2: a date-time without a zone is read in the workflow's time zone, as n8n's own nodes read it.
		if (zonelessIn && !ZONE_SUFFIX.test(text)) date = new Date(zonelessIn(date.getTime()));
	} else if (typeof value === 'object' && value !== null && typeof (value as DateLike).toJSDate === 'function') {
		date = (value as DateLike).toJSDate!();
	} else {
		return fail(value === '' || value === undefined || value === null ? 'is empty' : `is not a date (got ${preview(value)})`);
	}
	if (Number.isNaN(date.getTime())) return fail(`is not a valid date (got ${preview(value)})`);
	return ok(date.toISOString());
}

export function toNumberInRange(value: unknown, min: number, max: number): Check<number> {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number)) {
		return fail(`must be a number (got ${preview(value)})`);
	}
	if (number < min || number > max) {
		return fail(max === Infinity ? `must be at least ${min} (got ${number})` : `must be between ${min} and ${max} (got ${number})`);
	}
	return ok(number);
}

/** A whole number of 0 or more. */
export function toCount(value: unknown): Check<number> {
	const number = toNumberInRange(value, 0, Number.MAX_SAFE_INTEGER);
	return number.ok && !Number.isInteger(number.value) ? fail('must be a whole number') : number;
}

export const toLatitude = (value: unknown) => toNumberInRange(value, -90, 90);
export const toLongitude = (value: unknown) => toNumberInRange(value, -180, 180);

export function toNonEmptyText(value: unknown): Check<string> {
	if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
	if (typeof value !== 'string') {
		return fail(value === undefined || value === null ? 'is empty' : `must be text (got ${preview(value)})`);
	}
	return value.trim() === '' ? fail('is empty') : ok(value.trim());
}

/** A non-blank text kept exactly as typed: a device command may need its trailing `\r\n`. */
export function toVerbatimText(value: unknown): Check<string> {
	const text = toNonEmptyText(value);
	return text.ok && typeof value === 'string' ? ok(value) : text;
}

/** Booleans as they come from n8n fields, or as text from expressions over spreadsheet rows. */
export function toBoolean(value: unknown): Check<boolean> {
	if (typeof value === 'boolean') return ok(value);
	// Spreadsheets export booleans as TRUE and FALSE.
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return ok(value.trim().toLowerCase() === 'true');
	return fail(`must be true or false (got ${preview(value)})`);
}

/** Booleans typed as "true, false, true", or given as an array by an expression. */
export function toBooleanList(value: unknown): Check<boolean[]> {
	const entries = typeof value === 'string' ? value.split(',').filter((entry) => entry.trim() !== '') : value;
	if (!Array.isArray(entries)) return fail(`must be a comma-separated list of true/false or an array (got ${preview(value)})`);
	const booleans: boolean[] = [];
	for (const raw of entries) {
		const entry = typeof raw === 'string' ? raw.trim() : raw;
		const flag = toBoolean(entry);
		if (!flag.ok) return fail(`must hold only true or false (got ${preview(entry)})`);
		booleans.push(flag.value);
	}
	return ok(booleans);
}

/** A JSON array of objects, as JSON text from a JSON field or as an array from an expression. */
export function toObjectList(value: unknown): Check<Array<Record<string, unknown>>> {
	let list = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return ok([]);
		try {
			list = JSON.parse(value);
		} catch {
			return fail('is not valid JSON');
		}
	}
	if (!Array.isArray(list) || !list.every(isRecord)) return fail(`must be an array of objects (got ${preview(list)})`);
	return ok(list);
}

/** An optional text: empty when unset, refused when an expression hands over an object or a list. */
export function toOptionalText(value: unknown): Check<string> {
	if (value === undefined || value === null) return ok('');
	if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
	return typeof value === 'string' ? ok(value.trim()) : fail(`must be text (got ${preview(value)})`);
}

/**
 * Servers and proxies refuse a request line of more than a few kB (Node 16 kB, nginx 8 kB) before
 * the service sees it, with a bare 414 or 431; no id comes near this.
 */
const MAX_ID_LENGTH = 1024;

/** An id that fills one path segment: any text but empty, `.` or `..` (URL parsers resolve those). */
export function toResourceId(value: unknown): Check<string> {
	const text = toNonEmptyText(value);
	if (!text.ok) return text;
	if (text.value === '.' || text.value === '..') return fail(`cannot be ${preview(text.value)}`);
	if (text.value.length > MAX_ID_LENGTH) {
		return fail(`is too long for an id (${text.value.length} characters, at most ${MAX_ID_LENGTH}): check what the expression gives`);
	}
	return text;
}

// Deliberately simple: one "@", no spaces, a dot in the domain. The service has the last word.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Unicode format characters (category Cf: zero-width space U+200B, word joiner U+2060, byte order
 * mark U+FEFF, soft hyphen U+00AD…) are invisible and never part of an address: text pasted from a
 * web page or a chat, or the first cell of a CSV export, carries them unseen.
 */
export function withoutFormatCharacters(text: string): string {
	return text.replace(/\p{Cf}/gu, '');
}

/** An e-mail address as sent: without invisible format characters. */
export function toEmail(value: unknown): Check<string> {
	const text = toNonEmptyText(typeof value === 'string' ? withoutFormatCharacters(value) : value);
	if (!text.ok) return text;
	return EMAIL.test(text.value) ? text : fail(`is not an e-mail address (got ${preview(text.value)})`);
}

/** A list typed as comma-separated text in the UI, or given as an array by an expression. */
export function toTextList(value: unknown): Check<string[]> {
	const entries = typeof value === 'string' ? value.split(',') : value;
	if (!Array.isArray(entries)) {
		return fail(`must be a comma-separated list or an array (got ${preview(value)})`);
	}
	const texts: string[] = [];
	for (const entry of entries) {
		if (entry === null || entry === undefined || (typeof entry === 'string' && entry.trim() === '')) continue;
		const text = toNonEmptyText(entry);
		if (!text.ok) return fail(`must hold only texts (got ${preview(entry)})`);
		texts.push(text.value);
	}
	return ok(texts);
}

/** A number above 0. */
export function toPositive(value: unknown): Check<number> {
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	return number.value > 0 ? number : fail(`must be above 0 (got ${number.value})`);
}

/** One of the `allowed` texts, exactly. */
export function toOneOf<T extends string>(value: unknown, allowed: readonly T[]): Check<T> {
	return (allowed as readonly unknown[]).includes(value) ? ok(value as T) : fail(`must be one of ${allowed.join(', ')} (got ${preview(value)})`);
}
