/**
 * What every jest suite promises (test/support/hostZones.ts), checked while it runs: it never asks
 * the host's time zone anything. Every JavaScript call whose answer depends on the host's zone is
 * watched in the suite's global object:
 *  - Date's local getters and setters, and its local-time texts (`toString`, `toLocale*` without a
 *    timeZone), also through `Date.prototype.constructor`;
 *  - `Date()` as a function, and `new Date(y, m, …)` from local parts;
 *  - a date-time text without a zone (`new Date('2024-03-10T10:00')`, `Date.parse`), which the
 *    language reads as local time, whatever object holds the text (a String, an array);
 *  - an `Intl.DateTimeFormat` without a timeZone that formats or tells its zone (how luxon finds
 *    the system zone).
 * A suite that makes none of these calls gives the same answers under every host zone.
 *
 * The suite's code, the package's and the libraries' (n8n-core, luxon) all run in that global
 * object, so a call from any of them counts. The environment installs the guard before jest makes
 * its fake timers (test/support/zoneGuardEnvironment.ts), whose fake Date then builds on the
 * watched one, and checks it after the suite's last hook.
 *
 * Not watched: Dates made outside that global object (Node's own realm: `structuredClone`,
 * `v8.deserialize`, `fs.Stats`; `vm`, worker threads, child processes) and reading `process.env.TZ`.
 * test/unit/hostZones.test.ts checks that the package's code uses none of them.
 */
import { runInNewContext } from 'node:vm';

/** The Date of a global object of its own: the guard may be watching this module's. */
const UnwatchedDate = runInNewContext('Date') as DateConstructor;
const unwatchedParse = UnwatchedDate.parse;
const unwatchedGetTime = UnwatchedDate.prototype.getTime;

/** The exact date-only forms of ECMAScript's format (a full date may say Z): read as UTC. Padded or signed otherwise, local. */
const ISO_DATE_ONLY = /^(?:\d{4}|[+-]\d{6})(?:-\d{2}(?:-\d{2}[zZ]?)?)?$/;
/** A time followed by its zone, as the last thing in the text (V8 skips comments in parentheses). */
const ENDS_WITH_ZONE = /\d:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2}|(?:GMT|UTC|UT)(?:[+-]\d{2}:?\d{2})?|[ECMP][SD]T)$/i;

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
	if (ISO_DATE_ONLY.test(text) || ENDS_WITH_ZONE.test(text.replace(/\([^()]*\)/g, '').trim())) return false;
	// A text the engine cannot read is an invalid date under every zone.
	return !Number.isNaN(unwatchedParse(text));
}

/** What `new Date(value)` reads: a Date's time, else the value's primitive (valueOf first). */
function dateArgument(value: unknown): unknown {
	if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
	try {
		return unwatchedGetTime.call(value);
	} catch {
		// Not a Date.
	}
	const object = value as Record<PropertyKey, unknown>;
	const toPrimitive = object[Symbol.toPrimitive];
	if (typeof toPrimitive === 'function') return toPrimitive.call(value, 'default') as unknown;
	for (const method of ['valueOf', 'toString']) {
		const convert = object[method];
		if (typeof convert !== 'function') continue;
		const result = convert.call(value) as unknown;
		if ((typeof result !== 'object' && typeof result !== 'function') || result === null) return result;
	}
	throw new TypeError('Cannot convert object to primitive value');
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
	const replaceMethod = (target: object, name: string, watched: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown) => {
		const methods = target as Record<string, (...args: unknown[]) => unknown>;
		methods[name] = watched(methods[name]);
	};

	const NativeDate = global.Date;
	for (const name of LOCAL_DATE_METHODS) {
		replaceMethod(NativeDate.prototype, name, (original) =>
			function (this: unknown, ...args: unknown[]) {
				record(`Date#${name}`);
				return original.apply(this, args);
			},
		);
	}
	for (const name of LOCALE_DATE_METHODS) {
		replaceMethod(NativeDate.prototype, name, (original) =>
			function (this: unknown, ...args: unknown[]) {
				if (!namesZone(args[1])) record(`Date#${name} without a timeZone`);
				return original.apply(this, args);
			},
		);
	}
	const checkText = (text: unknown, call: string) => {
		if (typeof text === 'string' && readsTextInHostZone(text)) record(`${call} of a date-time without a zone`, `${JSON.stringify(text.slice(0, 40))} `);
	};
	replaceMethod(NativeDate, 'parse', (original) => (value: unknown) => {
		// Date.parse reads its argument as a text: converted here, once, as it would.
		const text = typeof value === 'string' ? value : `${value as string}`;
		checkText(text, 'Date.parse');
		return original.call(NativeDate, text);
	});
	const WatchedDate: DateConstructor = new Proxy(NativeDate, {
		construct(target, args: unknown[], newTarget) {
			if (args.length >= 2) record('new Date(year, month, …) from local parts');
			// Converted here, once, as the constructor would, so that a text inside an object is seen.
			const read = args.length === 1 ? [dateArgument(args[0])] : args;
			checkText(read[0], 'new Date');
			return Reflect.construct(target, read, newTarget) as object;
		},
		apply(target, thisArg, args: unknown[]) {
			record('Date() called as a function (a local-time text)');
			return Reflect.apply(target, thisArg, args) as unknown;
		},
	});
	Object.defineProperty(NativeDate.prototype, 'constructor', { value: WatchedDate, writable: true, configurable: true });
	global.Date = WatchedDate;

	// A formatter without a timeZone is zone-dependent once it formats or tells its zone; asked only
	// for its locale (as luxon does), it is not.
	const NativeFormat = global.Intl.DateTimeFormat;
	const hostZoned = new WeakSet<object>();
	const noteZone = (formatter: object, options: unknown) => {
		if (!namesZone(options)) hostZoned.add(formatter);
		return formatter;
	};
	const WatchedFormat = new Proxy(NativeFormat, {
		construct: (target, args: unknown[], newTarget) => noteZone(Reflect.construct(target, args, newTarget) as object, args[1]),
		apply: (target, thisArg, args: unknown[]) => noteZone(Reflect.apply(target, thisArg, args) as object, args[1]),
	});
	Object.defineProperty(NativeFormat.prototype, 'constructor', { value: WatchedFormat, writable: true, configurable: true });
	global.Intl.DateTimeFormat = WatchedFormat;
	const formatGetter = Object.getOwnPropertyDescriptor(NativeFormat.prototype, 'format')!.get!;
	Object.defineProperty(NativeFormat.prototype, 'format', {
		configurable: true,
		get(this: object) {
			if (hostZoned.has(this)) record('Intl.DateTimeFormat#format without a timeZone');
			return formatGetter.call(this) as unknown;
		},
	});
	for (const name of ['formatToParts', 'formatRange', 'formatRangeToParts']) {
		replaceMethod(NativeFormat.prototype, name, (original) =>
			function (this: object, ...args: unknown[]) {
				if (hostZoned.has(this)) record(`Intl.DateTimeFormat#${name} without a timeZone`);
				return original.apply(this, args);
			},
		);
	}
	const toldZone = () => record("the host's zone from Intl.DateTimeFormat().resolvedOptions()");
	replaceMethod(NativeFormat.prototype, 'resolvedOptions', (original) =>
		function (this: object) {
			const options = original.call(this) as Intl.ResolvedDateTimeFormatOptions;
			if (!hostZoned.has(this)) return options;
			return new Proxy(options, {
				get(target, property) {
					if (property === 'timeZone') toldZone();
					return Reflect.get(target, property) as unknown;
				},
				getOwnPropertyDescriptor(target, property) {
					if (property === 'timeZone') toldZone();
					return Reflect.getOwnPropertyDescriptor(target, property);
				},
			});
		},
	);

	return { calls: () => [...seen].map(([call, first]) => `${call}${first ? `, first: ${first}` : ''}`) };
}
