/**
 * What every jest suite promises (test/support/hostZones.ts), checked while it runs: it never asks
 * the host's time zone anything. Every JavaScript call whose answer depends on the
 * host's zone is watched in the suite's global object: Date's local getters and setters and its
 * local-time texts (`toString`, `toLocale*` without a timeZone), `Date()` as a function,
 * `new Date(y, m, …)` from local parts, a date-time text without a zone (`new Date('2024-03-10T10:00')`,
 * `Date.parse`: local by the language's rules), and an `Intl.DateTimeFormat` without a timeZone that
 * formats or tells its zone (how luxon finds the system zone). A suite that makes none of these calls
 * gives the same answers under every host zone.
 *
 * The suite's code, the package's and the libraries' (n8n-core, luxon) all run in that global object,
 * so a call from any of them counts. It is installed before jest makes its fake timers
 * (test/support/zoneGuardEnvironment.ts), whose fake Date then builds on the watched one.
 */
import { runInNewContext } from 'node:vm';

/** Date.parse of a global object of its own: the guard may be watching this module's. */
const unwatchedParse = (runInNewContext('Date') as DateConstructor).parse;

/** Date-time texts the language reads the same under every zone: with a zone, or a date alone (UTC). */
const ZONED_TEXT = /\d:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)\s*$|\b(?:GMT|UTC|UT)\b/i;
const DATE_ONLY_TEXT = /^\s*[+-]?\d{4,6}(?:-\d{2}(?:-\d{2})?)?\s*$/;

const LOCAL_DATE_METHODS = [
	'getFullYear',
	'getYear',
	'getMonth',
	'getDate',
	'getDay',
	'getHours',
	'getMinutes',
	// Seconds too: offsets before about 1900 (local mean time) have seconds of their own.
	'getSeconds',
	'getTimezoneOffset',
	'setFullYear',
	'setYear',
	'setMonth',
	'setDate',
	'setHours',
	'setMinutes',
	// Local setters rebuild the instant from local parts: in a repeated hour (DST ending), even
	// seconds and milliseconds can move it by the hour.
	'setSeconds',
	'setMilliseconds',
	'toString',
	'toDateString',
	'toTimeString',
] as const;

/** Local unless their options name a `timeZone`. */
const LOCALE_DATE_METHODS = ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString'] as const;

export interface ZoneGuard {
	/** The zone-dependent calls seen so far, each once, with the first place it came from. */
	calls(): string[];
}

const namesZone = (options: unknown) => typeof options === 'object' && options !== null && (options as Intl.DateTimeFormatOptions).timeZone !== undefined;

/** Whether `new Date(text)` or `Date.parse(text)` reads `text` in the host's zone. */
export function readsTextInHostZone(text: string): boolean {
	if (DATE_ONLY_TEXT.test(text) || ZONED_TEXT.test(text)) return false;
	// A text the engine cannot read is an invalid date under every zone.
	return !Number.isNaN(unwatchedParse(text));
}

const ZONE_GUARD = Symbol.for('satellite-tracking.test.zone-guard');

/** The guard of the running suite (called from inside it). */
export function suiteZoneGuard(): ZoneGuard {
	const guard = (globalThis as { [ZONE_GUARD]?: ZoneGuard })[ZONE_GUARD];
	if (!guard) throw new Error('no zone guard: jest.config.js must use test/support/zoneGuardEnvironment.ts');
	return guard;
}

/** Watches the zone-dependent calls of `global` (a jest suite's global object) from now on. */
export function installZoneGuard(global: typeof globalThis): ZoneGuard {
	const seen = new Map<string, string>();
	const record = (call: string, detail = '') => {
		if (seen.has(call)) return;
		const frames = (new Error().stack ?? '').split('\n').slice(1);
		const origin = frames.find((frame) => !/zoneGuard|fake-timers|\(<anonymous>\)/.test(frame)) ?? '';
		seen.set(call, `${detail}${origin.trim()}`);
	};

	const NativeDate = global.Date;
	const proto = NativeDate.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
	for (const name of LOCAL_DATE_METHODS) {
		const original = proto[name];
		proto[name] = function (this: unknown, ...args: unknown[]) {
			record(`Date#${name}`);
			return original.apply(this, args);
		};
	}
	for (const name of LOCALE_DATE_METHODS) {
		const original = proto[name];
		proto[name] = function (this: unknown, ...args: unknown[]) {
			if (!namesZone(args[1])) record(`Date#${name} without a timeZone`);
			return original.apply(this, args);
		};
	}
	const parse = (text: unknown, call: string) => {
		if (typeof text === 'string' && readsTextInHostZone(text)) record(`${call} of a date-time without a zone`, `${JSON.stringify(text.slice(0, 40))} `);
	};
	const guardedParse = (text: string) => {
		parse(text, 'Date.parse');
		return NativeDate.parse(text);
	};
	const WatchedDate: DateConstructor = new Proxy(NativeDate, {
		construct(target, args: unknown[], newTarget) {
			if (args.length >= 2) record('new Date(year, month, …) from local parts');
			else parse(args[0], 'new Date');
			return Reflect.construct(target, args, newTarget) as object;
		},
		apply(target, thisArg, args: unknown[]) {
			record('Date() called as a function (a local-time text)');
			return Reflect.apply(target, thisArg, args) as unknown;
		},
		get(target, property) {
			return property === 'parse' ? guardedParse : (Reflect.get(target, property, target) as unknown);
		},
	});
	global.Date = WatchedDate;

	// A formatter without a timeZone is zone-dependent once it formats or tells its zone; asked only
	// for its locale (as luxon does), it is not.
	const NativeFormat = global.Intl.DateTimeFormat;
	const hostZoned = new WeakSet<object>();
	const noteZone = (formatter: object, options: unknown) => {
		if (!namesZone(options)) hostZoned.add(formatter);
		return formatter;
	};
	global.Intl.DateTimeFormat = new Proxy(NativeFormat, {
		construct: (target, args: unknown[], newTarget) => noteZone(Reflect.construct(target, args, newTarget) as object, args[1]),
		apply: (target, thisArg, args: unknown[]) => noteZone(Reflect.apply(target, thisArg, args) as object, args[1]),
	});
	const formatProto = NativeFormat.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
	const formatGetter = Object.getOwnPropertyDescriptor(NativeFormat.prototype, 'format')!.get!;
	Object.defineProperty(NativeFormat.prototype, 'format', {
		configurable: true,
		get(this: object) {
			if (hostZoned.has(this)) record('Intl.DateTimeFormat#format without a timeZone');
			return formatGetter.call(this) as unknown;
		},
	});
	for (const name of ['formatToParts', 'formatRange', 'formatRangeToParts'] as const) {
		const original = formatProto[name];
		formatProto[name] = function (this: object, ...args: unknown[]) {
			if (hostZoned.has(this)) record(`Intl.DateTimeFormat#${name} without a timeZone`);
			return original.apply(this, args);
		};
	}
	const resolvedOptions = formatProto.resolvedOptions;
	formatProto.resolvedOptions = function (this: object) {
		const options = resolvedOptions.call(this) as Intl.ResolvedDateTimeFormatOptions;
		if (!hostZoned.has(this)) return options;
		return new Proxy(options, {
			get(target, property) {
				if (property === 'timeZone') record("the host's zone from Intl.DateTimeFormat().resolvedOptions()");
				return Reflect.get(target, property) as unknown;
			},
		});
	};

	const guard: ZoneGuard = { calls: () => [...seen].map(([call, first]) => `${call}${first ? `, first: ${first}` : ''}`) };
	(global as { [ZONE_GUARD]?: ZoneGuard })[ZONE_GUARD] = guard;
	return guard;
}
