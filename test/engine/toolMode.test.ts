import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { TOOL_MAX_RESULTS } from '../../nodes/SatelliteTracking/actions/toolMode';
import { PACKAGE, registerNodeType } from '../support/engine';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

/** The type n8n runs when an AI agent or the MCP Server Trigger calls the node as a tool. */
const TOOL_TYPE = `${PACKAGE}.satelliteTrackingTool`;
registerNodeType(TOOL_TYPE, new SatelliteTracking());
/** A tool saved at version 2; the tests of 2.1 (the version n8n adds today) say so where they differ. */
const TOOL = { type: TOOL_TYPE, typeVersion: 2 };

const HOUR = 3_600_000;
const lastDay = () => ({ from: new Date(Date.now() - 24 * HOUR).toISOString(), to: new Date().toISOString() });

describe('the node as a tool, beside the node in a workflow', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());
	const requests = () => ctx.sandbox.requestLog.map((request) => `${request.method} ${request.path}`);

	it('a list cut by Limit says so as a tool, and stays as it was in a workflow', async () => {
		const parameters = { resource: 'location', operation: 'getAll', deviceId: byId('device001'), ...lastDay(), limit: 3 };
		const total = ctx.sandbox.store.locationsBetween('device001', Date.now() - 24 * HOUR, Date.now())!.length;
		expect(total).toBeGreaterThan(3);

		const plain = await ctx.engine.runNode(parameters, { typeVersion: 2 });
		expect(plain.error).toBeUndefined();
		expect(jsonOf(plain.items)).toHaveLength(3);
		expect(jsonOf(plain.items).every((item) => item.note === undefined)).toBe(true);

		const tool = await ctx.engine.runNode(parameters, TOOL);
		expect(tool.error).toBeUndefined();
		const answer = jsonOf(tool.items);
		expect(answer.slice(0, 3)).toEqual(jsonOf(plain.items));
		expect(answer[3]).toEqual({ note: expect.stringMatching(new RegExp(`^Showing 3 of ${total} results\\.`)) });
		expect(answer).toHaveLength(4);
	});

	it(`Return All stays whole in a workflow; a tool answers at most ${TOOL_MAX_RESULTS} results and says how many there were`, async () => {
		const parameters = { resource: 'location', operation: 'getAll', deviceId: byId('device001'), ...lastDay(), returnAll: true };
		const plain = await ctx.engine.runNode(parameters, { typeVersion: 2 });
		expect(plain.items.length).toBeGreaterThan(TOOL_MAX_RESULTS);
		const tool = await ctx.engine.runNode(parameters, TOOL);
		const answer = jsonOf(tool.items);
		expect(answer).toHaveLength(TOOL_MAX_RESULTS + 1);
		expect(answer[TOOL_MAX_RESULTS].note).toMatch(new RegExp(`^Showing ${TOOL_MAX_RESULTS} of ${plain.items.length} results`));
	});

	it.each([
		['Return All', { returnAll: true }],
		['a Limit over the cap', { limit: 1000 }],
	])(`at version 2.1, a range read capped at ${TOOL_MAX_RESULTS} for a model keeps the newest results, as Limit does (%s)`, async (_, cut) => {
		const parameters = { resource: 'location', operation: 'getAll', deviceId: byId('device001'), ...lastDay(), ...cut };
		const plain = jsonOf((await ctx.engine.runNode({ ...parameters, returnAll: true }, { typeVersion: 2.1 })).items);
		expect(plain.length).toBeGreaterThan(TOOL_MAX_RESULTS);
		const newest = [...plain].sort((a, b) => Date.parse(String(a.dateTime)) - Date.parse(String(b.dateTime))).slice(-TOOL_MAX_RESULTS);
		const answer = jsonOf((await ctx.engine.runNode(parameters, { ...TOOL, typeVersion: 2.1 })).items);
		expect(answer.slice(0, TOOL_MAX_RESULTS)).toEqual(newest);
		expect(answer[TOOL_MAX_RESULTS].note).toMatch(new RegExp(`^Showing ${TOOL_MAX_RESULTS} of ${plain.length} results`));
	});

	it('User Get Many as a tool says how many users Limit left out', async () => {
		const tool = await ctx.engine.runNode({ resource: 'user', operation: 'getAll', limit: 2 }, TOOL);
		const answer = jsonOf(tool.items);
		expect(answer).toHaveLength(3);
		expect(answer[2].note).toMatch(new RegExp(`^Showing 2 of ${ctx.sandbox.store.listUsers().length} results`));
		expect(answer.slice(0, 2).every((user) => typeof user.email === 'string' && !('password' in user))).toBe(true);
	});

	it('a list that is whole has no note, as a tool too', async () => {
		const tool = await ctx.engine.runNode({ resource: 'device', operation: 'getAll', returnAll: true }, TOOL);
		expect(jsonOf(tool.items)).toHaveLength(24);
		expect(jsonOf(tool.items).some((item) => 'note' in item)).toBe(false);
	});

	it('a tool takes a device name where an ID is expected; a workflow sends the value as the ID, as before', async () => {
		const tool = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('van 12') }, TOOL);
		expect(tool.error).toBeUndefined();
		expect(jsonOf(tool.items)[0]).toMatchObject({ deviceId: 'device012', deviceName: 'Van 12' });
		expect(requests()).toContain('GET /api/devices');

		ctx.sandbox.resetStats();
		const plain = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('van 12') }, { typeVersion: 2 });
		expect(plain.error?.message).toMatch(/not found|404/i);
		expect(requests()).not.toContain('GET /api/devices');
		expect(requests()).toContain('GET /api/devices/van 12/lastLocation');
	});

	it('an unknown device name fails as a tool with the field and the nearest names; an ID costs one device list per run', async () => {
		const unknown = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('Van 99') }, TOOL);
		expect(unknown.error?.message).toMatch(/^Invalid "Device" in item 0: Device "Van 99" is neither the ID nor the name of a device\. Devices with a similar name: "Van \d\d" \(ID device\d+\)/);
		// Neither listed nor a name: asked for once as an ID, as a device the listing leaves out may be (issue 47).
		expect(requests().filter((request) => !request.startsWith('POST /api/Auth'))).toEqual(['GET /api/devices', 'GET /api/devices/Van 99']);

		ctx.sandbox.resetStats();
		const items = [{ id: 'device001' }, { id: 'Truck 01' }, { id: 'device003' }];
		const three = await ctx.engine.runNode(
			{ resource: 'device', operation: 'getLastLocation', deviceId: byId('={{ $json.id }}') },
			{ ...TOOL, items },
		);
		expect(jsonOf(three.items).map((item) => item.deviceId)).toEqual(['device001', 'device001', 'device003']);
		expect(requests().filter((request) => request === 'GET /api/devices')).toHaveLength(1);
	});

	it('Add Devices as a tool takes IDs and names and writes once when called twice', async () => {
		const parameters = { resource: 'group', operation: 'addDevices', groupId: byId('grp-5'), devices: 'device001, Van 12' };
		for (let call = 0; call < 2; call++) {
			const tool = await ctx.engine.runNode(parameters, TOOL);
			expect(tool.error).toBeUndefined();
			expect(jsonOf(tool.items)[0].devices).toEqual(['device001', 'device012']);
		}
		expect(ctx.sandbox.writes.filter((write) => JSON.stringify(write).includes('grp-5'))).toHaveLength(1);
	});

	// Issue 47: these three read per device (deviceSelection.ts) and sent the name on as an ID.
	it.each([
		['Get Trips and Stops', { resource: 'location', operation: 'getTrips', ...lastDay() }, 'devices'],
		['Get Daily Summary', { resource: 'location', operation: 'getDailySummary', timeZone: 'UTC' }, 'devices'],
		['Get Notification Counters', { resource: 'device', operation: 'getNotificationCounters', timeZone: 'UTC' }, 'selectedDevices'],
	])('%s as a tool takes a device name, one device or selected; a workflow sends the value as the ID', async (_, operation, listName) => {
		for (const devices of [{ deviceId: byId('van 12') }, { deviceSelection: 'selected', [listName]: { device: [{ deviceId: byId('VAN 12') }] } }]) {
			ctx.sandbox.resetStats();
			const tool = await ctx.engine.runNode({ ...operation, ...devices }, TOOL);
			expect(tool.error).toBeUndefined();
			expect(requests().some((request) => request.includes('van 12') || request.includes('VAN 12'))).toBe(false);
			expect(requests().some((request) => request.includes('/device012'))).toBe(true);
		}
		const plain = await ctx.engine.runNode({ ...operation, deviceId: byId('van 12') }, { typeVersion: 2 });
		expect(plain.error?.message).toMatch(/not found|404/i);
	});

	describe('a device the listing leaves out (a retired device still in a group)', () => {
		beforeEach(() => ctx.sandbox.faults.inject({ match: { method: 'GET', path: '/api/devices' }, kind: 'dropListed', ids: ['device005'] }));
		afterEach(() => ctx.sandbox.faults.clear());

		it.each([
			['Get Last Location', { resource: 'device', operation: 'getLastLocation', deviceId: byId('device005') }],
			['Get Trips and Stops', { resource: 'location', operation: 'getTrips', deviceId: byId('device005'), ...lastDay() }],
			['Add Devices', { resource: 'group', operation: 'addDevices', groupId: byId('grp-5'), devices: 'device005' }],
		])('%s as a tool takes its exact ID, as a workflow does', async (_, parameters) => {
			const plain = await ctx.engine.runNode(parameters, { typeVersion: 2 });
			expect(plain.error).toBeUndefined();
			const tool = await ctx.engine.runNode(parameters, TOOL);
			expect(tool.error).toBeUndefined();
			expect(JSON.stringify(jsonOf(tool.items))).toContain('device005');
		});

		it('an ID that no device has still fails as a tool with the nearest names, asking once', async () => {
			ctx.sandbox.resetStats();
			const unknown = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('Van 99') }, TOOL);
			expect(unknown.error?.message).toMatch(/^Invalid "Device" in item 0: Device "Van 99" is neither the ID nor the name of a device\. Devices with a similar name/);
			expect(requests().filter((request) => !request.startsWith('POST /api/Auth'))).toEqual(['GET /api/devices', 'GET /api/devices/Van 99']);
		});
	});
});
