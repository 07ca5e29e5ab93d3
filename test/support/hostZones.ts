/**
 * Which jest suites depend on the host's time zone. `bash scripts/test-zones.sh` (a step of .ci/run)
 * runs those, and only those, again under each of ZONES; `npm test` runs every suite under the
 * host's zone (UTC in CI). A suite is in the matrix when its file has the line
 *
 *   // @host-zones: matrix
 *
 * `// @host-zones: own` marks a suite that starts its own processes under each of ZONES (it sets
 * `TZ` itself), which the matrix would only repeat, and
 *
 *   // @host-zones: none: <why the host's zone cannot change its outcome>
 *
 * a suite that mentions dates or zones without depending on the host's (instants written with `Z`,
 * zone names as data, clocks for durations only): the matrix would rerun it for nothing, some
 * seconds of CPU each. test/unit/hostZones.test.ts fails when a suite that handles dates, days or
 * time zones (DATE_USE) has none of these lines, or says `none` without a reason, so a new one
 * cannot be left out of the matrix unawares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const ZONES = ['Europe/Berlin', 'America/New_York'];

/** What a suite that may depend on the host's zone mentions: dates, days, zones, clocks. */
export const DATE_USE =
	/\bDate\b|DateTime|[Ll]uxon|[tT]imeZone|\bTZ\b|toLocale|Intl\.|[Mm]idnight|[Zz]oned|FakeTimers|SystemTime|dateTime|\b[Dd]ays?\b|[Tt]oday|clock/;

export type ZoneMark = 'matrix' | 'own' | 'none' | undefined;

const MARK = /^\/\/ @host-zones: (matrix|own|none)\b:?(.*)$/m;

export function zoneMark(text: string): ZoneMark {
	return MARK.exec(text)?.[1] as ZoneMark;
}

/** What follows `none:` on a suite's mark: why the host's zone cannot change its outcome. */
export function zoneMarkReason(text: string): string {
	return MARK.exec(text)?.[2].trim() ?? '';
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
