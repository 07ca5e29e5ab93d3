// @host-zones: own
/**
 * Issue 13.5: a date without a zone is UTC in every date field (From/To, Date Time, a user's From
 * and Expires), in the spreadsheet/SQL form `2024-03-10 10:00:00` as in the `T` form, whatever the
 * n8n host's time zone. Each host zone runs in its own process: a jest worker cannot change its zone.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

const FORMS = ['2024-03-10 10:00:00', '2024-03-10T10:00:00'];

interface HostRun {
	date: string;
	zoneOffsetMinutes: number;
	errors: string[];
	sent: unknown[];
}

function sendDatesOnHost(zone: string): HostRun[] {
	let output: string;
	try {
		output = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(__dirname, 'dateWithoutZone.script.ts'), ...FORMS], {
			cwd: ROOT,
			env: { ...process.env, TZ: zone },
			encoding: 'utf8',
			timeout: 120_000,
		});
	} catch (error) {
		// execFileSync's error refers to itself (its `error`), which jest's worker cannot send to the
		// parent: the suite then failed "to run", its reason lost (a CI run on a loaded machine).
		const { message, stderr } = error as { message: string; stderr?: string };
		throw new Error(`the script on a host in ${zone} failed: ${message}\n${String(stderr ?? '').slice(-2000)}`);
	}
	return JSON.parse(output.slice(output.indexOf('[')));
}

it.each(['Europe/Berlin', 'America/New_York'])('on a host in %s, every date field reads both forms as 10:00 UTC', (zone) => {
	const utc = '2024-03-10T10:00:00.000Z';
	const runs = sendDatesOnHost(zone);
	expect(runs.map((run) => run.date)).toEqual(FORMS);
	for (const run of runs) {
		// The host really is off UTC, so reading in the host's zone would show.
		expect(run.zoneOffsetMinutes).not.toBe(0);
		expect(run.errors).toEqual([]);
		expect(run.sent).toEqual([
			{ from: utc, to: utc },
			{ from: utc, to: utc },
			expect.objectContaining({ location: expect.objectContaining({ dateTime: utc }) }),
			expect.objectContaining({ from: utc, expires: utc }),
		]);
	}
});
