/**
 * Property (issue 45): for random rosters (case, padding, Unicode forms, invisible format characters,
 * blank and odd columns, duplicates), a roster Preview accepts is one Apply writes without a single
 * refusal by the service, and a second Apply sends nothing. Seeded: SYNC_PROPERTY_SEED=<n> replays
 * or explores; a failure names its seed and trial.
 */
import type { User } from '../../nodes/shared/wire';
import { Rng } from '../../sandbox/random';
import { jsonOf, useSandbox } from '../support/sandboxed';

const SEED = Number(process.env.SYNC_PROPERTY_SEED ?? 45);
const TRIALS = 24;

const FORMAT_CHARACTERS = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u200e', '\u202a'];
/** Each column: values a valid export holds, and (rarely drawn) values no service takes. */
const COUNTRIES = { valid: ['DE', 'de', 'Germany', 'GERMANY', 'DEU', 'FR', ' ES ', 'United States', 'USA'], odd: ['XX', 'Deutschland', ''] };
const TIME_ZONES = { valid: ['Europe/Berlin', 'europe/paris', ' Europe/Madrid ', 'UTC', 'America/New_York'], odd: ['Mars/Base', ''] };
const DISABLED = { valid: ['', '', '', 'false', 'FALSE', 'true', 'TRUE', null], odd: ['yes'] };
const EXPIRES = { valid: ['', '', '', '2031-06-30', '2031-06-30 00:00:00', '2019-01-01', null], odd: ['31/12/2030', 46112] };
const DESCRIPTIONS = { valid: ['', '', 'dispatch', ' operations ', 'Ünïcödé'], odd: [['not', 'text']] };
const NAMES = ['José Álvarez', 'Zoë Brontë', 'Ana', 'Okafor, David', 'Łukasz Żółć'];

describe(`user sync property: what Preview accepts, Apply writes without refusal, then converges (seed ${SEED})`, () => {
	const ctx = useSandbox({ userCount: 2 });

	it(`holds for ${TRIALS} random rosters`, async () => {
		const rng = new Rng(SEED);
		const outcomes = { refusedByPreview: 0, refusedByGuard: 0, applied: 0 };
		for (let trial = 0; trial < TRIALS; trial++) {
			const label = `seed ${SEED}, trial ${trial}`;
			const scopeValue = `prop-${SEED}-${trial}`;
			const people: User[] = Array.from({ length: rng.int(4, 12) }, (_, index) =>
				ctx.sandbox.store.createUser({
					name: rng.pick(NAMES),
					email: `${rng.pick(['jose', 'zoe', 'ana', 'david'])}.${index}.${scopeValue}@hr.example`.normalize(rng.chance(0.3) ? 'NFD' : 'NFC'),
					country: rng.pick(['DE', 'FR', 'US']),
					timeZone: rng.pick(['Europe/Berlin', 'Europe/Paris']),
					tags: { managedBy: scopeValue },
					disabled: rng.chance(0.15),
				}),
			);
			const stayers = people.filter(() => rng.chance(0.8));
			const joiners = Array.from({ length: rng.int(0, 3) }, (_, index) => ({ name: rng.pick(NAMES), email: `joiner${index}.${scopeValue}@hr.example` }));
			const roster = [...stayers, ...joiners].map((person) => ({
				name: pad(rng, rng.chance(0.2) ? person.name.normalize('NFD') : person.name),
				email: pad(rng, invisible(rng, recase(rng, person.email.normalize(rng.pick(['NFC', 'NFD']))))),
				country: rng.chance(0.6) && 'country' in person ? person.country : rng.pick(COUNTRIES.valid),
				timeZone: rng.chance(0.6) && 'timeZone' in person ? person.timeZone : rng.pick(TIME_ZONES.valid),
				suspended: rng.pick(DISABLED.valid),
				contractEnd: rng.pick(EXPIRES.valid),
				department: rng.pick(DESCRIPTIONS.valid),
			}));
			// Now and then one cell no service takes: Preview must refuse it, never Apply half way.
			if (roster.length > 0 && rng.chance(0.3)) {
				const [field, values] = rng.pick([['country', COUNTRIES], ['timeZone', TIME_ZONES], ['suspended', DISABLED], ['contractEnd', EXPIRES], ['department', DESCRIPTIONS]] as const);
				(rng.pick(roster) as Record<string, unknown>)[field] = rng.pick<unknown>(values.odd);
			}
			if (roster.length > 1 && rng.chance(0.1)) roster.push({ ...rng.pick(roster), email: recase(rng, rng.pick(roster).email) });
			const parameters = {
				resource: 'user',
				operation: 'sync',
				scopeTagValue: scopeValue,
				maxLeaversPercent: rng.pick([10, 100, 100, 100]),
				additionalFields: { disabled: '={{ $json.suspended }}', expires: '={{ $json.contractEnd }}', description: '={{ $json.department }}' },
			};

			const preview = await ctx.engine.runNode({ ...parameters, mode: 'preview' }, { items: roster as never[] });
			if (preview.error) {
				expect({ label, message: preview.error.message }).toEqual({ label, message: expect.stringMatching(/^The roster has items that cannot be synced/) });
				outcomes.refusedByPreview++;
				continue;
			}
			const plan = jsonOf(preview.items);
			if (plan.some((item) => item.refusal !== undefined)) {
				outcomes.refusedByGuard++;
				continue;
			}

			ctx.sandbox.resetStats();
			// Held to the plan Preview showed (as an approval step would): same planId, same changes, one write per change.
			const apply = await ctx.engine.runNode({ ...parameters, mode: 'apply', options: { approvedPlan: String(plan[0]?.planId ?? '') } }, { items: roster as never[] });
			const refusals = ctx.sandbox.requestLog.filter((entry) => entry.status >= 400).map((entry) => `${entry.method} ${entry.path} → ${entry.status}`);
			expect({ label, error: apply.error?.message, refusals }).toEqual({ label, error: undefined, refusals: [] });
			const planned = (items: typeof plan) => items.map((item) => [item.action, item.email, item.changes, item.planId]);
			expect({ label, plan: planned(jsonOf(apply.items)) }).toEqual({ label, plan: planned(plan) });
			const writes = ctx.sandbox.requestLog.filter((entry) => entry.method !== 'GET').length;
			expect({ label, writes }).toEqual({ label, writes: plan.filter((item) => item.action !== 'unchanged').length });

			ctx.sandbox.resetStats();
			const again = await ctx.engine.runNode({ ...parameters, mode: 'apply' }, { items: roster as never[] });
			const sent = ctx.sandbox.requestLog.filter((entry) => entry.method !== 'GET').map((entry) => `${entry.method} ${entry.path} ${JSON.stringify(entry.body)}`);
			expect({ label, error: again.error?.message, sent }).toEqual({ label, error: undefined, sent: [] });
			outcomes.applied++;
		}
		// The property is only worth its name when most rosters get through to Apply, and some do not.
		expect(outcomes.applied).toBeGreaterThanOrEqual(TRIALS / 3);
		expect(outcomes.refusedByPreview).toBeGreaterThan(0);
	});
});

function pad(rng: Rng, text: string): string {
	return `${rng.pick(['', ' ', '  ', '\t'])}${text}${rng.pick(['', ' ', '   '])}`;
}

function recase(rng: Rng, text: string): string {
	return [...text].map((char) => (rng.chance(0.3) ? char.toUpperCase() : char)).join('');
}

function invisible(rng: Rng, text: string): string {
	if (!rng.chance(0.4)) return text;
	const at = rng.int(0, text.length);
	return `${text.slice(0, at)}${rng.pick(FORMAT_CHARACTERS)}${text.slice(at)}`;
}
