import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { isExpired } from '../../nodes/shared/devices';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

describe('device operations', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	it('get returns the device without the envelope', async () => {
		const { items } = await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId('device002') });
		expect(jsonOf(items)).toEqual([ctx.sandbox.store.getDevice('device002')]);
	});

	it('getAll returns every device with Return All, and trims with Limit', async () => {
		const all = await ctx.engine.runNode({ resource: 'device', operation: 'getAll', returnAll: true });
		expect(jsonOf(all.items)).toEqual(ctx.sandbox.store.listDevices());
		const some = await ctx.engine.runNode({ resource: 'device', operation: 'getAll', returnAll: false, limit: 4 });
		expect(jsonOf(some.items).map((device) => device.id)).toEqual(ctx.sandbox.store.listDevices().slice(0, 4).map((d) => d.id));
	});

	it.each([
		[0, 'must be between 1 and'],
		[-5, 'must be between 1 and'],
		['ten', 'must be a number (got "ten")'],
	])('getAll refuses a Limit of %p from an expression before sending, instead of answering nothing', async (limit, problem) => {
		const { error } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getAll', limit: '={{ $json.limit }}' },
			{ items: [{ limit }] },
		);
		expect(error?.message).toContain(`Invalid "Limit" in item 0: Limit ${problem}`);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it('getAll filters expired and active devices from expires', async () => {
		const now = new Date();
		const expired = await ctx.engine.runNode({ resource: 'device', operation: 'getAll', returnAll: true, filters: { status: 'expired' } });
		const active = await ctx.engine.runNode({ resource: 'device', operation: 'getAll', returnAll: true, filters: { status: 'active' } });
		const ids = (result: typeof expired) => jsonOf(result.items).map((device) => device.id);
		const expected = ctx.sandbox.store.listDevices().filter((device) => isExpired(device, now)).map((device) => device.id);
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(expired).sort()).toEqual([...ctx.sandbox.store.facts.expiredDeviceIds].sort());
		expect(ids(expired)).toEqual(expected);
		expect(ids(active)).toHaveLength(ctx.sandbox.store.listDevices().length - expected.length);
	});

	it('getAll filters by name and tag', async () => {
		const { items } = await ctx.engine.runNode({
			resource: 'device',
			operation: 'getAll',
			returnAll: true,
			filters: { nameContains: 'truck', tagKey: 'fleet', tagValue: 'north' },
		});
		expect(items.length).toBeGreaterThan(0);
		for (const device of jsonOf(items) as Array<{ name: string; tags: Record<string, string> }>) {
			expect(device.name.toLowerCase()).toContain('truck');
			expect(device.tags.fleet).toBe('north');
		}
	});

	it('getLastLocation adds deviceId to the newest fix', async () => {
		const { items } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getLastLocation', deviceId: fromItem('id') },
			{ items: [{ id: 'device001' }, { id: 'device003' }] },
		);
		expect(jsonOf(items)).toEqual([
			{ deviceId: 'device001', ...ctx.sandbox.store.lastLocation('device001') },
			{ deviceId: 'device003', ...ctx.sandbox.store.lastLocation('device003') },
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('getLastLocation marks a device that never reported instead of failing', async () => {
		const deviceId = ctx.sandbox.store.facts.neverReportedDeviceId!;
		const { items, error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId(deviceId) });
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual([{ deviceId, neverReported: true }]);
	});

	it('getLastLocation fails for an unknown device with the vendor message', async () => {
		const { error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('no-such-device') });
		expect(error?.message).toBe('The tracking API answered 404: Device not found. (device id "no-such-device")');
	});

	it('sendCommand sends command, format and sms as the API expects', async () => {
		const { items } = await ctx.engine.runNode({
			resource: 'device',
			operation: 'sendCommand',
			deviceId: byId('device004'),
			command: '0A 1B ff',
			additionalFields: { format: 'Hex', sms: true },
		});
		const write = ctx.sandbox.writes.find((entry) => entry.kind === 'sendCommand');
		expect(write).toMatchObject({ id: 'device004', body: { command: '0A 1B ff', format: 'Hex', sms: true } });
		expect(items[0].json).toMatchObject({ deviceId: 'device004', command: '0A 1B ff', result: expect.any(String) });
	});

	it.each([
		['hyphen-separated hex pairs', '0A-1B-2C', 'Hex'],
		['hex pairs with the trailing line end a device expects', '0A 1B 2C\r\n', 'Hex'],
		['a text command with its trailing line end', 'AT+RESET\r\n', 'Text'],
		['a text command with leading spaces', '  STATUS', 'Text'],
	])('sendCommand (version 2) sends %s exactly as typed', async (_case, command, format) => {
		ctx.sandbox.resetStats();
		const { error, items } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'sendCommand', deviceId: byId('device004'), command, additionalFields: { format } },
			{ typeVersion: 2 },
		);
		expect(error).toBeUndefined();
		expect(ctx.sandbox.writes.find((entry) => entry.kind === 'sendCommand')?.body).toEqual({ command, format });
		expect(items[0].json).toMatchObject({ command });
	});

	it.each(
		[1, 2, 2.1].flatMap((typeVersion) => ['0A-1B-2', '0A--1B', '0A 1B-', '0A1'].map((command) => [command, typeVersion] as const)),
	)('sendCommand refuses the broken hex %s before any request (version %s)', async (command, typeVersion) => {
		ctx.sandbox.resetStats();
		const { error } = await ctx.engine.runNode(
			{
				resource: 'device',
				operation: 'sendCommand',
				deviceId: byId('device004'),
				command,
				additionalFields: { format: 'Hex' },
			},
			{ typeVersion },
		);
		expect(error?.message).toBe('Invalid "Command" in item 0: Command is not hexadecimal (pairs of 0-9, a-f)');
		expect(ctx.sandbox.stats.byRoute['POST /api/devices/{deviceId}/sendCommand']).toBeUndefined();
	});

	// Issue 12 accepted the vendor's documented hyphen form; restoring version 1's trimming (saved
	// workflows' output) refused it there again (issue 47): a valid vendor format is taken in every version.
	it.each([1, 2, 2.1])('sendCommand takes the vendor\'s hex form 0A-1B-2C at version %s', async (typeVersion) => {
		ctx.sandbox.resetStats();
		const { error, items } = await ctx.engine.runNode(
			{ resource: 'device', operation: 'sendCommand', deviceId: byId('device004'), command: '0A-1B-2C', additionalFields: { format: 'Hex' } },
			{ typeVersion },
		);
		expect(error).toBeUndefined();
		expect(ctx.sandbox.writes.find((entry) => entry.kind === 'sendCommand')?.body).toEqual({ command: '0A-1B-2C', format: 'Hex' });
		expect(items[0].json).toMatchObject({ deviceId: 'device004', command: '0A-1B-2C' });
	});

	it('sendCommand refuses a command that does not match its format, before any request', async () => {
		const { error } = await ctx.engine.runNode({
			resource: 'device',
			operation: 'sendCommand',
			deviceId: byId('device004'),
			command: 'not hex',
			additionalFields: { format: 'Hex' },
		});
		expect(error?.message).toBe('Invalid "Command" in item 0: Command is not hexadecimal (pairs of 0-9, a-f)');
		expect(ctx.sandbox.stats.byRoute['POST /api/devices/{deviceId}/sendCommand']).toBeUndefined();
	});

	it('sendCommand refuses a Send by SMS that is not true or false, instead of sending false', async () => {
		const { error } = await ctx.engine.runNode({
			resource: 'device',
			operation: 'sendCommand',
			deviceId: byId('device004'),
			command: 'REBOOT',
			additionalFields: { sms: '={{ "yes" }}' },
		});
		expect(error?.message).toBe('Invalid "Send by SMS" in item 0: Send by SMS must be true or false (got "yes")');
		expect(ctx.sandbox.stats.byRoute['POST /api/devices/{deviceId}/sendCommand']).toBeUndefined();
	});

	it('the Device list mode searches devices by name, any case', async () => {
		const context = ctx.engine.loadOptionsContext({ resource: 'device', operation: 'get' });
		const found = await new SatelliteTracking().methods.listSearch.searchDevices.call(context, 'VAN 0');
		const expected = ctx.sandbox.store.listDevices().filter((device) => device.name.startsWith('Van 0'));
		expect(expected.length).toBeGreaterThan(1);
		expect(found.results).toEqual(expected.map((device) => ({ name: device.name, value: device.id })));
	});

	it('the Device list shows the id beside a name two devices share', async () => {
		const [first] = ctx.sandbox.store.listDevices();
		ctx.sandbox.store.addDevice({ ...first, id: 'twin-of-first' });
		try {
			const context = ctx.engine.loadOptionsContext({ resource: 'device', operation: 'get' });
			const found = await new SatelliteTracking().methods.listSearch.searchDevices.call(context, first.name);
			expect(found.results).toEqual([
				{ name: `${first.name} (${first.id})`, value: first.id },
				{ name: `${first.name} (twin-of-first)`, value: 'twin-of-first' },
			]);
		} finally {
			ctx.sandbox.store.removeDevice('twin-of-first');
		}
	});
});
