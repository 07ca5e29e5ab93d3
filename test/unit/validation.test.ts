// @host-zones: matrix
import {
	parseServiceTime,
	preview,
	toBoolean,
	toEmail,
	toIsoDateTime,
	toLatitude,
	toLongitude,
	toNonEmptyText,
	toOptionalText,
	toResourceId,
} from '../../nodes/shared/validation';

describe('toIsoDateTime', () => {
	it.each([
		['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.000Z'],
		['2026-03-01T10:00:00', '2026-03-01T10:00:00.000Z'],
		['2026-03-01T12:00:00+02:00', '2026-03-01T10:00:00.000Z'],
		['2026-03-01', '2026-03-01T00:00:00.000Z'],
		['2026-03-01Z', '2026-03-01T00:00:00.000Z'],
		['2026-03-01t10:00:00z', '2026-03-01T10:00:00.000Z'],
		[Date.UTC(2026, 2, 1, 10), '2026-03-01T10:00:00.000Z'],
		[new Date(Date.UTC(2026, 2, 1, 10)), '2026-03-01T10:00:00.000Z'],
		[{ toJSDate: () => new Date(Date.UTC(2026, 2, 1, 10)) }, '2026-03-01T10:00:00.000Z'],
	])('accepts %p', (input, expected) => {
		expect(toIsoDateTime(input)).toEqual({ ok: true, value: expected });
	});

	it.each([['yesterday'], ['1'], ['2026-13-45'], ['2026-02-30T99:00:00Z'], [''], [null], [undefined], [{}], [NaN], [true], ['2024-03-10 (Berlin)'], ['2024-03-10T10:00 local']])(
		'rejects %p',
		(input) => {
			expect(toIsoDateTime(input).ok).toBe(false);
		},
	);

	it.each([
		['2024-02-30T00:00:00Z', '2024-02-30'],
		['2023-02-29', '2023-02-29'],
		['2024-04-31T10:00:00+02:00', '2024-04-31'],
		['2024-01-00', '2024-01-00'],
	])('rejects %p, which JavaScript would roll over into the next month', (input, day) => {
		expect(toIsoDateTime(input)).toEqual({ ok: false, problem: `is not a valid date: ${day} does not exist` });
	});

	it('accepts February 29th of a leap year', () => {
		expect(toIsoDateTime('2024-02-29T12:00:00Z')).toEqual({ ok: true, value: '2024-02-29T12:00:00.000Z' });
	});

	it('names NaN and Infinity as such, not as null', () => {
		expect(toIsoDateTime(NaN)).toEqual({ ok: false, problem: 'is not a date (got NaN)' });
		expect(toLatitude(Infinity)).toEqual({ ok: false, problem: 'must be a number (got Infinity)' });
	});
});

describe('parseServiceTime', () => {
	const forms: Array<[unknown, number]> = [
		['2024-03-10T10:00:00Z', Date.UTC(2024, 2, 10, 10)],
		['2024-03-10T10:00:00', Date.UTC(2024, 2, 10, 10)],
		['2024-03-10 10:00:00', Date.UTC(2024, 2, 10, 10)],
		[' 2024-03-10T12:00:00+02:00 ', Date.UTC(2024, 2, 10, 10)],
		['2024-03-10', Date.UTC(2024, 2, 10)],
	];

	it.each(forms)('reads %j as UTC unless it names a zone', (text, expected) => {
		expect(parseServiceTime(text)).toBe(expected);
	});

	it('answers NaN for no time, and the same for a text however often it is read', () => {
		for (const value of [null, undefined, 1_700_000_000_000, '', 'soon']) expect(parseServiceTime(value)).toBeNaN();
		// Texts JavaScript would read in the n8n host's zone are not dates.
		for (const value of ['+2024-03-10', '2024-03-10 (UTC)', 'March 10, 2024 10:00', '2024-3-10']) expect(parseServiceTime(value)).toBeNaN();
		// Past the bound of remembered texts (20,000), earlier ones are parsed afresh, to the same time.
		const base = Date.UTC(2024, 0, 1);
		const texts = Array.from({ length: 25_000 }, (_, index) => new Date(base + index * 1000).toISOString().replace('.000Z', ''));
		// Compared in bulk: 50,000 expect() calls cost this suite three seconds of CPU.
		const misread: string[] = [];
		for (let pass = 0; pass < 2; pass++) {
			texts.forEach((text, index) => {
				if (parseServiceTime(text) !== base + index * 1000) misread.push(`pass ${pass + 1}: ${text}`);
			});
		}
		expect(misread).toEqual([]);
		forms.forEach(([text, expected]) => expect(parseServiceTime(text)).toBe(expected));
	});
});

describe('coordinates', () => {
	it('accepts the edges and numeric strings', () => {
		expect(toLatitude(-90)).toEqual({ ok: true, value: -90 });
		expect(toLongitude('180')).toEqual({ ok: true, value: 180 });
	});
	it.each([[91], [-180.0001], [NaN], ['abc'], [''], [null], [Infinity]])('rejects latitude %p', (input) => {
		expect(toLatitude(input).ok).toBe(false);
	});
	it('rejects longitude beyond the antimeridian', () => {
		expect(toLongitude(180.5)).toEqual({ ok: false, problem: 'must be between -180 and 180 (got 180.5)' });
	});
});

describe('ids and texts', () => {
	it('keeps ids with path characters, for the transport to encode', () => {
		expect(toResourceId('../users')).toEqual({ ok: true, value: '../users' });
	});
	it.each([['.'], ['..'], [''], ['   '], [undefined], [{}]])('rejects id %p', (input) => {
		expect(toResourceId(input).ok).toBe(false);
	});
	it('refuses an id too long for any server to take in a path, which would answer a bare 431', () => {
		expect(toResourceId('d'.repeat(1024)).ok).toBe(true);
		expect(toResourceId('d'.repeat(100_000))).toEqual({
			ok: false,
			problem: 'is too long for an id (100000 characters, at most 1024): check what the expression gives',
		});
	});
	it('turns numbers into text and trims', () => {
		expect(toNonEmptyText(42)).toEqual({ ok: true, value: '42' });
		expect(toNonEmptyText('  a ')).toEqual({ ok: true, value: 'a' });
	});
	it('checks e-mail shape', () => {
		expect(toEmail(' Ann@Example.com ')).toEqual({ ok: true, value: 'Ann@Example.com' });
		for (const bad of ['ann', 'ann@', '@example.com', 'a b@example.com', 'ann@example']) {
			expect(toEmail(bad).ok).toBe(false);
		}
	});
	it('drops invisible format characters (Unicode Cf) from an e-mail, as pasted from a web page or chat', () => {
		expect(toEmail('\ufeffann\u200b@exam\u00adple.com\u2060')).toEqual({ ok: true, value: 'ann@example.com' });
		expect(toEmail('\u200b').ok).toBe(false);
	});
	it('shortens huge values in messages', () => {
		expect(preview('x'.repeat(10_000)).length).toBeLessThanOrEqual(61);
	});
});

describe('values of the wrong type from expressions', () => {
	it('takes booleans, and their text from spreadsheet rows', () => {
		expect(toBoolean(true)).toEqual({ ok: true, value: true });
		expect(toBoolean('false')).toEqual({ ok: true, value: false });
		// Spreadsheets export booleans in capitals.
		expect(toBoolean('TRUE')).toEqual({ ok: true, value: true });
		expect(toBoolean(' False ')).toEqual({ ok: true, value: false });
	});
	it.each([['yes'], [1], [null], [{}]])('refuses %p as a boolean instead of reading it as false', (input) => {
		expect(toBoolean(input).ok).toBe(false);
	});
	it('takes an optional text, empty when unset', () => {
		expect(toOptionalText(undefined)).toEqual({ ok: true, value: '' });
		expect(toOptionalText(' SOS ')).toEqual({ ok: true, value: 'SOS' });
		expect(toOptionalText(7)).toEqual({ ok: true, value: '7' });
	});
	it('refuses an object or a list as text instead of sending "[object Object]"', () => {
		expect(toOptionalText({ name: 'SOS' })).toEqual({ ok: false, problem: 'must be text (got {"name":"SOS"})' });
		expect(toOptionalText(['SOS']).ok).toBe(false);
	});
});
