// @host-zones: matrix
/**
 * Saved version-1 workflows behave exactly as they did (issue 24.5: Alert → Get Many v1 stopped
 * trimming Alert Name, so a saved "SpeedLimit " found 0 alerts instead of 8). Each operation whose
 * version 2 differs is replayed here with the parameters a version-1 workflow saved, and what it
 * sends and outputs is held to version 1's behaviour; the last test finds every such operation in
 * the code, so one added later without a replay here fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const HOUR = 3_600_000;
const V1 = { typeVersion: 1 };
const ACTIONS = join(__dirname, '../../nodes/SatelliteTracking/actions');

/** The operations replayed below, as `resource/operation`. */
const REPLAYED = new Set<string>();
const replay = (operation: string, title: string, fn: () => Promise<void>) => {
	REPLAYED.add(operation);
	it(`${operation}: ${title}`, fn);
};

describe('saved version-1 workflows', () => {
	const ctx = useSandbox();
	beforeEach(() => ctx.sandbox.resetStats());

	const deviceLookups = () => ctx.sandbox.requestLog.filter((entry) => entry.method === 'GET' && /^\/api\/devices\/[^/]+$/.test(entry.path));
	const lastBody = (path: RegExp) => ctx.sandbox.requestLog.filter((entry) => path.test(entry.path)).at(-1)?.body;
	const range = () => {
		const to = new Date();
		return { from: new Date(to.getTime() - 24 * HOUR).toISOString(), to: to.toISOString() };
	};

	replay('alert/getAll', 'Alert Name is sent trimmed, so "SOSButton " finds the SOSButton alerts; the output is raw, unnamed', async () => {
		const deviceId = ctx.sandbox.store.facts.criticalAlertDeviceIds[0];
		const { from, to } = range();
		const expected = ctx.sandbox.store.alertsBetween(deviceId, Date.parse(from), Date.parse(to))!.filter((alert) => alert.alerts.includes('SOSButton'));
		expect(expected.length).toBeGreaterThan(0);
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'alert', operation: 'getAll', deviceId: byId(deviceId), from, to, alertName: 'SOSButton ', returnAll: true },
			V1,
		);
		expect(error).toBeUndefined();
		expect(lastBody(/\/alerts$/)).toMatchObject({ alertName: 'SOSButton' });
		expect(jsonOf(items)).toEqual(expected.map((alert) => ({ deviceId, ...alert })));
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('location/getAll', 'fixes come raw with deviceId and no device lookup', async () => {
		const { from, to } = range();
		const { items, error } = await ctx.engine.runNode(
			{ resource: 'location', operation: 'getAll', deviceId: byId('device001'), from, to, returnAll: false, limit: 3 },
			V1,
		);
		expect(error).toBeUndefined();
		// Limit kept the first fixes of the range, as version 1 always did.
		const fixes = ctx.sandbox.store.locationsBetween('device001', Date.parse(from), Date.parse(to))!.slice(0, 3);
		expect(jsonOf(items)).toEqual(fixes.map((fix) => ({ deviceId: 'device001', ...fix })));
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('device/getLastLocation', 'the fix comes raw with deviceId and no device lookup', async () => {
		const { items, error } = await ctx.engine.runNode({ resource: 'device', operation: 'getLastLocation', deviceId: byId('device002') }, V1);
		expect(error).toBeUndefined();
		expect(jsonOf(items)).toEqual([{ deviceId: 'device002', ...ctx.sandbox.store.lastLocation('device002') }]);
		expect(deviceLookups()).toHaveLength(0);
	});

	replay('device/sendCommand', 'the command is sent trimmed, hex too', async () => {
		const sent = async (command: string, format: string) => {
			ctx.sandbox.resetStats();
			const { items, error } = await ctx.engine.runNode(
				{ resource: 'device', operation: 'sendCommand', deviceId: byId('device004'), command, additionalFields: { format } },
				V1,
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ deviceId: 'device004', command: command.trim() });
			return ctx.sandbox.writes.find((entry) => entry.kind === 'sendCommand')?.body;
		};
		expect(await sent('  AT+RESET\r\n', 'Text')).toEqual({ command: 'AT+RESET', format: 'Text' });
		expect(await sent('0A 1B 2C\r\n', 'Hex')).toEqual({ command: '0A 1B 2C', format: 'Hex' });
	});

	replay('group/update', "Update Fields add the optional fields and replace the name, as version 1's patch did", async () => {
		const group = ctx.sandbox.store.createGroup({ name: 'Old name', description: 'before', devices: ['device001'] });
		const { error } = await ctx.engine.runNode(
			{ resource: 'group', operation: 'update', groupId: byId(group.id), updateFields: { name: 'New name', description: 'after', devices: 'device004' } },
			V1,
		);
		expect(error).toBeUndefined();
		const patch = ctx.sandbox.writes.find((write) => write.resource === 'group' && write.kind === 'patch')?.body as Array<{ op: string; path: string }>;
		expect(patch.map(({ op, path }) => `${op} ${path}`).sort()).toEqual(['add /description', 'add /devices', 'replace /name']);
	});

	it('every operation whose behaviour depends on the node version is replayed above', () => {
		const versioned: string[] = [];
		for (const resource of readdirSync(ACTIONS, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
			for (const file of readdirSync(join(ACTIONS, resource.name)).filter((name) => name.endsWith('.operation.ts'))) {
				const source = readFileSync(join(ACTIONS, resource.name, file), 'utf8');
				// isVersion1 asks the version; prepareNaming (readable.ts) names and simplifies from version 2 on.
				if (/\bisVersion1\b|\bprepareNaming\b|typeVersion/.test(source)) versioned.push(`${resource.name}/${file.replace('.operation.ts', '')}`);
			}
		}
		expect(versioned.sort()).toEqual([...REPLAYED].sort());
	});
});
