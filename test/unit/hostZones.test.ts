// @host-zones: none: it reads the suites' marks; the dates it names are words in them
/**
 * The time-zone matrix of .ci/run (scripts/test-zones.sh) runs only the suites marked for it
 * (test/support/hostZones.ts). This keeps a suite that handles dates, days or zones from being left
 * out, and checks the matrix script picks exactly the marked ones.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { allSuites, DATE_USE, ROOT, suiteText, zoneMark, zoneMarkReason } from '../support/hostZones';

test('every suite that handles dates, days or time zones is marked for the zone matrix', () => {
	const unmarked = allSuites().filter((suite) => DATE_USE.test(suiteText(suite)) && zoneMark(suiteText(suite)) === undefined);

	// Add `// @host-zones: matrix` to these (or `// @host-zones: own` if the suite runs each zone itself).
	expect(unmarked).toEqual([]);
});

test('a suite kept out of the matrix says why the host zone cannot change its outcome', () => {
	const none = allSuites().filter((suite) => zoneMark(suiteText(suite)) === 'none');
	const unexplained = none.filter((suite) => zoneMarkReason(suiteText(suite)).split(/\s+/).length < 5);

	expect(none.length).toBeGreaterThan(0);
	expect(unexplained).toEqual([]);
	expect(zoneMark('// @host-zones: none\n')).toBe('none');
	expect(zoneMarkReason('// @host-zones: none\n')).toBe('');
	expect(zoneMarkReason('// @host-zones: none: instants written with Z only\n')).toBe('instants written with Z only');
});

test('a suite marked "own" sets the host zone of the processes it starts', () => {
	const own = allSuites().filter((suite) => zoneMark(suiteText(suite)) === 'own');

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
