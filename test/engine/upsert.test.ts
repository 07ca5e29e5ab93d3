import type { User } from '../../nodes/shared/wire';
import { HR_SYNC_UPSERT } from '../support/hrSync';
import { jsonOf, useSandbox } from '../support/sandboxed';

const EXISTING_USERS = 150;

/** With the row's description as well. */
const upsertParameters = { ...HR_SYNC_UPSERT, additionalFields: { description: '={{ $json.description }}' } };

interface HrRow {
	name: string;
	email: string;
	country: string;
	timeZone: string;
	description: string;
}

const rowOf = (user: User): HrRow => ({
	name: user.name,
	email: user.email,
	country: user.country,
	timeZone: user.timeZone,
	description: user.description ?? '',
});

const newRow = (index: number): HrRow => ({
	name: `New Hire ${index}`,
	email: `new.hire${index}@hr.example`,
	country: 'DE',
	timeZone: 'Europe/Berlin',
	description: 'joined this month',
});

describe('user upsert (create or update by e-mail)', () => {
	const ctx = useSandbox({ userCount: EXISTING_USERS });
	beforeEach(() => ctx.sandbox.resetStats());

	const calls = (route: string) => ctx.sandbox.stats.byRoute[route] ?? 0;
	const userWrites = () => ctx.sandbox.writes.filter((write) => write.resource === 'user');

	it('runs 200+ mixed items with one list call and one write per created or changed user', async () => {
		const listed = ctx.sandbox.store.listUsers();
		const rows: HrRow[] = [];
		const expected: Array<{ action: string; email: string; supersededBy?: number }> = [];
		const push = (row: HrRow, action: string) => {
			rows.push(row);
			expected.push({ action, email: row.email.trim().toLowerCase() });
		};
		// 70 unchanged: the same values, the e-mail in another case and with spaces around it.
		for (const user of listed.slice(0, 70)) push({ ...rowOf(user), email: `  ${user.email.toUpperCase()} ` }, 'unchanged');
		// 50 changed: a new name, a new country, or a cleared description.
		listed.slice(70, 120).forEach((user, index) => {
			const move = user.country === 'FR' ? { country: 'SE', timeZone: 'Europe/Stockholm' } : { country: 'FR', timeZone: 'Europe/Paris' };
			const changes = [{ name: `${user.name} Jr.` }, move, { description: '' }][index % 3];
			push({ ...rowOf(user), ...changes }, 'updated');
		});
		// 60 new people.
		for (let index = 0; index < 60; index++) push(newRow(index), 'created');
		// 20 duplicates of e-mails already in this run: the later item wins, the earlier is superseded.
		for (let index = 0; index < 10; index++) push({ ...newRow(index), name: `New Hire ${index} (corrected)` }, 'created');
		for (const user of listed.slice(0, 10)) push({ ...rowOf(user), description: 'moved to dispatch' }, 'updated');
		const lastIndexByEmail = new Map(expected.map((entry, index) => [entry.email, index]));
		for (const [index, entry] of expected.entries()) {
			const later = lastIndexByEmail.get(entry.email)!;
			if (later !== index) Object.assign(entry, { action: 'superseded', supersededBy: later });
		}
		expect(rows.length).toBeGreaterThanOrEqual(200);

		const { items, error } = await ctx.engine.runNode(upsertParameters, { items: rows as never[] });
		expect(error).toBeUndefined();

		const creates = expected.filter((entry) => entry.action === 'created').length;
		const updates = expected.filter((entry) => entry.action === 'updated').length;
		expect([creates, updates]).toEqual([60, 60]);
		expect(calls('GET /api/users')).toBe(1);
		expect(calls('POST /api/users')).toBe(creates);
		expect(calls('PATCH /api/users/{userId}')).toBe(updates);
		expect(calls('PUT /api/users/{userId}')).toBe(0);
		expect(calls('GET /api/users/{userId}')).toBe(0);

		expect(items).toHaveLength(rows.length);
		expect(items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const output = jsonOf(items) as Array<{ action: string; user: User | null; supersededBy?: number }>;
		expect(output.map(({ action, supersededBy }) => ({ action, supersededBy }))).toEqual(
			expected.map(({ action, supersededBy }) => ({ action, supersededBy })),
		);
		for (const [index, entry] of output.entries()) {
			if (entry.action !== 'superseded') expect(entry.user?.email.toLowerCase()).toBe(expected[index].email);
			expect(entry.user ?? {}).not.toHaveProperty('password');
		}

		// What the sandbox now holds: the later duplicate's values, and nobody created twice.
		const after = ctx.sandbox.store.listUsers();
		expect(after).toHaveLength(EXISTING_USERS + 60);
		expect(after.find((user) => user.email === 'new.hire3@hr.example')?.name).toBe('New Hire 3 (corrected)');
		expect(after.find((user) => user.id === listed[0].id)?.description).toBe('moved to dispatch');
		expect(after.find((user) => user.id === listed[72].id)?.description).toBeNull();
		expect(after.find((user) => user.id === listed[71].id)?.country).not.toBe(listed[71].country);

		// Running the same rows again changes nothing and writes nothing.
		ctx.sandbox.resetStats();
		const again = await ctx.engine.runNode(upsertParameters, { items: rows as never[] });
		const actions = new Set(jsonOf(again.items).map((entry) => entry.action));
		expect([...actions].sort()).toEqual(['superseded', 'unchanged']);
		expect(calls('GET /api/users')).toBe(1);
		expect(userWrites()).toHaveLength(0);
	});

	it('patches only the fields that differ, as the sandbox receives them', async () => {
		const user = ctx.sandbox.store.createUser({
			name: 'Walter Skinner',
			email: 'w.skinner@hr.example',
			country: 'US',
			timeZone: 'America/New_York',
			description: 'Assistant Director',
			tags: { floor: '4' },
		});
		const { items } = await ctx.engine.runNode(
			{ ...upsertParameters, additionalFields: { ...upsertParameters.additionalFields, disabled: true, password: 'never-compared' } },
			{ items: [{ ...rowOf(user), email: 'W.Skinner@HR.example', description: '', timeZone: 'America/Chicago' }] },
		);
		expect(userWrites().map((write) => write.body)).toEqual([
			[
				{ op: 'replace', path: '/timeZone', value: 'America/Chicago' },
				{ op: 'replace', path: '/disabled', value: true },
				{ op: 'remove', path: '/description' },
			],
		]);
		expect(items[0].json).toMatchObject({ action: 'updated', user: { id: user.id, timeZone: 'America/Chicago', disabled: true } });
		expect(ctx.sandbox.store.getUser(user.id)?.tags).toEqual({ floor: '4' });
		expect(ctx.sandbox.store.passwordOf(user.id)).toBeNull();
	});

	it('sets the password of a user it creates, and never outputs it', async () => {
		const { items } = await ctx.engine.runNode(
			{ ...upsertParameters, additionalFields: { password: 'first-day' } },
			{ items: [newRow(900)] as never[] },
		);
		const output = items[0].json as { action: string; user: User };
		expect(output.action).toBe('created');
		expect(userWrites()[0].body).toEqual({ ...newRow(900), description: undefined, password: 'first-day' });
		expect(output.user).not.toHaveProperty('password');
		expect(ctx.sandbox.store.passwordOf(output.user.id)).toBe('first-day');
	});

	it('Continue On Fail: an invalid item fails alone, the others go ahead on the same single listing', async () => {
		const existing = ctx.sandbox.store.listUsers()[5];
		const rows = [
			newRow(500),
			{ ...newRow(501), email: 'not-an-email' },
			{ ...rowOf(existing), name: 'Renamed Person' },
			{ ...newRow(502), name: '' },
			{ ...newRow(503), country: 'ZZ' },
			rowOf(ctx.sandbox.store.listUsers()[6]),
		];
		const { items, error } = await ctx.engine.runNode(upsertParameters, { items: rows as never[], continueOnFail: true });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const output = jsonOf(items);
		expect(output.map((entry) => entry.action ?? 'error')).toEqual(['created', 'error', 'updated', 'error', 'error', 'unchanged']);
		expect(output[1].error).toBe('Invalid "Email" in item 1: Email is not an e-mail address (got "not-an-email")');
		expect(output[3].error).toBe('Invalid "Name" in item 3: Name is empty');
		expect(output[4].error).toContain('The tracking API answered 400: country must be a code or a name listed by GET /api/users/countries');
		expect(calls('GET /api/users')).toBe(1);
		expect(calls('POST /api/users')).toBe(2);
		expect(calls('PATCH /api/users/{userId}')).toBe(1);
	});

	it('without Continue On Fail, an invalid item stops the run with an error naming it and its field', async () => {
		const { error } = await ctx.engine.runNode(upsertParameters, {
			items: [newRow(600), { ...newRow(601), email: 'broken@' }] as never[],
		});
		expect(error?.message).toBe('Invalid "Email" in item 1: Email is not an e-mail address (got "broken@")');
	});

	it('fails every item with the vendor message when the one listing fails', async () => {
		ctx.sandbox.faults.inject({ match: { method: 'GET', path: '/api/users' }, kind: 'status', status: 403, times: 1 });
		const { items } = await ctx.engine.runNode(upsertParameters, { items: [newRow(700), newRow(701)] as never[], continueOnFail: true });
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(jsonOf(items).every((entry) => String(entry.error).includes('403'))).toBe(true);
		expect(calls('POST /api/users')).toBe(0);
	});

});
