import { countries, timeZones } from '../../sandbox/reference';
import type { User } from '../../nodes/shared/wire';
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const USER_ROUTE = '/api/users/{userId}';

const required = { name: 'Dana Scully', email: 'dana.scully@example.com', country: 'US', timeZone: 'America/New_York' };

describe('user operations', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	const calls = (method: string, path = USER_ROUTE) => ctx.sandbox.stats.byRoute[`${method} ${path}`] ?? 0;
	const writesOf = (kind: string) => ctx.sandbox.writes.filter((write) => write.resource === 'user' && write.kind === kind);
	let emailCounter = 0;
	const newUser = (fields: Partial<User> = {}) =>
		ctx.sandbox.store.createUser({ ...required, email: `user${++emailCounter}@test.example`, password: 'old-secret', ...fields });

	it('create sends the required fields and every additional one, and outputs the user without the password', async () => {
		const { items, error } = await ctx.engine.runNode({
			resource: 'user',
			operation: 'create',
			...required,
			additionalFields: {
				description: 'Agent',
				message: 'Welcome',
				disabled: false,
				disabledMessage: 'Ask IT',
				tags: { entries: [{ key: 'department', value: 'X-Files' }, { key: ' ', value: 'ignored' }] },
				privileges: 'ViewDevices, SendCommands',
				group: 'grp-1',
				deviceId: 'device001',
				adminDevices: 3,
				from: '2026-01-01T08:00:00',
				expires: '2027-01-01T00:00:00Z',
				password: ' s3cret ',
			},
		});
		expect(error).toBeUndefined();
		expect(writesOf('create').map((write) => write.body)).toEqual([
			{
				...required,
				adminDevices: 3,
				description: 'Agent',
				deviceId: 'device001',
				disabled: false,
				disabledMessage: 'Ask IT',
				expires: '2027-01-01T00:00:00.000Z',
				from: '2026-01-01T08:00:00.000Z',
				group: 'grp-1',
				message: 'Welcome',
				password: ' s3cret ',
				privileges: ['ViewDevices', 'SendCommands'],
				tags: { department: 'X-Files' },
			},
		]);
		const created = items[0].json as unknown as User;
		expect(created).not.toHaveProperty('password');
		expect(created).toEqual(expect.objectContaining({ ...required, tags: { department: 'X-Files' } }));
		expect(ctx.sandbox.store.passwordOf(created.id)).toBe(' s3cret ');
	});

	it('create takes Group and Device from their pickers (group by name, as the wire wants) and Privileges as a multi-select', async () => {
		const group = ctx.sandbox.store.listGroups()[0];
		const { error } = await ctx.engine.runNode({
			resource: 'user',
			operation: 'create',
			...required,
			email: 'picked@example.com',
			additionalFields: {
				group: { __rl: true, mode: 'list', value: group.name, cachedResultName: group.name },
				deviceId: { __rl: true, mode: 'id', value: 'device002' },
				privileges: ['read', 'execute'],
			},
		});
		expect(error).toBeUndefined();
		expect(writesOf('create').map((write) => write.body)).toEqual([
			{ ...required, email: 'picked@example.com', group: group.name, deviceId: 'device002', privileges: ['read', 'execute'] },
		]);
	});

	it('update clears Group when its picker is left empty', async () => {
		const user = newUser({ group: 'Admins' });
		await ctx.engine.runNode({ resource: 'user', operation: 'update', userId: byId(user.id), updateFields: { group: { __rl: true, mode: 'list', value: '' } } });
		expect(writesOf('patch').map((write) => write.body)).toEqual([[{ op: 'remove', path: '/group' }]]);
	});

	it.each([
		['a malformed e-mail', { email: 'dana@' }, 'Invalid "Email" in item 0: Email is not an e-mail address (got "dana@")'],
		['a country an expression leaves empty', { country: '={{ "" }}' }, 'Invalid "Country" in item 0: Country is empty'],
		['an empty name', { name: '   ' }, 'Invalid "Name" in item 0: Name is empty'],
		['a date that is not one', { additionalFields: { expires: 'next year' } }, 'Invalid "Expires" in item 0: Expires is not an ISO 8601 date'],
		['a bad From date', { additionalFields: { from: '2026-13-45' } }, 'Invalid "From" in item 0: From is not a valid date'],
	])('create refuses %s before sending anything', async (_, fields, message) => {
		const { error } = await ctx.engine.runNode({ resource: 'user', operation: 'create', ...required, ...fields });
		expect(error?.message).toContain(message);
		expect(calls('POST', '/api/users')).toBe(0);
	});

	it('get returns the user without envelope or password', async () => {
		const user = newUser();
		const { items } = await ctx.engine.runNode({ resource: 'user', operation: 'get', userId: byId(user.id) });
		const { password: _, ...expected } = ctx.sandbox.store.getUser(user.id)!;
		expect(jsonOf(items)).toEqual([expected]);
	});

	it('getAll returns all users without passwords, trims with Limit and filters', async () => {
		const all = await ctx.engine.runNode({ resource: 'user', operation: 'getAll', returnAll: true });
		expect(jsonOf(all.items).map((user) => user.id)).toEqual(ctx.sandbox.store.listUsers().map((user) => user.id));
		expect(jsonOf(all.items).every((user) => !('password' in user))).toBe(true);

		const limited = await ctx.engine.runNode({ resource: 'user', operation: 'getAll', returnAll: false, limit: 3 });
		expect(limited.items).toHaveLength(3);

		const someone = ctx.sandbox.store.getUser('usr-3')!;
		const byEmail = await ctx.engine.runNode({
			resource: 'user',
			operation: 'getAll',
			returnAll: true,
			filters: { email: ` ${someone.email.toUpperCase()} ` },
		});
		expect(jsonOf(byEmail.items).map((user) => user.id)).toEqual(['usr-3']);

		const disabled = await ctx.engine.runNode({ resource: 'user', operation: 'getAll', returnAll: true, filters: { disabled: true } });
		const expectedDisabled = ctx.sandbox.store.listUsers().filter((user) => user.disabled).map((user) => user.id);
		expect(expectedDisabled.length).toBeGreaterThan(0);
		expect(jsonOf(disabled.items).map((user) => user.id)).toEqual(expectedDisabled);

		const namePart = someone.name.split(' ')[1].toLowerCase();
		const byName = await ctx.engine.runNode({ resource: 'user', operation: 'getAll', returnAll: true, filters: { nameContains: namePart } });
		expect(byName.items.length).toBeGreaterThan(0);
		expect(jsonOf(byName.items).every((user) => String(user.name).toLowerCase().includes(namePart))).toBe(true);
	});

	it('replace sends the whole user with PUT; the stored password survives', async () => {
		const user = newUser({ description: 'to be reset' });
		const { items } = await ctx.engine.runNode({
			resource: 'user',
			operation: 'replace',
			userId: byId(user.id),
			...required,
			email: user.email,
			name: 'Replaced',
		});
		expect(writesOf('put').map((write) => write.body)).toEqual([{ ...required, email: user.email, name: 'Replaced' }]);
		expect(items[0].json).toMatchObject({ id: user.id, name: 'Replaced', description: null });
		expect(items[0].json).not.toHaveProperty('password');
		expect(ctx.sandbox.store.passwordOf(user.id)).toBe('old-secret');
	});

	it('update turns Update Fields into a JSON Patch as the sandbox receives it', async () => {
		const user = newUser({ description: 'Agent', tags: { a: '1' } });
		const { items } = await ctx.engine.runNode({
			resource: 'user',
			operation: 'update',
			userId: byId(user.id),
			updateFields: {
				name: 'Fox Mulder',
				disabled: true,
				description: '',
				tags: { entries: [{ key: 'department', value: 'Basement' }] },
				expires: '2030-06-01',
				password: 'new-secret',
			},
		});
		expect(writesOf('patch').map((write) => write.body)).toEqual([
			[
				{ op: 'add', path: '/disabled', value: true },
				{ op: 'add', path: '/expires', value: '2030-06-01T00:00:00.000Z' },
				{ op: 'replace', path: '/name', value: 'Fox Mulder' },
				{ op: 'add', path: '/password', value: 'new-secret' },
				{ op: 'add', path: '/tags', value: { department: 'Basement' } },
				{ op: 'remove', path: '/description' },
			],
		]);
		expect(items[0].json).toMatchObject({ name: 'Fox Mulder', disabled: true, description: null, tags: { department: 'Basement' } });
		expect(items[0].json).not.toHaveProperty('password');
		expect(ctx.sandbox.store.passwordOf(user.id)).toBe('new-secret');
	});

	it('update refuses a malformed e-mail in Update Fields before sending anything', async () => {
		const user = newUser();
		const { error } = await ctx.engine.runNode({ resource: 'user', operation: 'update', userId: byId(user.id), updateFields: { email: 'nope' } });
		expect(error?.message).toBe('Invalid "Email" in item 0: Email is not an e-mail address (got "nope")');
		expect(calls('PATCH')).toBe(0);
	});

	it('update sends a valid expert JSON Patch as written', async () => {
		const user = newUser();
		const patch = [{ op: 'add', path: '/tags/site', value: 'HQ' }];
		const { items } = await ctx.engine.runNode({
			resource: 'user',
			operation: 'update',
			userId: byId(user.id),
			patchMode: 'jsonPatch',
			jsonPatch: patch,
		});
		expect(writesOf('patch').map((write) => write.body)).toEqual([patch]);
		expect(items[0].json).toMatchObject({ tags: { site: 'HQ' } });
	});

	it('delete outputs { deleted: true, id }', async () => {
		const user = newUser();
		const { items } = await ctx.engine.runNode({ resource: 'user', operation: 'delete', userId: byId(user.id) });
		expect(jsonOf(items)).toEqual([{ deleted: true, id: user.id }]);
		expect(ctx.sandbox.store.getUser(user.id)).toBeUndefined();
	});

	it('getCountries and getTimeZones output one item per entry of the API maps', async () => {
		const countryItems = await ctx.engine.runNode({ resource: 'user', operation: 'getCountries' });
		expect(jsonOf(countryItems.items)).toEqual(Object.entries(countries()).map(([code, name]) => ({ code, name })));
		expect(jsonOf(countryItems.items)).toContainEqual({ code: 'US', name: 'United States' });

		const zoneItems = await ctx.engine.runNode({ resource: 'user', operation: 'getTimeZones' });
		expect(zoneItems.items).toHaveLength(Object.keys(timeZones()).length);
		expect(jsonOf(zoneItems.items)).toContainEqual({ id: 'Europe/London', name: 'Greenwich Mean Time' });
		expect(countryItems.items.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Continue On Fail: good and bad items each yield exactly one output, paired with their input', async () => {
		const taken = newUser();
		const { items, error } = await ctx.engine.runNode(
			{
				resource: 'user',
				operation: 'create',
				name: '={{ $json.name }}',
				email: '={{ $json.email }}',
				country: '={{ $json.country }}',
				timeZone: 'Europe/Madrid',
			},
			{
				continueOnFail: true,
				items: [
					{ name: 'Good One', email: 'good.one@test.example', country: 'ES' },
					{ name: 'Bad Mail', email: 'bad-mail', country: 'ES' },
					{ name: 'Taken', email: taken.email, country: 'ES' },
					{ name: '', email: 'no.name@test.example', country: 'ES' },
					{ name: 'Bad Country', email: 'bad.country@test.example', country: 'XX' },
					{ name: 'Good Two', email: 'good.two@test.example', country: 'ES' },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4, 5].map((item) => ({ item })));
		const json = jsonOf(items);
		expect(json[0]).toMatchObject({ email: 'good.one@test.example' });
		expect(json[1].error).toBe('Invalid "Email" in item 1: Email is not an e-mail address (got "bad-mail")');
		expect(json[2].error).toBe(`The tracking API answered 409: A user with the e-mail ${taken.email} already exists.`);
		expect(json[3].error).toBe('Invalid "Name" in item 3: Name is empty');
		expect(json[4].error).toContain('country must be a code or a name listed by GET /api/users/countries');
		expect(json[5]).toMatchObject({ email: 'good.two@test.example' });
		expect(json.every((user) => !('password' in user))).toBe(true);
		expect(calls('POST', '/api/users')).toBe(4);
	});

	describe('dropdowns and the user list mode, as the editor calls them', () => {
		const node = new SatelliteTracking();
		const context = () => ctx.engine.loadOptionsContext({ resource: 'user', operation: 'create' });

		it('getCountries offers every country, sorted by name, with its code as the value', async () => {
			const options = await node.methods.loadOptions.getCountries.call(context());
			expect(options).toHaveLength(Object.keys(countries()).length);
			expect(options).toContainEqual({ name: 'Germany', value: 'DE', description: 'DE' });
			const names = options.map((option) => option.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			expect(calls('GET', '/api/users/countries')).toBe(1);
		});

		it('getTimeZones offers every zone id with its description', async () => {
			const options = await node.methods.loadOptions.getTimeZones.call(context());
			expect(options).toHaveLength(Object.keys(timeZones()).length);
			expect(options).toContainEqual({ name: 'Europe/London', value: 'Europe/London', description: 'Greenwich Mean Time' });
			expect(calls('GET', '/api/users/timeZones')).toBe(1);
		});

		it("the Group picker offers the groups' names as values, since a user's group is a name on the wire", async () => {
			const groups = ctx.sandbox.store.listGroups();
			const found = await node.methods.listSearch.searchGroupNames.call(context(), '');
			expect(found.results).toEqual(groups.map((group) => ({ name: group.name, value: group.name })));
		});

		it('the User list mode searches by e-mail', async () => {
			const someone = ctx.sandbox.store.getUser('usr-5')!;
			const found = await node.methods.listSearch.searchUsers.call(context(), someone.email.toUpperCase());
			expect(found.results).toEqual([{ name: `${someone.name} <${someone.email}>`, value: 'usr-5' }]);
		});
	});
});
