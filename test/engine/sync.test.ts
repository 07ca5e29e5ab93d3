import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { User } from '../../nodes/shared/wire';
import { jsonOf, useSandbox } from '../support/sandboxed';

interface Row {
	name: string;
	email: string;
	country: string;
	timeZone: string;
}

/** The example's CSV as n8n's Extract From File reads it: a header row, commas, double-quoted fields. */
function csvRows(csv: string): Array<Record<string, string>> {
	const [header, ...lines] = csv
		.trim()
		.split('\n')
		.map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((match) => match[1].replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1));
	return lines.map((cells) => Object.fromEntries(header.map((column, index) => [column, cells[index]])));
}

type UserBody = { tags?: Record<string, string> };

const rowOf = (user: User): Row => ({ name: user.name, email: user.email, country: user.country, timeZone: user.timeZone });

describe('user sync (HR roster: joiners, movers, leavers)', () => {
	const ctx = useSandbox({ userCount: 12 });
	beforeEach(() => ctx.sandbox.resetStats());

	/** Each test manages its own people under its own scope value, beside the seeded (unmanaged) users. */
	let scope = 0;
	const newScope = () => `hr-sync-test-${++scope}`;
	const managedUsers = (scopeValue: string, count: number, disabledCount = 0): User[] =>
		Array.from({ length: count }, (_, index) =>
			ctx.sandbox.store.createUser({
				name: `Person ${scopeValue} ${index}`,
				email: `person${index}.${scopeValue}@hr.example`,
				country: 'DE',
				timeZone: 'Europe/Berlin',
				tags: { managedBy: scopeValue, department: 'dispatch' },
				disabled: index < disabledCount,
				disabledMessage: index < disabledCount ? 'Left the company.' : null,
			}),
		);
	const syncParameters = (scopeValue: string, extra: Record<string, unknown> = {}) => ({
		resource: 'user',
		operation: 'sync',
		mode: 'apply',
		scopeTagValue: scopeValue,
		...extra,
	});
	const methods = () => ctx.sandbox.requestLog.filter((entry) => !entry.path.startsWith('/api/Auth')).map((entry) => entry.method);
	const requests = () => ctx.sandbox.requestLog.filter((entry) => !entry.path.startsWith('/api/Auth')).map((entry) => `${entry.method} ${entry.path}`);
	/** The listing, and the service's lists of countries and time zones a joiner's are checked against. */
	const READS_WITH_JOINER = ['GET /api/users', 'GET /api/users/countries', 'GET /api/users/timeZones'];
	const userWrites = () => ctx.sandbox.writes.filter((write) => write.resource === 'user');
	const calls = (route: string) => ctx.sandbox.stats.byRoute[route] ?? 0;

	it('creates joiners, updates movers, enables returners and disables leavers in one run; a second run sends nothing', async () => {
		const scopeValue = newScope();
		// 2 disabled earlier (they come back), 30 who can sign in (2 of them leave: under 10%).
		const people = managedUsers(scopeValue, 32, 2);
		const admin = ctx.sandbox.store.createUser({
			name: 'Root Admin',
			email: 'root.admin@hr.example',
			country: 'US',
			timeZone: 'America/New_York',
			tags: { role: 'admin' },
		});
		const [returners, stayers, leavers] = [people.slice(0, 2), people.slice(2, 30), people.slice(30)];
		const roster: Row[] = [
			{ ...rowOf(returners[0]) },
			{ ...rowOf(returners[1]), timeZone: 'Europe/Paris', country: 'FR' },
			...stayers.map((user, index) => (index < 3 ? { ...rowOf(user), name: `${user.name} (moved)` } : { ...rowOf(user), email: ` ${user.email.toUpperCase()}` })),
			{ name: 'New Hire', email: 'new.hire@hr.example', country: 'ES', timeZone: 'Europe/Madrid' },
			{ name: 'Second Hire', email: 'second.hire@hr.example', country: 'Germany', timeZone: 'Europe/Berlin' },
		];

		const { items, error } = await ctx.engine.runNode(syncParameters(scopeValue), { items: roster as never[] });
		expect(error).toBeUndefined();
		const output = jsonOf(items);
		expect(output.map((item) => item.action)).toEqual([
			'enabled',
			'enabled',
			...stayers.map((_, index) => (index < 3 ? 'updated' : 'unchanged')),
			'created',
			'created',
			'disabled',
			'disabled',
		]);
		// Roster items pair with their input item; leavers come from no item.
		expect(items.map((item) => item.pairedItem)).toEqual([...roster.map((_, item) => ({ item })), undefined, undefined]);
		expect(output.slice(-2).map((item) => item.email)).toEqual(leavers.map((user) => user.email));
		expect(output[1].changes).toEqual({
			country: { from: 'DE', to: 'FR' },
			timeZone: { from: 'Europe/Berlin', to: 'Europe/Paris' },
			disabled: { from: true, to: false },
			disabledMessage: { from: 'Left the company.', to: null },
		});
		expect(output[2].changes).toEqual({ name: { from: stayers[0].name, to: `${stayers[0].name} (moved)` } });

		// One listing (and the country list, since a country changed), one write per change.
		expect(calls('GET /api/users')).toBe(1);
		expect(calls('POST /api/users')).toBe(2);
		expect(calls('PATCH /api/users/{userId}')).toBe(2 + 3 + 2);
		expect(calls('DELETE /api/users/{userId}')).toBe(0);

		const stored = (user: User) => ctx.sandbox.store.getUser(user.id)!;
		expect(leavers.map(stored).map((user) => [user.disabled, user.disabledMessage])).toEqual([
			[true, expect.stringContaining('no longer on the HR roster')],
			[true, expect.stringContaining('no longer on the HR roster')],
		]);
		expect(returners.map(stored).map((user) => [user.disabled, user.disabledMessage])).toEqual([
			[false, null],
			[false, null],
		]);
		expect(stored(admin)).toEqual(admin);
		const hire = ctx.sandbox.store.listUsers().find((user) => user.email === 'new.hire@hr.example')!;
		expect(hire.tags).toEqual({ managedBy: scopeValue });
		expect(output.at(-4)).toMatchObject({ action: 'created', userId: hire.id, email: 'new.hire@hr.example', mode: 'apply' });

		// The same roster again: everyone unchanged, the leavers already disabled, nothing written.
		ctx.sandbox.resetStats();
		const again = await ctx.engine.runNode(syncParameters(scopeValue), { items: roster as never[] });
		expect(jsonOf(again.items).map((item) => item.action)).toEqual(roster.map(() => 'unchanged'));
		expect(userWrites()).toHaveLength(0);
		expect(methods()).toEqual(['GET']);
	});

	it('preview (the default) outputs the plan and writes nothing', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 20);
		const roster = [...people.slice(0, 18).map(rowOf), { name: 'Joiner', email: 'joiner.preview@hr.example', country: 'DE', timeZone: 'Europe/Berlin' }];
		roster[0] = { ...roster[0], name: 'Renamed' };
		const { items, error } = await ctx.engine.runNode(syncParameters(scopeValue, { mode: undefined }), { items: roster as never[] });
		expect(error).toBeUndefined();
		const output = jsonOf(items);
		expect(output.map((item) => item.action)).toEqual(['updated', ...roster.slice(1, 18).map(() => 'unchanged'), 'created', 'disabled', 'disabled']);
		expect(output.every((item) => item.mode === 'preview' && item.refusal === undefined)).toBe(true);
		expect(output[18]).toMatchObject({ userId: null, changes: { name: { from: null, to: 'Joiner' }, tags: { from: null, to: { managedBy: scopeValue } } } });
		expect(output[19]).toMatchObject({ userId: people[18].id, changes: { disabled: { from: false, to: true } } });
		expect(requests()).toEqual(READS_WITH_JOINER);
		expect(userWrites()).toHaveLength(0);
	});

	it('refuses a half roster: nothing written in apply, and preview shows the plan saying apply would refuse it', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 30);
		const half = people.slice(0, 15).map(rowOf);
		half.push({ name: 'Joiner', email: 'joiner.half@hr.example', country: 'DE', timeZone: 'Europe/Berlin' });

		const applied = await ctx.engine.runNode(syncParameters(scopeValue), { items: half as never[] });
		expect(applied.error?.message).toBe(
			'Too many leavers: 15 of the 30 managed users who can sign in today would lose access (50%: 15 disabled as absent from the roster), more than Max Leavers Percent allows (10%, at most 3). ' +
				'An empty or partial HR export looks like this: check that the roster is complete. If these people did leave, raise Max Leavers Percent for one run. Nothing was written.',
		);
		expect(requests()).toEqual(READS_WITH_JOINER);

		const previewed = await ctx.engine.runNode(syncParameters(scopeValue, { mode: 'preview' }), { items: half as never[] });
		expect(previewed.error).toBeUndefined();
		const output = jsonOf(previewed.items);
		expect(output.filter((item) => item.action === 'disabled')).toHaveLength(15);
		expect(output.every((item) => String(item.refusal).startsWith('Apply would refuse this plan. Too many leavers'))).toBe(true);

		// With Continue On Fail the refusal is each roster item's error, and still nothing is written.
		const continued = await ctx.engine.runNode(syncParameters(scopeValue), { items: half as never[], continueOnFail: true });
		expect(jsonOf(continued.items).every((item) => String(item.error).startsWith('Too many leavers'))).toBe(true);
		expect(continued.items).toHaveLength(half.length);
		expect(methods().every((method) => method === 'GET')).toBe(true);
		expect(userWrites()).toHaveLength(0);
		expect(people.every((user) => ctx.sandbox.store.getUser(user.id)?.disabled === false)).toBe(true);
	});

	it('an empty roster never reaches the sync, and a roster of one person is refused', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 25);
		// n8n runs no node that gets no items: an export with no rows cannot disable anyone.
		const empty = await ctx.engine.runNode(syncParameters(scopeValue), { items: [] });
		expect(empty.items).toEqual([]);
		// "Always Output Data" upstream turns an empty export into one empty item: not a person.
		const blank = await ctx.engine.runNode(syncParameters(scopeValue), { items: [{}] });
		expect(blank.error?.message).toContain('The roster has items that cannot be synced, so nothing was written: Invalid "Name" in item 0');
		const one = await ctx.engine.runNode(syncParameters(scopeValue), { items: [rowOf(people[0])] as never[] });
		expect(one.error?.message).toContain('Too many leavers: 24 of the 25 managed users who can sign in today would lose access');
		expect(methods().every((method) => method === 'GET')).toBe(true);
		expect(userWrites()).toHaveLength(0);
	});

	it('never disables or deletes users outside the scope, and one leaver is always allowed', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 3);
		const admin = ctx.sandbox.store.createUser({
			name: 'Scoped Out Admin',
			email: 'scoped.out.admin@hr.example',
			country: 'US',
			timeZone: 'America/New_York',
			tags: { role: 'admin', managedBy: 'someone-else' },
		});
		// A hand-made user who is on the roster: updated like anyone, but not taken into the scope.
		const handMade = ctx.sandbox.store.createUser({ name: 'Hand Made', email: 'hand.made@hr.example', country: 'DE', timeZone: 'Europe/Berlin' });
		const roster = [...people.slice(0, 2).map(rowOf), { ...rowOf(handMade), timeZone: 'Europe/Vienna' }];
		const seeded = ctx.sandbox.store.listUsers().filter((user) => !user.tags?.managedBy);

		const { items, error } = await ctx.engine.runNode(syncParameters(scopeValue, { leavers: 'delete', maxLeaversPercent: 0 }), {
			items: roster as never[],
		});
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((item) => [item.action, item.email])).toEqual([
			['unchanged', people[0].email],
			['unchanged', people[1].email],
			['updated', handMade.email],
			['deleted', people[2].email],
		]);
		expect(ctx.sandbox.store.getUser(people[2].id)).toBeUndefined();
		expect(ctx.sandbox.store.getUser(admin.id)).toEqual(admin);
		expect(ctx.sandbox.store.getUser(handMade.id)?.tags).toEqual({});
		for (const user of seeded) expect(ctx.sandbox.store.getUser(user.id)?.disabled).toBe(user.disabled);
	});

	it('refuses a roster with a duplicate or invalid e-mail before anything is written, naming the items', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 4);
		const duplicate = [...people.map(rowOf), { ...rowOf(people[1]), email: people[1].email.toUpperCase() }];
		const dup = await ctx.engine.runNode(syncParameters(scopeValue), { items: duplicate as never[] });
		expect(dup.error?.message).toBe(
			`The roster has items that cannot be synced, so nothing was written: Items 1, 4 name the same e-mail (${people[1].email}): keep one item per person`,
		);
		const invalid = [rowOf(people[0]), { ...rowOf(people[1]), email: 'not-an-email' }, rowOf(people[2]), { ...rowOf(people[3]), email: '' }];
		const bad = await ctx.engine.runNode(syncParameters(scopeValue), { items: invalid as never[] });
		expect(bad.error?.message).toBe(
			'The roster has items that cannot be synced, so nothing was written: ' +
				'Invalid "Email" in item 1: Email is not an e-mail address (got "not-an-email"); Invalid "Email" in item 3: Email is empty',
		);
		expect(methods().every((method) => method === 'GET')).toBe(true);
		expect(userWrites()).toHaveLength(0);
	});

	it('Continue On Fail: a failed write is that user\'s error item, the others go on, and a rerun writes only what is left', async () => {
		const scopeValue = newScope();
		const people = managedUsers(scopeValue, 20);
		const roster = people.slice(0, 19).map((user, index) => (index < 4 ? { ...rowOf(user), name: `${user.name} v2` } : rowOf(user)));
		// The rename of person 1 fails; the leaver's disable is applied but its answer is lost.
		ctx.sandbox.faults.inject({ match: { method: 'PATCH', path: `/api/users/${people[1].id}` }, kind: 'status', status: 500, times: 1 });
		ctx.sandbox.faults.inject({ match: { method: 'PATCH', path: `/api/users/${people[19].id}` }, kind: 'reset', afterApply: true, times: 1 });

		const { items, error } = await ctx.engine.runNode(syncParameters(scopeValue), { items: roster as never[], continueOnFail: true });
		expect(error).toBeUndefined();
		const output = jsonOf(items);
		expect(output.map((item) => item.action ?? 'error')).toEqual(['updated', 'updated', 'updated', 'updated', ...roster.slice(4).map(() => 'unchanged'), 'disabled']);
		expect(output[1]).toMatchObject({ action: 'updated', email: people[1].email, error: expect.stringContaining('500') });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(output.at(-1)).toMatchObject({ action: 'disabled', userId: people[19].id, email: people[19].email, error: expect.any(String) });
		expect(items.at(-1)?.pairedItem).toBeUndefined();
		// The lost answer to a write is never resent.
		expect(calls('PATCH /api/users/{userId}')).toBe(5);

		ctx.sandbox.resetStats();
		const rerun = await ctx.engine.runNode(syncParameters(scopeValue), { items: roster as never[], continueOnFail: true });
		expect(jsonOf(rerun.items).map((item) => item.action)).toEqual(['unchanged', 'updated', ...roster.slice(2).map(() => 'unchanged')]);
		expect(userWrites().map((write) => write.id)).toEqual([people[1].id]);
	});

	it('the HR-sync example: preview plans its sample roster, apply creates it with the scope tag, a second apply sends nothing', async () => {
		const workflow = JSON.parse(readFileSync(join(__dirname, '../../examples/hr-sync.json'), 'utf8'));
		const node = (name: string) => workflow.nodes.find((candidate: { name: string }) => candidate.name === name);
		// The Code node's own script yields the CSV text, as it would inside n8n.
		const [{ json }] = new Function(node('HR export (sample CSV)').parameters.jsCode)() as Array<{ json: { csv: string } }>;
		const rows = csvRows(json.csv);
		expect(rows.map((row) => row.name)).toContain('Okafor, David');

		const preview = await ctx.engine.runNode(node('Sync users (preview)').parameters, { items: rows, typeVersion: 2 });
		expect(jsonOf(preview.items).map((item) => [item.action, item.mode])).toEqual(rows.map(() => ['created', 'preview']));
		expect(userWrites()).toHaveLength(0);

		// Apply is given the Preview's planId, as its expression reads it from that node's output.
		const applyParameters = node('Sync users (apply)').parameters;
		expect(applyParameters.options.approvedPlan).toBe("={{ $('Sync users (preview)').first().json.planId }}");
		const approved = { ...applyParameters, options: { ...applyParameters.options, approvedPlan: jsonOf(preview.items)[0].planId } };
		const apply = await ctx.engine.runNode(approved, { items: rows, typeVersion: 2 });
		expect(apply.error).toBeUndefined();
		expect(jsonOf(apply.items).map((item) => item.action)).toEqual(rows.map(() => 'created'));
		expect(userWrites().map((write) => (write.body as UserBody).tags)).toEqual(rows.map((row) => ({ department: row.department, managedBy: 'n8n-hr-sync' })));

		ctx.sandbox.resetStats();
		const again = await ctx.engine.runNode({ ...applyParameters, options: {} }, { items: rows, typeVersion: 2 });
		expect(jsonOf(again.items).map((item) => item.action)).toEqual(rows.map(() => 'unchanged'));
		expect(userWrites()).toHaveLength(0);
	});

	it('counts a user as managed whose scope tag carries spaces the setting is read without', async () => {
		const scopeValue = newScope();
		ctx.sandbox.store.createUser({ name: 'Hand-tagged', email: `hand.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin', tags: { managedBy: ` ${scopeValue} ` } });
		const run = await ctx.engine.runNode(
			{ resource: 'user', operation: 'sync', mode: 'preview', scopeTagValue: ` ${scopeValue} ` },
			{ items: [{ name: 'New', email: `new.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin' }] as never[] },
		);
		expect(jsonOf(run.items).map((item) => [item.action, item.email])).toEqual([
			['created', `new.${scopeValue}@hr.example`],
			['disabled', `hand.${scopeValue}@hr.example`],
		]);
	});
});
