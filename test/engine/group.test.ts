import type { Group } from '../../nodes/shared/wire';
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

const GROUP_ROUTE = '/api/groups/{groupId}';

describe('group operations', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	const calls = (method: string, path = GROUP_ROUTE) => ctx.sandbox.stats.byRoute[`${method} ${path}`] ?? 0;
	const writesOf = (kind: string) => ctx.sandbox.writes.filter((write) => write.resource === 'group' && write.kind === kind);
	const createGroup = (name: string, devices: string[] = []) =>
		ctx.sandbox.store.createGroup({ name, description: 'made by the test', devices });

	it('create sends name, description and devices and outputs the stored group', async () => {
		const { items, error } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'create',
			name: ' Depot A ',
			additionalFields: { description: 'Vans at depot A', devices: 'device001, device002' },
		});
		expect(error).toBeUndefined();
		expect(writesOf('create').map((write) => write.body)).toEqual([
			{ name: 'Depot A', description: 'Vans at depot A', devices: ['device001', 'device002'] },
		]);
		const created = items[0].json as unknown as Group;
		expect(created).toEqual(ctx.sandbox.store.getGroup(created.id));
		expect(created).not.toHaveProperty('success');
	});

	it('create refuses an empty name before sending anything', async () => {
		const { error } = await ctx.engine.runNode({ resource: 'group', operation: 'create', name: '  ' });
		expect(error?.message).toBe('Invalid "Name" in item 0: Name is empty');
		expect(calls('POST', '/api/groups')).toBe(0);
	});

	it('create shows the vendor message for a device the account does not have', async () => {
		const { error } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'create',
			name: 'Ghosts',
			additionalFields: { devices: 'device001, ghost-7' },
		});
		expect(error?.message).toContain('Unknown device id(s) in devices: ghost-7.');
	});

	it('get returns the group without the envelope', async () => {
		const { items } = await ctx.engine.runNode({ resource: 'group', operation: 'get', groupId: byId('grp-2') });
		expect(jsonOf(items)).toEqual([ctx.sandbox.store.getGroup('grp-2')]);
	});

	it('getAll returns all groups, trims with Limit and filters by name', async () => {
		const all = await ctx.engine.runNode({ resource: 'group', operation: 'getAll', returnAll: true });
		expect(jsonOf(all.items)).toEqual(ctx.sandbox.store.listGroups());
		const limited = await ctx.engine.runNode({ resource: 'group', operation: 'getAll', returnAll: false, limit: 2 });
		expect(jsonOf(limited.items).map((group) => group.id)).toEqual(['grp-1', 'grp-2']);
		const named = await ctx.engine.runNode({ resource: 'group', operation: 'getAll', returnAll: true, filters: { nameContains: 'FLEET' } });
		expect(jsonOf(named.items).map((group) => group.name)).toEqual(['North fleet', 'South fleet']);
	});

	it('replace sends the whole group with PUT, resetting what it leaves out', async () => {
		const group = createGroup('Before', ['device003']);
		const { items } = await ctx.engine.runNode({ resource: 'group', operation: 'replace', groupId: byId(group.id), name: 'After' });
		expect(writesOf('put')).toEqual([expect.objectContaining({ id: group.id, body: { name: 'After' } })]);
		expect(items[0].json).toMatchObject({ id: group.id, name: 'After', description: null, devices: [] });
	});

	it('update (version 2) turns Update Fields into a JSON Patch: replace the devices and the name, remove a cleared description', async () => {
		const group = createGroup('Old name', ['device001']);
		const { items } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'update',
			groupId: byId(group.id),
			updateFields: { name: 'New name', devices: 'device004,device005', description: '' },
		}, { typeVersion: 2 });
		expect(writesOf('patch').map((write) => write.body)).toEqual([
			[
				// replace, as the vendor's own PATCH example does for a group's optional description.
				{ op: 'replace', path: '/devices', value: ['device004', 'device005'] },
				{ op: 'replace', path: '/name', value: 'New name' },
				{ op: 'remove', path: '/description' },
			],
		]);
		expect(items[0].json).toEqual(ctx.sandbox.store.getGroup(group.id));
		expect(items[0].json).toMatchObject({ name: 'New name', description: null, devices: ['device004', 'device005'] });
	});

	it('update refuses an empty Update Fields without sending a request', async () => {
		const { error } = await ctx.engine.runNode({ resource: 'group', operation: 'update', groupId: byId('grp-1'), updateFields: {} });
		expect(error?.message).toBe('Invalid "Update Fields" in item 0: Update Fields is empty: add at least one field to change');
		expect(calls('PATCH')).toBe(0);
	});

	it('update sends an expert JSON Patch as written once it is valid', async () => {
		const group = createGroup('Raw', ['device001', 'device002']);
		const patch = [
			{ op: 'remove', path: '/devices/0' },
			{ op: 'replace', path: '/name', value: 'Raw patched' },
		];
		const { items } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'update',
			groupId: byId(group.id),
			patchMode: 'jsonPatch',
			jsonPatch: JSON.stringify(patch),
		});
		expect(writesOf('patch').map((write) => write.body)).toEqual([patch]);
		expect(items[0].json).toMatchObject({ name: 'Raw patched', devices: ['device002'] });
	});

	it('update refuses an invalid expert JSON Patch before sending it', async () => {
		const { error } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'update',
			groupId: byId('grp-1'),
			patchMode: 'jsonPatch',
			jsonPatch: '[{ "op": "move", "from": "/a", "path": "name" }]',
		});
		expect(error?.message).toContain('Invalid "JSON Patch" in item 0');
		// move is valid (the vendor's user PATCH page lists it); its path is not.
		expect(error?.message).toContain('operation 0: path must be a JSON Pointer starting with "/"');
		expect(calls('PATCH')).toBe(0);
	});

	it('update sends an expert move, copy and test, and the service applies them', async () => {
		const group = createGroup('Move me', ['device001']);
		const patch = [
			{ op: 'test', path: '/name', value: 'Move me' },
			{ op: 'copy', from: '/name', path: '/description' },
			{ op: 'move', from: '/devices/0', path: '/devices/-' },
		];
		const { items, error } = await ctx.engine.runNode({
			resource: 'group',
			operation: 'update',
			groupId: byId(group.id),
			patchMode: 'jsonPatch',
			jsonPatch: JSON.stringify(patch),
		});
		expect(error).toBeUndefined();
		expect(writesOf('patch').at(-1)?.body).toEqual(patch);
		expect(items[0].json).toMatchObject({ name: 'Move me', description: 'Move me', devices: ['device001'] });
	});

	it('update refuses a move without from, and a move into its own child, before sending', async () => {
		for (const [patch, problem] of [
			['[{ "op": "move", "path": "/name" }]', 'operation 0: from is required for "move"'],
			['[{ "op": "move", "from": "/devices", "path": "/devices/0" }]', 'operation 0: path cannot lie inside from ("/devices")'],
		]) {
			const { error } = await ctx.engine.runNode({ resource: 'group', operation: 'update', groupId: byId('grp-1'), patchMode: 'jsonPatch', jsonPatch: patch });
			expect(error?.message).toContain(problem);
		}
		expect(calls('PATCH')).toBe(0);
	});

	it('delete outputs { deleted: true, id } and the group is gone', async () => {
		const group = createGroup('Doomed');
		const { items } = await ctx.engine.runNode({ resource: 'group', operation: 'delete', groupId: byId(group.id) });
		expect(jsonOf(items)).toEqual([{ deleted: true, id: group.id }]);
		expect(ctx.sandbox.store.getGroup(group.id)).toBeUndefined();
		const again = await ctx.engine.runNode({ resource: 'group', operation: 'delete', groupId: byId(group.id) });
		expect(again.error?.message).toBe(`The tracking API answered 404: Group not found. (group id "${group.id}")`);
	});

	describe('addDevices and removeDevices', () => {
		it('addDevices reads the group once and sends one patch of the devices not yet in it', async () => {
			const group = createGroup('Adds', ['device001', 'device002']);
			const { items } = await ctx.engine.runNode({
				resource: 'group',
				operation: 'addDevices',
				groupId: byId(group.id),
				devices: 'device002, device003, device003',
			});
			expect(calls('GET')).toBe(1);
			expect(writesOf('patch').map((write) => write.body)).toEqual([
				[{ op: 'replace', path: '/devices', value: ['device001', 'device002', 'device003'] }],
			]);
			expect(items[0].json).toEqual(ctx.sandbox.store.getGroup(group.id));
		});

		it('addDevices sends nothing when every device is already in the group', async () => {
			const group = createGroup('Full', ['device001', 'device002']);
			const { items, error } = await ctx.engine.runNode({
				resource: 'group',
				operation: 'addDevices',
				groupId: byId(group.id),
				devices: ['device002', 'device001'],
			});
			expect(error).toBeUndefined();
			expect(calls('PATCH')).toBe(0);
			expect(items[0].json).toMatchObject({ id: group.id, devices: ['device001', 'device002'] });
		});

		it('removeDevices patches the list without the devices, and ignores ids not in the group', async () => {
			const group = createGroup('Removes', ['device001', 'device002', 'device003']);
			const { items } = await ctx.engine.runNode({
				resource: 'group',
				operation: 'removeDevices',
				groupId: byId(group.id),
				devices: 'device002, device009',
			});
			expect(writesOf('patch').map((write) => write.body)).toEqual([
				[{ op: 'replace', path: '/devices', value: ['device001', 'device003'] }],
			]);
			expect(items[0].json).toMatchObject({ devices: ['device001', 'device003'] });
		});

		it('removeDevices sends nothing when none of the devices is in the group', async () => {
			const group = createGroup('Untouched', ['device001']);
			await ctx.engine.runNode({ resource: 'group', operation: 'removeDevices', groupId: byId(group.id), devices: 'device005' });
			expect(calls('GET')).toBe(1);
			expect(calls('PATCH')).toBe(0);
			expect(ctx.sandbox.store.getGroup(group.id)?.devices).toEqual(['device001']);
		});

		it('items of one run that change the same group all take effect', async () => {
			const group = createGroup('Busy', []);
			const ids = ['device001', 'device002', 'device003', 'device004', 'device005', 'device006'];
			const { items } = await ctx.engine.runNode(
				{ resource: 'group', operation: 'addDevices', groupId: byId(group.id), devices: '={{ $json.device }}' },
				{ items: ids.map((device) => ({ device })) },
			);
			expect(items).toHaveLength(ids.length);
			expect(ctx.sandbox.store.getGroup(group.id)?.devices).toEqual(ids);
		});

		it('refuses an empty device list before sending anything', async () => {
			const { error } = await ctx.engine.runNode({ resource: 'group', operation: 'addDevices', groupId: byId('grp-1'), devices: ' , ' });
			expect(error?.message).toBe('Invalid "Devices" in item 0: Devices is empty');
			expect(calls('GET')).toBe(0);
		});
	});

	it('Continue On Fail: each item yields one output, paired with its input', async () => {
		const group = createGroup('Mixed', ['device001']);
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'group', operation: 'get', groupId: fromItem('id') },
			{ items: [{ id: group.id }, { id: 'grp-missing' }, { id: '..' }, { id: 'grp-1' }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json).toMatchObject({ id: group.id });
		expect(items[1].json).toMatchObject({ error: 'The tracking API answered 404: Group not found. (group id "grp-missing")' });
		expect(items[2].json.error).toContain('Invalid "Group" in item 2');
		expect(items[3].json).toMatchObject({ id: 'grp-1' });
	});

	it('the Group list mode searches groups by name', async () => {
		const context = ctx.engine.loadOptionsContext({ resource: 'group', operation: 'get' });
		const found = await new SatelliteTracking().methods.listSearch.searchGroups.call(context, 'van');
		expect(found.results).toEqual([{ name: 'Vans', value: 'grp-4' }]);
	});
});
