/**
 * Time zones in the tests (test/support/hostZones.ts): the zone guard sees every way of asking the
 * host's zone and fails the suite that does, and the zone matrix of .ci/run (scripts/test-zones.sh)
 * runs exactly the suites marked for it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';

import { allSuites, ROOT, suiteText, zoneMark } from '../support/hostZones';
import { installZoneGuard, readsTextInHostZone } from '../support/zoneGuard';

/** What the guard reports for `code`, run in a global object of its own. */
function callsOf(code: string): string[] {
	const context = createContext({});
	const guard = installZoneGuard(runInContext('globalThis', context) as typeof globalThis);
	runInContext(code, context);
	return guard.calls().map((call) => call.split(', first')[0]);
}

describe('the zone guard', () => {
	it.each([
		['new Date(0).getHours()', 'Date#getHours'],
		['new Date(0).getTimezoneOffset()', 'Date#getTimezoneOffset'],
		['new Date(0).setHours(0, 0, 0, 0)', 'Date#setHours'],
		['`${new Date(0)}`', 'Date#toString'],
		['new Date(0).toLocaleDateString("en")', 'Date#toLocaleDateString without a timeZone'],
		['new Date(2024, 0, 1)', 'new Date(year, month, …) from local parts'],
		['new Date("2024-03-10T10:00:00")', 'new Date of a date-time without a zone'],
		['new Date("March 10, 2024")', 'new Date of a date-time without a zone'],
		['Date.parse("2024-03-10 10:00:00")', 'Date.parse of a date-time without a zone'],
		['Date()', 'Date() called as a function (a local-time text)'],
		['new Intl.DateTimeFormat("en").format(0)', 'Intl.DateTimeFormat#format without a timeZone'],
		['Intl.DateTimeFormat("en", { hour: "numeric" }).formatToParts(0)', 'Intl.DateTimeFormat#formatToParts without a timeZone'],
		['new Intl.DateTimeFormat().resolvedOptions().timeZone', "the host's zone from Intl.DateTimeFormat().resolvedOptions()"],
		['class Day extends Date {}; new Day(2024, 0, 1)', 'new Date(year, month, …) from local parts'],
		['new (new Date(0).constructor)(2024, 0, 1)', 'new Date(year, month, …) from local parts'],
		['new Date(new String("2024-03-10T10:00"))', 'new Date of a date-time without a zone'],
		['new Date(["2024-03-10T10:00"])', 'new Date of a date-time without a zone'],
		['Date.parse({ toString: () => "2024-03-10 10:00" })', 'Date.parse of a date-time without a zone'],
		['Object.getOwnPropertyDescriptor(Date, "parse").value("2024-03-10T10:00")', 'Date.parse of a date-time without a zone'],
		['new Intl.DateTimeFormat.prototype.constructor("en").format(0)', 'Intl.DateTimeFormat#format without a timeZone'],
		[
			'Object.getOwnPropertyDescriptor(new Intl.DateTimeFormat().resolvedOptions(), "timeZone").value',
			"the host's zone from Intl.DateTimeFormat().resolvedOptions()",
		],
	])('sees %s', (code, call) => {
		expect(callsOf(code)).toEqual([call]);
	});

	it('lets every call through that names its zone, or needs none', () => {
		const code = [
			'new Date("2024-03-10T10:00:00Z").getUTCHours()',
			'new Date("2024-03-10T10:00:00.000+02:00").toISOString()',
			'Date.parse("2024-03-10")',
			'Date.parse("Sun, 10 Mar 2024 10:00:00 GMT")',
			'new Date(Date.UTC(2024, 0, 1)).getUTCDate()',
			'new Date(0).toLocaleString("en", { timeZone: "UTC" })',
			'new Date(new Date(0)).getTime()',
			'new Date({ valueOf: () => 0 }).getTime()',
			'new Intl.DateTimeFormat("en", { timeZone: "Europe/Berlin" }).format(0)',
			'new Intl.DateTimeFormat().resolvedOptions().locale',
			'JSON.stringify({ at: new Date(0) })',
			'if (!(new Date(0) instanceof Date)) throw new Error("instanceof")',
			'Date.now()',
		].join(';\n');
		expect(callsOf(code)).toEqual([]);
	});

	it('reads a text as local unless it is an exact ISO date or ends with its zone', () => {
		// Each of these reads differently under TZ=UTC and TZ=Pacific/Kiritimati.
		const local = [
			'2024-03-10T10:00',
			'2024-03-10 10:00:00',
			'2024-3-10',
			'March 10, 2024',
			' 2024-03-10',
			'2024-03-10\t',
			'+2024-03-10',
			'202403',
			'2024-03-10 10:00 (UTC)',
			'(UTC) 2024-03-10 10:00',
			'UTC 2024-03-10 10:00',
		];
		expect(local.filter((text) => !readsTextInHostZone(text))).toEqual([]);
		const zoned = ['2024-03-10', '2024-03-10Z', '2024-03', '+002024-03-10', '2024-03-10T10:00Z', '2024-03-10T10:00:00-0500', 'Sun, 10 Mar 2024 10:00:00 GMT', 'Sun, 10 Mar 2024 10:00:00 EST'];
		expect(zoned.filter(readsTextInHostZone)).toEqual([]);
		expect(['soon', '', '2024-03-10 (Berlin) x'].filter(readsTextInHostZone)).toEqual([]);
	});

	it('fails a jest suite that asks the host zone, also through jest fake timers, and names the call', () => {
		const dir = mkdtempSync(join(tmpdir(), 'zone-guard-'));
		try {
			// In the suite's last hook: the guard checks after it.
			writeFileSync(join(dir, 'asks.probe.js'), "test('x', () => {});\nafterAll(() => { jest.useFakeTimers({ now: 0 }); new Date(2024, 0, 1); jest.useRealTimers(); });\n");
			writeFileSync(join(dir, 'names.probe.js'), "test('x', () => { jest.useFakeTimers({ now: 0 }); new Date(Date.UTC(2024, 0, 1)).getUTCDay(); jest.useRealTimers(); });\n");
			const run = spawnSync(join(ROOT, 'node_modules/.bin/jest'), ['--roots', dir, '--testMatch', '**/*.probe.js', '--ci'], { cwd: ROOT, encoding: 'utf8' });
			const output = `${run.stdout}${run.stderr}`;

			expect(output).toMatch(/FAIL .*asks\.probe\.js/);
			expect(output).toMatch(/PASS .*names\.probe\.js/);
			expect(output).toContain("asks the host's time zone");
			expect(output).toMatch(/new Date\(year, month, …\) from local parts, first: at .*asks\.probe\.js:2/);
			expect(run.status).toBe(1);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

test('every suite runs in the guarded environment', () => {
	// Built, so that this file does not carry the docblock word itself.
	const OWN_ENVIRONMENT = new RegExp(`@${['jest', 'environment'].join('-')}\\b`);
	expect(allSuites().filter((suite) => OWN_ENVIRONMENT.test(suiteText(suite)))).toEqual([]);
});

test("the package's code makes no dates the guard cannot watch, and reads no TZ", () => {
	const UNWATCHED = /structuredClone|v8\.deserialize|worker_threads|node:vm|['"]vm['"]|\.[amc]time\b|env\.TZ|env\[['"]TZ/;
	const files = spawnSync('git', ['ls-files', 'nodes', 'credentials'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n');
	const code = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));

	expect(code.length).toBeGreaterThan(50);
	expect(code.filter((file) => UNWATCHED.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
});

test('a suite marked "own" sets the host zone of the processes it starts', () => {
	const own = allSuites().filter((suite) => zoneMark(suiteText(suite)) === 'own');

	expect(own.length).toBeGreaterThan(0);
	expect(own.filter((suite) => !/\bTZ\b/.test(suiteText(suite)))).toEqual([]);
});

test('the matrix runs exactly the marked suites', () => {
	const listed = spawnSync('bash', [join(ROOT, 'scripts/test-zones.sh'), '--list'], { cwd: ROOT, encoding: 'utf8' });
	const marked = allSuites().filter((suite) => zoneMark(suiteText(suite)) === 'matrix');

	expect(listed.status).toBe(0);
	expect(listed.stdout.trim().split('\n').sort()).toEqual(marked);
	expect(listed.stdout).toContain('test/unit/zonedDay.test.ts');
	expect(listed.stdout).not.toContain('test/unit/hostZones.test.ts');
});

test('no suite focuses a test, which in the matrix would switch off the other suites of its share', () => {
	// The matrix runs several suites in one jest file (test/support/zoneMatrixShare.ts): one `.only`
	// there skips every other suite of that file, and the share still passes.
	const FOCUSED = /\b(?:(?:it|test|describe)\.only|fit|fdescribe)\s*\(/;
	const focused = allSuites().filter((suite) => FOCUSED.test(suiteText(suite)));

	// Written so that this file does not focus a test itself.
	const call = (name: string) => `${name}('x', () => {})`;

	expect(focused).toEqual([]);
	expect(FOCUSED.test(call(['it', 'only'].join('.')))).toBe(true);
	expect(FOCUSED.test(call(['describe', 'only '].join('.')))).toBe(true);
	expect(FOCUSED.test(call('it'))).toBe(false);
});
