/**
 * Time zones in the tests. The package must compute the same whatever the zone of the host n8n runs
 * on. Two checks prove it:
 *  - the zone guard (test/support/zoneGuard.ts, in every suite through jest.config.js): a suite
 *    fails when it, the package or a library asks the host's zone anything (a local getter, a
 *    date-time text without a zone, a formatter without a timeZone), naming the call. So a new test
 *    or a change that depends on the host's zone cannot pass unnoticed, under any zone;
 *  - the zone matrix (`bash scripts/test-zones.sh`, a step of .ci/run): the suites about days,
 *    midnights and zones run again under each of ZONES, outcome against outcome. `npm test` runs
 *    every suite under the host's zone (UTC in CI). A suite is in the matrix when its file has the line
 *
 *   // @host-zones: matrix
 *
 * `// @host-zones: own` marks a suite that starts processes under each of ZONES (it sets `TZ` for
 * them): the guard watches only the jest process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const ZONES = ['Europe/Berlin', 'America/New_York'];

export type ZoneMark = 'matrix' | 'own' | undefined;

const MARK = /^\/\/ @host-zones: (matrix|own)\b/m;

export function zoneMark(text: string): ZoneMark {
	return MARK.exec(text)?.[1] as ZoneMark;
}

/** Every jest suite (jest.config.js testMatch: test/, nodes/, sandbox/), relative to the repository. */
export function allSuites(): string[] {
	const suites: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith('.test.ts')) suites.push(relative(ROOT, path));
		}
	};
	for (const dir of ['test', 'nodes', 'sandbox']) walk(join(ROOT, dir));
	return suites.sort();
}

export function suiteText(suite: string): string {
	return readFileSync(join(ROOT, suite), 'utf8');
}
