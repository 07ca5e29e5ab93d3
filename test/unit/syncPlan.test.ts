import { duplicateEmails, planSync, type RosterEntry, type SyncSettings } from '../../nodes/shared/syncPlan';
import type { User, UserWrite } from '../../nodes/shared/wire';

const settings: SyncSettings = {
	leavers: 'disable',
	scopeTagKey: 'managedBy',
	scopeTagValue: 'n8n-hr-sync',
	maxLeaversPercent: 10,
	maxLeavers: 0,
	disabledMessage: 'Gone.',
};
const SCOPE = { managedBy: 'n8n-hr-sync' };

const managed = (index: number, fields: Partial<User> = {}): User => ({
	id: `usr-${index}`,
	name: `Person ${index}`,
	email: `p${index}@example.com`,
	country: 'DE',
	timeZone: 'Europe/Berlin',
	tags: { ...SCOPE },
	disabled: false,
	disabledMessage: null,
	...fields,
});

const entry = (itemIndex: number, user: UserWrite): RosterEntry => ({ itemIndex, user });
const rowOf = (user: User): UserWrite => ({ name: user.name, email: user.email, country: user.country, timeZone: user.timeZone });
const rosterOf = (users: User[]) => users.map((user, index) => entry(index, rowOf(user)));
const team = (count: number) => Array.from({ length: count }, (_, index) => managed(index));
const actions = (plan: ReturnType<typeof planSync>) => plan.steps.map((step) => step.action);

describe('planning an HR sync', () => {
	it('creates joiners with the scope tag beside their own tags, and never shows a password', () => {
		const plan = planSync([], [entry(0, { name: 'Ana', email: 'Ana@Example.com', country: 'ES', timeZone: 'Europe/Madrid', tags: { team: 'a' }, password: 'pw', description: null })], settings);
		expect(plan.steps).toEqual([
			{
				action: 'created',
				itemIndex: 0,
				email: 'Ana@Example.com',
				user: { name: 'Ana', email: 'Ana@Example.com', country: 'ES', timeZone: 'Europe/Madrid', tags: { team: 'a', ...SCOPE }, password: 'pw' },
				changes: {
					name: { from: null, to: 'Ana' },
					email: { from: null, to: 'Ana@Example.com' },
					country: { from: null, to: 'ES' },
					timeZone: { from: null, to: 'Europe/Madrid' },
					tags: { from: null, to: { team: 'a', ...SCOPE } },
				},
			},
		]);
		expect(plan.refusal).toBeUndefined();
	});

	it('matches e-mails in any case, spacing or Unicode form and patches only the fields that differ', () => {
		const user = managed(1, { email: 'jose\u0301@example.com', tags: { ...SCOPE, team: 'b' } });
		const plan = planSync([user], [entry(4, { ...rowOf(user), email: '  JOSÉ@example.com ', timeZone: 'Europe/Paris' })], settings);
		expect(plan.steps).toEqual([
			{
				action: 'updated',
				itemIndex: 4,
				userId: 'usr-1',
				email: user.email,
				patch: [{ op: 'replace', path: '/timeZone', value: 'Europe/Paris' }],
				changes: { timeZone: { from: 'Europe/Berlin', to: 'Europe/Paris' } },
			},
		]);
	});

	it('keeps the scope tag when the roster gives tags, and leaves tags alone when it gives none', () => {
		const user = managed(1, { tags: { ...SCOPE, team: 'b' } });
		const retagged = planSync([user], [entry(0, { ...rowOf(user), tags: { team: 'c' } })], settings);
		expect(retagged.steps[0]).toMatchObject({ action: 'updated', changes: { tags: { from: { ...SCOPE, team: 'b' }, to: { team: 'c', ...SCOPE } } } });
		expect(actions(planSync([user], [entry(0, rowOf(user))], settings))).toEqual(['unchanged']);
	});

	it('treats a country written another way as the same country once the service list is known', () => {
		const user = managed(1, { country: 'USA' });
		const roster = [entry(0, { ...rowOf(user), country: 'United States' })];
		expect(actions(planSync([user], roster, settings))).toEqual(['updated']);
		expect(actions(planSync([user], roster, settings, { US: 'United States', DE: 'Germany' }))).toEqual(['unchanged']);
	});

	it('enables a managed user who is back, unless the roster itself says disabled', () => {
		const back = managed(1, { disabled: true, disabledMessage: 'Gone.' });
		const suspended = managed(2, { disabled: true, disabledMessage: 'Suspended.' });
		const plan = planSync([back, suspended, ...team(30).slice(3)], [
			entry(0, rowOf(back)),
			entry(1, { ...rowOf(suspended), disabled: true }),
			...rosterOf(team(30).slice(3)).map((step, index) => ({ ...step, itemIndex: index + 2 })),
		], settings);
		expect(plan.steps[0]).toMatchObject({
			action: 'enabled',
			patch: [
				{ op: 'replace', path: '/disabled', value: false },
				{ op: 'remove', path: '/disabledMessage' },
			],
			changes: { disabled: { from: true, to: false }, disabledMessage: { from: 'Gone.', to: null } },
		});
		expect(plan.steps[1].action).toBe('unchanged');
	});

	it('notes a returner that an old expiry or a start still to come keeps out, and nobody else', () => {
		const now = Date.UTC(2026, 5, 1);
		const expired = managed(1, { disabled: true, disabledMessage: 'Gone.', expires: '2025-12-31T00:00:00.000Z' });
		const notStarted = managed(2, { disabled: true, disabledMessage: 'Gone.', from: '2027-01-01T00:00:00.000Z' });
		const back = managed(3, { disabled: true, disabledMessage: 'Gone.', expires: '2027-01-01T00:00:00.000Z' });
		const plan = planSync([expired, notStarted, back], rosterOf([expired, notStarted, back]), settings, undefined, now);
		expect(plan.steps.map((step) => [step.action, 'note' in step ? step.note : undefined])).toEqual([
			['enabled', 'Still cannot sign in after this: their access expired on 2025-12-31T00:00:00.000Z. Map Expires in the roster (blank clears it) or change it with User → Update.'],
			['enabled', 'Still cannot sign in after this: their access starts on 2027-01-01T00:00:00.000Z. Map From in the roster (blank clears it) or change it with User → Update.'],
			['enabled', undefined],
		]);
	});

	it('leaves users outside the scope out of the leavers, and never enables one disabled by hand', () => {
		const admin = managed(90, { tags: { role: 'admin' } });
		const otherScope = managed(91, { tags: { managedBy: 'other-sync' } });
		const handLocked = managed(92, { tags: {}, disabled: true, disabledMessage: 'Locked by IT.' });
		const plan = planSync([admin, otherScope, handLocked, managed(1)], [entry(0, rowOf(handLocked)), entry(1, rowOf(managed(1)))], {
			...settings,
			leavers: 'delete',
		});
		expect(actions(plan)).toEqual(['unchanged', 'unchanged']);
	});

	it('never changes access fields of a user outside the scope, and notes what it left alone', () => {
		const admin = managed(90, { tags: { role: 'admin' }, privileges: ['read', 'write'], adminDevices: 5 });
		const plan = planSync([admin], [entry(0, { ...rowOf(admin), name: 'Root', expires: '2020-01-01T00:00:00Z', privileges: ['read'], adminDevices: null, disabled: null } as unknown as UserWrite)], settings);
		expect(plan.steps).toEqual([
			expect.objectContaining({
				action: 'updated',
				patch: [{ op: 'replace', path: '/name', value: 'Root' }],
				note: expect.stringMatching(/^Left alone: expires, privileges, adminDevices\. This user has no managedBy: n8n-hr-sync tag/),
			}),
		]);
	});

	it('a roster entry never takes a user into the scope, nor out of another: the tags of a user outside it are left alone', () => {
		const handMade = managed(5, { tags: { team: 'x' } });
		const otherSync = managed(6, { tags: { managedBy: 'other-sync' } });
		const plan = planSync([handMade, otherSync], [entry(0, { ...rowOf(handMade), tags: { team: 'x', ...SCOPE } }), entry(1, { ...rowOf(otherSync), tags: { team: 'y' } })], settings);
		expect(plan.steps).toEqual([
			expect.objectContaining({ action: 'unchanged', note: expect.stringMatching(/^Left alone: tags\. This user has no managedBy: n8n-hr-sync tag/) }),
			expect.objectContaining({ action: 'unchanged', note: expect.stringMatching(/^Left alone: tags\./) }),
		]);
	});

	it('disables, deletes or ignores the managed users absent from the roster', () => {
		const users = [...team(20), managed(50, { disabled: true, disabledMessage: 'Gone.' })];
		const roster = rosterOf(users.slice(0, 18));
		const disabled = planSync(users, roster, settings);
		expect(disabled.steps.slice(18)).toEqual([
			{
				action: 'disabled',
				userId: 'usr-18',
				email: 'p18@example.com',
				patch: [
					{ op: 'replace', path: '/disabled', value: true },
					{ op: 'replace', path: '/disabledMessage', value: 'Gone.' },
				],
				changes: { disabled: { from: false, to: true }, disabledMessage: { from: null, to: 'Gone.' } },
			},
			expect.objectContaining({ action: 'disabled', userId: 'usr-19' }),
		]);
		expect(disabled.refusal).toBeUndefined();
		const deleted = planSync(users, roster, { ...settings, leavers: 'delete' });
		expect(deleted.steps.slice(18)).toEqual([
			{ action: 'deleted', userId: 'usr-18', email: 'p18@example.com', changes: {} },
			{ action: 'deleted', userId: 'usr-19', email: 'p19@example.com', changes: {} },
			{ action: 'deleted', userId: 'usr-50', email: 'p50@example.com', changes: {} },
		]);
		expect(deleted.refusal).toBeUndefined();
		expect(actions(planSync(users, roster, { ...settings, leavers: 'ignore' }))).toEqual(roster.map(() => 'unchanged'));
	});

	it('never counts a managed user whose e-mail is on the roster as a leaver, even a second account with that e-mail', () => {
		const twin = managed(7, { id: 'usr-twin' });
		const plan = planSync([managed(7), twin], [entry(0, rowOf(managed(7)))], settings);
		expect(actions(plan)).toEqual(['unchanged']);
	});

	describe('maxLeaversPercent', () => {
		it('refuses an empty roster and a half roster', () => {
			const users = team(40);
			const empty = planSync(users, [], settings);
			expect(empty.refusal).toMatch(/^Too many leavers: 40 of the 40 managed users who can sign in today would lose access \(100%: 40 disabled as absent from the roster\), more than Max Leavers Percent allows \(10%, at most 4\)/);
			expect(actions(empty)).toEqual(users.map(() => 'disabled'));
			expect(planSync(users, rosterOf(users.slice(0, 20)), { ...settings, leavers: 'delete' }).refusal).toMatch(/20 of the 40 managed users who can sign in today would lose access \(50%: 20 deleted as absent/);
		});

		it('allows exactly the share, refuses one more, and always allows one leaver', () => {
			const users = team(40);
			expect(planSync(users, rosterOf(users.slice(0, 36)), settings).refusal).toBeUndefined();
			expect(planSync(users, rosterOf(users.slice(0, 35)), settings).refusal).toMatch(/5 of the 40 managed/);
			expect(planSync(team(3), rosterOf(team(2)), { ...settings, maxLeaversPercent: 0 }).refusal).toBeUndefined();
			expect(planSync(team(1), [], settings).refusal).toBeUndefined();
			expect(planSync(team(2), [], settings).refusal).toMatch(/2 of the 2 managed/);
			expect(planSync(users, [], { ...settings, maxLeaversPercent: 100 }).refusal).toBeUndefined();
			expect(planSync(users, [], { ...settings, leavers: 'ignore' }).refusal).toBeUndefined();
		});

		it('counts managed users the roster itself marks disabled, and never changes the access of users outside the scope', () => {
			const users = [...team(20), managed(90, { tags: { role: 'admin' } })];
			const everyoneOff = users.map((user, index) => entry(index, { ...rowOf(user), disabled: true }));
			expect(planSync(users, everyoneOff, settings).refusal).toMatch(/20 of the 20 managed users who can sign in today would lose access \(100%: 20 marked disabled by the roster\)/);
			const mixed = planSync(users, everyoneOff.slice(2, 19), { ...settings, maxLeaversPercent: 100 });
			expect(mixed.refusal).toBeUndefined();
			expect(mixed.steps.slice(17).map((step) => [step.action, 'userId' in step && step.userId])).toEqual([
				['disabled', 'usr-0'],
				['disabled', 'usr-1'],
				['disabled', 'usr-19'],
			]);
			const adminOff = planSync(users, [...rosterOf(team(20)), entry(20, { ...rowOf(users[20]), disabled: true, disabledMessage: 'Bye.' })], settings);
			expect(adminOff.steps[20]).toMatchObject({ action: 'unchanged', userId: 'usr-90' });
			expect(planSync(users, everyoneOff.slice(0, 19), { ...settings, leavers: 'ignore' }).refusal).toMatch(/19 marked disabled by the roster\)/);
		});

		it('compares the share exactly as typed and caps the number with maxLeavers', () => {
			const users = team(375);
			expect(planSync(users, rosterOf(users.slice(0, 375 - 69)), { ...settings, maxLeaversPercent: 18.4 }).refusal).toBeUndefined();
			expect(planSync(users, rosterOf(users.slice(0, 375 - 70)), { ...settings, maxLeaversPercent: 18.4 }).refusal).toMatch(/\(18\.7%: 70 disabled .*allows \(18\.4%, at most 69\)/);
			// 0.1 + 0.2 is typed 0.3: 3 of 1000 is exactly at the limit.
			expect(planSync(team(1000), rosterOf(team(997)), { ...settings, maxLeaversPercent: 0.1 + 0.2 }).refusal).toBeUndefined();
			expect(planSync(team(40), rosterOf(team(37)), { ...settings, maxLeavers: 2 }).refusal).toMatch(/more than Max Leavers allows \(2\)\. .*raise Max Leavers for one run/);
			expect(planSync(team(40), rosterOf(team(30)), { ...settings, maxLeavers: 2 }).refusal).toMatch(/more than Max Leavers Percent allows \(10%, at most 4\) and Max Leavers allows \(2\)/);
			expect(planSync(team(40), rosterOf(team(38)), { ...settings, maxLeavers: 2 }).refusal).toBeUndefined();
		});

		it('counts an expiry in the past or a start in the future as losing access, and expired users as not signing in', () => {
			const now = Date.parse('2026-01-01T00:00:00Z');
			const users = team(10);
			const expiring = users.map((user, index) => entry(index, { ...rowOf(user), expires: index < 2 ? '2025-12-31T00:00:00Z' : null }));
			expect(planSync(users, expiring, settings, undefined, now).refusal).toMatch(/2 of the 10 .*2 locked out by the roster's Expires or From/);
			const starting = users.map((user, index) => entry(index, { ...rowOf(user), from: index < 2 ? '2026-02-01T00:00:00Z' : null }));
			expect(planSync(users, starting, settings, undefined, now).refusal).toMatch(/2 locked out by the roster's Expires or From/);
			const alreadyExpired = [...team(10), ...Array.from({ length: 20 }, (_, index) => managed(100 + index, { expires: '2020-01-01T00:00:00Z' }))];
			expect(planSync(alreadyExpired, rosterOf(team(10)), settings, undefined, now).refusal).toBeUndefined();
		});

		it('counts only who would lose access: years of disabled leavers never dilute the share', () => {
			const formerStaff = Array.from({ length: 500 }, (_, index) => managed(1000 + index, { disabled: true, disabledMessage: 'Gone.' }));
			const users = [...team(30), ...formerStaff];
			expect(planSync(users, [], settings).refusal).toMatch(/30 of the 30 managed users/);
			// Deleting people who already cannot sign in takes nobody's access.
			const cleanup = planSync(users, rosterOf(team(30)), { ...settings, leavers: 'delete' });
			expect(cleanup.refusal).toBeUndefined();
			expect(cleanup.steps.filter((step) => step.action === 'deleted')).toHaveLength(500);
		});
	});
});

describe('checking a roster', () => {
	it('names every e-mail that appears more than once, with its items', () => {
		const row = (email: string): UserWrite => ({ name: 'X', email, country: 'DE', timeZone: 'Europe/Berlin' });
		expect(duplicateEmails([entry(0, row('a@example.com')), entry(1, row('b@example.com'))])).toEqual([]);
		expect(
			duplicateEmails([
				entry(0, row('a@example.com')),
				entry(1, row(' A@EXAMPLE.com')),
				entry(2, row('b@example.com')),
				entry(3, row('josé@example.com')),
				entry(5, row('jose\u0301@example.com')),
				entry(6, row('a@example.com')),
			]),
		).toEqual([
			{ email: 'a@example.com', items: [0, 1, 6] },
			{ email: 'josé@example.com', items: [3, 5] },
		]);
	});
});
