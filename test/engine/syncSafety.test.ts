/**
 * User → Sync as HR hands it rosters (issues 45 and 51): invisible characters, blank columns, values
 * the service refuses, a write that fails part way, limits at their exact edge, users outside the
 * scope, lock-outs by expiry, and the tool variant. Through n8n's engine against the sandbox.
 */
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { TOOL_MAX_RESULTS } from '../../nodes/SatelliteTracking/actions/toolMode';
import type { User } from '../../nodes/shared/wire';
import { PACKAGE, registerNodeType } from '../support/engine';
import { jsonOf, useSandbox } from '../support/sandboxed';

const TOOL_TYPE = `${PACKAGE}.satelliteTrackingTool`;
registerNodeType(TOOL_TYPE, new SatelliteTracking());

interface Row {
	name: string;
	email: string;
	country: string;
	timeZone: string;
	[column: string]: unknown;
}

const rowOf = (user: User): Row => ({ name: user.name, email: user.email, country: user.country, timeZone: user.timeZone });

describe('user sync with rosters as HR exports them', () => {
	const ctx = useSandbox({ userCount: 4 });
	beforeEach(() => ctx.sandbox.resetStats());

	let scope = 0;
	const newScope = () => `hr-safety-${++scope}`;
	const managedUsers = (scopeValue: string, count: number, fields: Partial<User> = {}): User[] =>
		Array.from({ length: count }, (_, index) =>
			ctx.sandbox.store.createUser({
				name: `Person ${index}`,
				email: `person${index}.${scopeValue}@hr.example`,
				country: 'DE',
				timeZone: 'Europe/Berlin',
				tags: { managedBy: scopeValue },
				...fields,
			}),
		);
	const sync = (scopeValue: string, extra: Record<string, unknown> = {}) => ({ resource: 'user', operation: 'sync', mode: 'apply', scopeTagValue: scopeValue, ...extra });
	const userWrites = () => ctx.sandbox.writes.filter((write) => write.resource === 'user');
	const stored = (user: User) => ctx.sandbox.store.getUser(user.id)!;
	const inScope = (scopeValue: string) => ctx.sandbox.store.listUsers().filter((user) => user.tags?.managedBy === scopeValue);

	describe('issue 45', () => {
		it.each([
			['U+200B zero-width space', '\u200b'],
			['U+2060 word joiner', '\u2060'],
			['U+FEFF byte order mark', '\ufeff'],
			['U+00AD soft hyphen', '\u00ad'],
		])('an e-mail carrying an invisible %s matches the real person: no second account, nobody disabled', async (_, invisible) => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 6);
			const [alice, ...others] = people;
			const at = alice.email.indexOf('@');
			const roster = [{ ...rowOf(alice), email: `${alice.email.slice(0, at)}${invisible}${alice.email.slice(at)}${invisible}` }, ...others.map(rowOf)];
			roster.push({ name: 'Joiner', email: `${invisible}joiner.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin' });

			const { items, error } = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(error).toBeUndefined();
			expect(jsonOf(items).map((item) => [item.action, item.email])).toEqual([
				['unchanged', alice.email],
				...others.map((user) => ['unchanged', user.email]),
				['created', `joiner.${scopeValue}@hr.example`],
			]);
			expect(stored(alice).disabled).toBe(false);
			expect(inScope(scopeValue).map((user) => user.email).sort()).toEqual([...people.map((user) => user.email), `joiner.${scopeValue}@hr.example`].sort());
		});

		it('Preview refuses a country and a time zone the service does not list, naming the items; Apply writes nothing', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 6);
			ctx.sandbox.store.replaceUser(people[0].id, { ...rowOf(people[0]), tags: { managedBy: scopeValue }, disabled: true });
			const roster = people.map(rowOf);
			roster[3] = { ...roster[3], country: 'XX', timeZone: 'Mars/Base' };
			roster.push({ name: 'Joiner', email: `joiner.${scopeValue}@hr.example`, country: 'Deutschland', timeZone: 'europe/berlin' });

			const expected =
				'The roster has items that cannot be synced, so nothing was written: ' +
				'Invalid "Country" in item 3: Country "XX" is not one the service lists: use its two-letter code, e.g. DE; ' +
				'Invalid "Time Zone" in item 3: Time Zone "Mars/Base" is not one the service lists: use an IANA id such as Europe/Berlin; ' +
				'Invalid "Country" in item 6: Country "Deutschland" is not one the service lists: did you mean DE (Germany)? Use the code or the name the service lists';
			const previewed = await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: roster as never[] });
			expect(previewed.error?.message).toBe(expected);
			const applied = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(applied.error?.message).toBe(expected);
			expect(userWrites()).toHaveLength(0);
			expect(stored(people[0]).disabled).toBe(true);

			// Fixed as the message says, it applies; a time zone in another case is sent as the service lists it.
			roster[3] = rowOf(people[3]);
			roster[6] = { ...roster[6], country: 'DE' };
			const fixed = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(fixed.error).toBeUndefined();
			expect(jsonOf(fixed.items).map((item) => item.action)).toEqual(['enabled', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'created']);
			expect(inScope(scopeValue).find((user) => user.email.startsWith('joiner'))?.timeZone).toBe('Europe/Berlin');
		});

		it('a write the service refuses part way: the error lists what was written and what was not, and the next run converges', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 12);
			const roster = people.map((user, index) => (index < 6 ? { ...rowOf(user), name: `${user.name} (moved)` } : rowOf(user)));
			ctx.sandbox.faults.inject({ match: { method: 'PATCH', path: `/api/users/${people[3].id}` }, kind: 'status', status: 400, message: 'Simulated refusal', times: 1 });

			const { error } = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(error?.message).toContain('Simulated refusal');
			const account = String(error?.description);
			const [written, notWritten] = account.split('Not written');
			const writtenIds = new Set(userWrites().map((write) => write.id));
			expect(writtenIds.has(people[3].id)).toBe(false);
			for (const user of people.slice(0, 6)) {
				expect(writtenIds.has(user.id) ? written : notWritten).toContain(`updated ${user.email}`);
				expect(writtenIds.has(user.id) ? notWritten : written).not.toContain(`updated ${user.email}`);
			}
			expect(account).toContain('Run the sync again');

			ctx.sandbox.resetStats();
			const rerun = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(rerun.error).toBeUndefined();
			expect(userWrites().map((write) => write.id).sort()).toEqual(people.slice(0, 6).filter((user) => !writtenIds.has(user.id)).map((user) => user.id).sort());
			ctx.sandbox.resetStats();
			await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(userWrites()).toHaveLength(0);
		});

		it('a blank Disabled column means what the service reads back: the second and third run send nothing', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 20, { adminDevices: 0 });
			const roster = people.map((user, index) => ({ ...rowOf(user), suspended: index === 0 ? 'true' : '', devices: '' }));
			const parameters = sync(scopeValue, { additionalFields: { disabled: '={{ $json.suspended }}', adminDevices: '={{ $json.devices }}' } });

			const first = await ctx.engine.runNode(parameters, { items: roster as never[] });
			expect(first.error).toBeUndefined();
			expect(jsonOf(first.items).map((item) => item.action)).toEqual(['updated', ...people.slice(1).map(() => 'unchanged')]);
			expect(userWrites().map((write) => write.id)).toEqual([people[0].id]);
			for (let run = 2; run <= 3; run++) {
				ctx.sandbox.resetStats();
				const again = await ctx.engine.runNode(parameters, { items: roster as never[] });
				expect(jsonOf(again.items).every((item) => item.action === 'unchanged')).toBe(true);
				expect(userWrites()).toHaveLength(0);
			}
		});

		it('Max Leavers Percent is compared exactly: 69 of 375 at 18.4 % is allowed, 70 is refused, the share shown as typed', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 375);
			const preview = async (stayers: number) =>
				await ctx.engine.runNode(sync(scopeValue, { mode: 'preview', maxLeaversPercent: 18.4 }), { items: people.slice(0, stayers).map(rowOf) as never[] });
			const atLimit = jsonOf((await preview(375 - 69)).items);
			expect(atLimit.filter((item) => item.action === 'disabled')).toHaveLength(69);
			expect(atLimit.every((item) => item.refusal === undefined)).toBe(true);
			const over = jsonOf((await preview(375 - 70)).items);
			expect(over[0].refusal).toContain('70 of the 375 managed users who can sign in today would lose access (18.7%: 70 disabled as absent from the roster), more than Max Leavers Percent allows (18.4%, at most 69)');
		});

		it('Max Leavers caps the number as well as the share, with the same message', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 100);
			const roster = people.slice(0, 94).map(rowOf) as never[];
			const capped = await ctx.engine.runNode(sync(scopeValue, { maxLeavers: 5 }), { items: roster });
			expect(capped.error?.message).toBe(
				'Too many leavers: 6 of the 100 managed users who can sign in today would lose access (6%: 6 disabled as absent from the roster), more than Max Leavers allows (5). ' +
					'An empty or partial HR export looks like this: check that the roster is complete. If these people did leave, raise Max Leavers for one run. Nothing was written.',
			);
			expect(userWrites()).toHaveLength(0);
			const allowed = await ctx.engine.runNode(sync(scopeValue, { maxLeavers: 6 }), { items: roster });
			expect(jsonOf(allowed.items).filter((item) => item.action === 'disabled')).toHaveLength(6);
		});

		it('reports every bad row of every kind at once, each by its own item number', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 5);
			const roster = [rowOf(people[0]), rowOf(people[1]), { ...rowOf(people[2]), email: 'not-an-email' }, { ...rowOf(people[0]), email: people[0].email.toUpperCase() }, { ...rowOf(people[4]), name: '' }];
			const { error } = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(error?.message).toBe(
				'The roster has items that cannot be synced, so nothing was written: ' +
					`Items 0, 3 name the same e-mail (${people[0].email}): keep one item per person; ` +
					'Invalid "Email" in item 2: Email is not an e-mail address (got "not-an-email"); ' +
					'Invalid "Name" in item 4: Name is empty',
			);
			expect((error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
			const continued = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[], continueOnFail: true });
			expect(continued.items).toHaveLength(roster.length);
			expect(userWrites()).toHaveLength(0);
		});

		it('as an AI tool, the plan is capped at the tools\' limit with a note', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 40);
			const tool = await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: [rowOf(people[0])] as never[], type: TOOL_TYPE, typeVersion: 2 });
			const answer = jsonOf(tool.items);
			expect(answer).toHaveLength(TOOL_MAX_RESULTS + 1);
			expect(answer.at(-1)).toEqual({ note: expect.stringContaining(`Showing ${TOOL_MAX_RESULTS} of 40 results`) });
			expect(userWrites()).toHaveLength(0);
		});

		it('Apply given the approved planId does exactly that plan: a change to the account since Preview is refused, writing nothing', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 20);
			const roster = people.slice(0, 19).map(rowOf) as never[];
			const previewed = jsonOf((await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: roster })).items);
			expect(previewed.filter((item) => item.action === 'disabled').map((item) => item.email)).toEqual([people[19].email]);
			const planId = previewed[0].planId as string;
			expect(previewed.every((item) => item.planId === planId)).toBe(true);

			// While the plan waits for approval, someone adds a user in the scope who is not on the roster.
			const lateHire = managedUsers(`${scopeValue}-late`, 1, { tags: { managedBy: scopeValue } })[0];
			const approved = sync(scopeValue, { options: { approvedPlan: planId } });
			const refused = await ctx.engine.runNode(approved, { items: roster });
			expect(refused.error?.message).toBe(
				`This is not the plan that was approved (approved plan ${planId}, plan now ${jsonOf((await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: roster })).items)[0].planId}): ` +
					'the account or the roster changed since Preview. Nothing was written.',
			);
			expect(userWrites()).toHaveLength(0);
			expect(stored(lateHire).disabled).toBe(false);

			// The plan as approved, once the account is back as it was, is what runs.
			ctx.sandbox.store.deleteUser(lateHire.id);
			const applied = await ctx.engine.runNode(approved, { items: roster });
			expect(applied.error).toBeUndefined();
			expect(jsonOf(applied.items).map((item) => [item.action, item.email, item.planId])).toEqual(previewed.map((item) => [item.action, item.email, planId]));
			expect(userWrites().map((write) => write.id)).toEqual([people[19].id]);
		});

		it('as an AI tool with Continue On Fail, a refused roster is still one capped answer', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 60);
			const tool = await ctx.engine.runNode(sync(scopeValue), { items: people.slice(0, 40).map(rowOf) as never[], type: TOOL_TYPE, typeVersion: 2, continueOnFail: true });
			const answer = jsonOf(tool.items);
			expect(answer).toHaveLength(TOOL_MAX_RESULTS + 1);
			expect(answer[0].error).toContain('Too many leavers: 20 of the 60 managed users');
			expect(answer.at(-1)).toEqual({ note: expect.stringContaining(`Showing ${TOOL_MAX_RESULTS} of 40 results`) });
			expect(userWrites()).toHaveLength(0);
		});

		it('Preview says what will happen, Apply what did', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 12);
			const roster = [...people.slice(0, 11).map(rowOf), { name: 'Joiner', email: `joiner.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin' }];
			const previewed = jsonOf((await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: roster as never[] })).items);
			expect(previewed.map((item) => item.summary).slice(-2)).toEqual([`will create joiner.${scopeValue}@hr.example`, `will disable ${people[11].email}`]);
			const applied = jsonOf((await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] })).items);
			expect(applied.map((item) => item.summary).slice(-2)).toEqual([`created joiner.${scopeValue}@hr.example`, `disabled ${people[11].email}`]);
		});
	});

	describe('issue 51', () => {
		it('never changes the access of a user outside the scope through Expires, and says so in the plan', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 3);
			const admin = ctx.sandbox.store.createUser({ name: 'Admin', email: `admin.${scopeValue}@hr.example`, country: 'US', timeZone: 'America/New_York', tags: { role: 'admin' }, privileges: ['read', 'write', 'execute'] });
			const expired = ctx.sandbox.store.createUser({ name: 'Expired', email: `expired.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin', expires: '2021-01-01T00:00:00.000Z' });
			const roster = [
				...people.map((user) => ({ ...rowOf(user), expires: '' })),
				{ ...rowOf(admin), expires: '2020-01-01', name: 'Admin Renamed' },
				{ ...rowOf(expired), expires: '' },
			];
			const { items, error } = await ctx.engine.runNode(sync(scopeValue, { additionalFields: { expires: '={{ $json.expires }}' } }), { items: roster as never[] });
			expect(error).toBeUndefined();
			const output = jsonOf(items);
			expect(output.slice(3).map((item) => [item.action, item.email])).toEqual([
				['updated', admin.email],
				['unchanged', expired.email],
			]);
			expect(output[3].changes).toEqual({ name: { from: 'Admin', to: 'Admin Renamed' } });
			expect(output[3].note).toContain('Left alone: expires.');
			expect(output[4].note).toContain('Left alone: expires.');
			expect(stored(admin).expires).toBeNull();
			expect(stored(expired).expires).toBe('2021-01-01T00:00:00.000Z');
		});

		it("a roster's Tags never bring a user outside the scope under the sync: an admin, a user locked by hand and another sync's user keep access and tags, run after run", async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 10);
			const admin = ctx.sandbox.store.createUser({ name: 'Admin', email: `admin.${scopeValue}@hr.example`, country: 'US', timeZone: 'America/New_York', tags: { role: 'admin' }, privileges: ['read', 'write', 'execute'] });
			const locked = ctx.sandbox.store.createUser({ name: 'Locked', email: `locked.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin', disabled: true, disabledMessage: 'Security incident' });
			const otherSync = ctx.sandbox.store.createUser({ name: 'Other', email: `other.${scopeValue}@hr.example`, country: 'DE', timeZone: 'Europe/Berlin', tags: { managedBy: 'other-sync' } });
			const outside = [admin, locked, otherSync];
			// A Tags column mapped for every row, carrying the scope tag: the roster tries to adopt them.
			const roster = [...people, ...outside].map((user) => ({ ...rowOf(user), scope: scopeValue }));
			const parameters = sync(scopeValue, { additionalFields: { tags: { entries: [{ key: 'managedBy', value: '={{ $json.scope }}' }] } } });

			const previewed = jsonOf((await ctx.engine.runNode({ ...parameters, mode: 'preview' }, { items: roster as never[] })).items);
			expect(previewed.slice(10).map((item) => [item.action, item.changes])).toEqual(outside.map(() => ['unchanged', {}]));
			for (const item of previewed.slice(10)) expect(item.note).toMatch(/^Left alone: tags\..*a roster cannot bring them under the sync/);
			const first = await ctx.engine.runNode(parameters, { items: roster as never[] });
			expect(first.error).toBeUndefined();
			expect(userWrites()).toHaveLength(0);

			// The next run, with the admin gone from the roster: nobody outside the scope is disabled or enabled.
			const second = await ctx.engine.runNode(parameters, { items: roster.filter((row) => row.email !== admin.email) as never[] });
			expect(second.error).toBeUndefined();
			expect(userWrites()).toHaveLength(0);
			expect(outside.map((user) => stored(user))).toEqual(outside);
		});

		it('counts lock-outs by an expiry in the past toward the leavers guard', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 10);
			const roster = people.map((user) => ({ ...rowOf(user), leftOn: '2019-06-30' }));
			const { error } = await ctx.engine.runNode(sync(scopeValue, { additionalFields: { expires: '={{ $json.leftOn }}' } }), { items: roster as never[] });
			expect(error?.message).toContain(
				"Too many leavers: 10 of the 10 managed users who can sign in today would lose access (100%: 10 locked out by the roster's Expires or From (expired or not yet started))",
			);
			expect(userWrites()).toHaveLength(0);
			expect(people.every((user) => stored(user).expires === null)).toBe(true);
		});
	});

	describe('rosters as real HR exports look', () => {
		it('a CSV read with its byte order mark: every row refused, and the error says how to fix it', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 3);
			const roster = people.map(({ name, ...rest }) => ({ '\ufeffname': name, ...rowOf({ ...rest, name } as User) })).map(({ name: _, ...row }) => row);
			const { error } = await ctx.engine.runNode(sync(scopeValue), { items: roster as never[] });
			expect(error?.message).toContain('Invalid "Name" in item 0: Name is empty; Invalid "Name" in item 1');
			expect(error?.description).toContain('Exclude Byte Order Mark (BOM)');
			expect(userWrites()).toHaveLength(0);
		});

		it('a re-hired person whose old contract expired: Preview says they will be enabled but still cannot sign in, and why', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 5);
			const expiredOn = '2024-01-01T00:00:00.000Z';
			ctx.sandbox.store.replaceUser(people[0].id, { ...rowOf(people[0]), tags: { managedBy: scopeValue }, disabled: true, disabledMessage: 'Left.', expires: expiredOn });
			ctx.sandbox.store.replaceUser(people[1].id, { ...rowOf(people[1]), tags: { managedBy: scopeValue }, disabled: true, disabledMessage: 'Left.' });
			const previewed = jsonOf((await ctx.engine.runNode(sync(scopeValue, { mode: 'preview' }), { items: people.map(rowOf) as never[] })).items);
			expect(previewed.slice(0, 2).map((item) => [item.summary, item.note])).toEqual([
				[`will enable ${people[0].email}`, `Still cannot sign in after this: their access expired on ${expiredOn}. Map Expires in the roster (blank clears it) or change it with User → Update.`],
				[`will enable ${people[1].email}`, undefined],
			]);

			// With Expires mapped and blank for the re-hire, the same run gives access back.
			const parameters = sync(scopeValue, { additionalFields: { expires: '={{ $json.contractEnd }}' } });
			const applied = jsonOf((await ctx.engine.runNode(parameters, { items: people.map((user) => ({ ...rowOf(user), contractEnd: '' })) as never[] })).items);
			expect(applied[0]).toMatchObject({ action: 'enabled', changes: { expires: { from: expiredOn, to: null } } });
			expect(applied[0].note).toBeUndefined();
			expect(stored(people[0])).toMatchObject({ disabled: false, expires: null });
		});

		it('Excel dates and booleans: a day number is refused, TRUE/FALSE are read, trailing spaces and a re-hire and a name change apply', async () => {
			const scopeValue = newScope();
			const people = managedUsers(scopeValue, 10);
			ctx.sandbox.store.replaceUser(people[1].id, { ...rowOf(people[1]), tags: { managedBy: scopeValue }, disabled: true, disabledMessage: 'Left.' });
			const parameters = sync(scopeValue, { additionalFields: { expires: '={{ $json.contractEnd }}', disabled: '={{ $json.suspended }}' } });
			const roster: Row[] = people.map((user) => ({ ...rowOf(user), contractEnd: '', suspended: 'FALSE' }));
			roster[0] = { ...roster[0], contractEnd: 46112 };
			const refused = await ctx.engine.runNode(parameters, { items: roster as never[] });
			expect(refused.error?.message).toContain('Invalid "Expires" in item 0: Expires is a number too small for a date in milliseconds (got 46112)');

			roster[0] = { ...roster[0], contractEnd: '2030-03-31', name: `${people[0].name} Married  `, email: `${people[0].email}  ` };
			const applied = await ctx.engine.runNode(parameters, { items: roster as never[] });
			expect(applied.error).toBeUndefined();
			expect(jsonOf(applied.items).slice(0, 3).map((item) => item.action)).toEqual(['updated', 'enabled', 'unchanged']);
			expect(stored(people[0])).toMatchObject({ name: `${people[0].name} Married`, expires: '2030-03-31T00:00:00.000Z' });
			expect(stored(people[1]).disabled).toBe(false);
			ctx.sandbox.resetStats();
			await ctx.engine.runNode(parameters, { items: roster as never[] });
			expect(userWrites()).toHaveLength(0);
		});
	});
});
