/**
 * What the MCP client of scripts/e2e/mcp/run-mcp.ts expects of examples/fleet-assistant-mcp.json's
 * tools: the tools/list entries (name, description, input schema) and the answers of tools/call
 * against a fresh sandbox. Each check throws a message naming the tool and what was wrong.
 */
import { TOOL_MAX_RESULTS } from '../../../nodes/SatelliteTracking/actions/toolMode';

export interface ToolAnswer {
	content: Array<{ type: string; text?: string }>;
	isError?: boolean;
}

export type ToolClient = (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>;

interface ListedTool {
	name: string;
	description?: string;
	inputSchema: { type: string; properties?: Record<string, { type?: string; description?: string; default?: unknown }>; required?: string[] };
}

interface Expected {
	/** What the model reads: n8n's automatic tool description, "<the operation's action> in Satellite Tracking". */
	description: string;
	/** Argument → JSON Schema type; `?` after the name: optional (has a default). */
	args: Record<string, string>;
}

/** The example's tools: n8n names a tool after its node, and describes it by the operation's action text. */
const EXPECTED: Record<string, Expected> = {
	list_devices: { description: 'Get many devices with their IDs, names, tags and expiry in Satellite Tracking', args: { 'limit?': 'number', 'nameContains?': 'string' } },
	last_location: { description: 'Get the last location of a device: where it is now in Satellite Tracking', args: { device: 'string' } },
	location_history: { description: 'Get locations of a device in a time range: where it was in Satellite Tracking', args: { device: 'string', from: 'string', to: 'string', 'limit?': 'number' } },
	device_alerts: { description: 'Get alerts of a device in a time range, such as speeding or SOS in Satellite Tracking', args: { device: 'string', from: 'string', to: 'string', 'limit?': 'number' } },
	list_groups: { description: 'Get many groups with their IDs, names and devices in Satellite Tracking', args: { 'limit?': 'number' } },
	add_devices_to_group: { description: 'Add devices to a group (safe to repeat) in Satellite Tracking', args: { group: 'string', devices: 'string' } },
	upsert_user: { description: 'Create or update a user by e-mail (safe to repeat) in Satellite Tracking', args: { name: 'string', email: 'string', country: 'string', timeZone: 'string' } },
};

function fail(message: string): never {
	throw new Error(message);
}

export function checkToolList(tools: ListedTool[]): string[] {
	const problems: string[] = [];
	const names = tools.map((tool) => tool.name).sort();
	const expectedNames = Object.keys(EXPECTED).sort();
	if (JSON.stringify(names) !== JSON.stringify(expectedNames)) problems.push(`tools/list names ${names.join(', ')}; expected ${expectedNames.join(', ')}`);
	for (const tool of tools) {
		const expected = EXPECTED[tool.name];
		if (!expected) continue;
		if (tool.description !== expected.description) {
			problems.push(`${tool.name}: description ${JSON.stringify(tool.description)}; expected ${JSON.stringify(expected.description)}`);
		}
		const properties = tool.inputSchema.properties ?? {};
		const required = [...(tool.inputSchema.required ?? [])].sort();
		const wantRequired = Object.keys(expected.args).filter((arg) => !arg.endsWith('?')).sort();
		if (JSON.stringify(required) !== JSON.stringify(wantRequired)) {
			problems.push(`${tool.name}: required arguments [${required.join(', ')}]; expected [${wantRequired.join(', ')}]`);
		}
		const wantNames = Object.keys(expected.args).map((arg) => arg.replace(/\?$/, '')).sort();
		if (JSON.stringify(Object.keys(properties).sort()) !== JSON.stringify(wantNames)) {
			problems.push(`${tool.name}: arguments [${Object.keys(properties).sort().join(', ')}]; expected [${wantNames.join(', ')}]`);
		}
		for (const [arg, type] of Object.entries(expected.args)) {
			const property = properties[arg.replace(/\?$/, '')];
			if (!property) continue;
			if (property.type !== type) problems.push(`${tool.name}.${arg}: type ${String(property.type)}; expected ${type}`);
			if (!property.description || property.description.length < 15) problems.push(`${tool.name}.${arg}: no description a model can go by`);
			if (arg.endsWith('?') && property.default === undefined) problems.push(`${tool.name}.${arg}: optional, yet no default a model can leave it to`);
		}
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------------
// tools/call

interface CaseContext {
	facts: Record<string, unknown>;
	sandboxJson(route: string): Promise<unknown>;
}

export interface ToolCase {
	name: string;
	/** Runs its calls and checks their answers; returns how many tool calls it made. */
	run(call: ToolClient, ctx: CaseContext): Promise<number>;
}

const text = (answer: ToolAnswer) => answer.content.map((part) => part.text ?? '').join('\n');

/** The items of a successful answer (n8n sends the tool's output items as one JSON text). */
async function items(call: ToolClient, tool: string, args: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
	const answer = await call(tool, args);
	if (answer.isError) fail(`${tool}(${JSON.stringify(args)}) answered an error: ${text(answer)}`);
	const parsed = JSON.parse(text(answer)) as unknown;
	if (!Array.isArray(parsed)) fail(`${tool}(${JSON.stringify(args)}) did not answer a list: ${text(answer).slice(0, 300)}`);
	return parsed as Array<Record<string, unknown>>;
}

/** An error answer a model can act on: the field, what is allowed, and no stack trace. */
async function readableError(call: ToolClient, tool: string, args: Record<string, unknown>, mustSay: RegExp[]): Promise<string> {
	const answer = await call(tool, args);
	const said = text(answer);
	if (!answer.isError) fail(`${tool}(${JSON.stringify(args)}) should fail, answered ${said.slice(0, 300)}`);
	for (const pattern of mustSay) if (!pattern.test(said)) fail(`${tool}(${JSON.stringify(args)}): the error should match ${pattern}: ${said}`);
	if (/\n\s+at \S+ \(|node_modules|\.js:\d+/.test(said)) fail(`${tool}(${JSON.stringify(args)}): the error shows a stack trace: ${said}`);
	return said;
}

const notes = (list: Array<Record<string, unknown>>) => list.filter((item) => typeof item.note === 'string');
const results = (list: Array<Record<string, unknown>>) => list.filter((item) => typeof item.note !== 'string');

function lastDay(): { from: string; to: string } {
	const to = new Date(Date.now() + 60_000);
	return { from: new Date(to.getTime() - 24 * 3_600_000).toISOString(), to: to.toISOString() };
}

/** The keys of a simplified fix (actions/readable.ts, shared/simplify.ts): never the raw 27 columns. */
const FIX_KEYS = ['deviceId', 'deviceName', 'dateTime', 'latitude', 'longitude', 'speed', 'battery', 'mapLink', 'alerts'];

function ensureSimplifiedFix(tool: string, fix: Record<string, unknown>): void {
	const extra = Object.keys(fix).filter((key) => !FIX_KEYS.includes(key) && key !== 'text' && key !== 'notifications');
	if (extra.length > 0) fail(`${tool}: a fix should be simplified, it has ${extra.join(', ')}: ${JSON.stringify(fix)}`);
	if (typeof fix.latitude !== 'number' || typeof fix.longitude !== 'number') fail(`${tool}: a fix without coordinates: ${JSON.stringify(fix)}`);
}

export const TOOL_CASES: ToolCase[] = [
	{
		name: 'list_devices: a bounded list that says what it left out, and a name filter',
		async run(call) {
			const five = await items(call, 'list_devices', { limit: 5 });
			if (results(five).length !== 5) fail(`list_devices limit 5 gave ${results(five).length} devices`);
			const [note] = notes(five);
			if (!note || !/Showing 5 of 24 results/.test(String(note.note))) fail(`list_devices limit 5 of 24 should say so in a note: ${JSON.stringify(five.slice(-1))}`);
			for (const device of results(five)) if (typeof device.id !== 'string' || typeof device.name !== 'string') fail(`a device without id/name: ${JSON.stringify(device)}`);
			const vans = await items(call, 'list_devices', { nameContains: 'van' });
			if (vans.length !== 8 || notes(vans).length > 0 || vans.some((device) => !/^Van /.test(String(device.name)))) {
				fail(`list_devices nameContains "van" (default limit 10) should give the 8 vans and no note: ${JSON.stringify(vans.map((d) => d.name ?? d.note))}`);
			}
			return 2;
		},
	},
	{
		name: 'last_location: by ID, by a device name where an ID is expected, a device that never reported',
		async run(call, ctx) {
			const [byId] = await items(call, 'last_location', { device: 'device003' });
			if (byId?.deviceId !== 'device003' || byId.deviceName !== 'Van 03') fail(`last_location device003: ${JSON.stringify(byId)}`);
			ensureSimplifiedFix('last_location', byId);
			const [byName] = await items(call, 'last_location', { device: '  van 12 ' });
			if (byName?.deviceId !== 'device012' || byName.deviceName !== 'Van 12') fail(`last_location "van 12" should read device012 (Van 12): ${JSON.stringify(byName)}`);
			const never = String(ctx.facts.neverReportedDeviceId);
			const [silent] = await items(call, 'last_location', { device: never });
			if (silent?.neverReported !== true || silent.deviceId !== never) fail(`last_location ${never} (never reported): ${JSON.stringify(silent)}`);
			return 3;
		},
	},
	{
		name: 'last_location: an unknown device comes back as an error naming the field and near names',
		async run(call) {
			await readableError(call, 'last_location', { device: 'Van 99' }, [/"Device"/, /neither the ID nor the name of a device/, /Van \d\d/, /ID device0\d\d/]);
			return 1;
		},
	},
	{
		name: 'location_history: a Limit cut, the tool cap, and bad arguments',
		async run(call) {
			const range = lastDay();
			const three = await items(call, 'location_history', { device: 'Truck 01', ...range, limit: 3 });
			if (results(three).length !== 3) fail(`location_history limit 3 gave ${results(three).length} fixes`);
			results(three).forEach((fix) => ensureSimplifiedFix('location_history', fix));
			if (!/^Showing 3 of \d+ results/.test(String(notes(three)[0]?.note))) fail(`location_history limit 3 should say how many there were: ${JSON.stringify(three.slice(-1))}`);
			const many = await items(call, 'location_history', { device: 'device001', ...range, limit: 1000 });
			if (results(many).length !== TOOL_MAX_RESULTS || !new RegExp(`^Showing ${TOOL_MAX_RESULTS} of \\d+ results`).test(String(notes(many)[0]?.note))) {
				fail(`location_history limit 1000 should stop at ${TOOL_MAX_RESULTS} fixes and say so: ${results(many).length} fixes, ${JSON.stringify(many.slice(-1))}`);
			}
			await readableError(call, 'location_history', { device: 'device001', from: 'yesterday', to: range.to }, [/"From"/, /ISO 8601/, /yesterday/]);
			await readableError(call, 'location_history', { device: 'device001', ...range, limit: 0 }, [/"Limit"/, /must be between 1 and/]);
			await readableError(call, 'location_history', { device: 'device001', from: range.to, to: range.from }, [/"From"/, /must not be after To/]);
			return 5;
		},
	},
	{
		name: 'device_alerts: a device with a critical alert',
		async run(call, ctx) {
			const deviceId = (ctx.facts.criticalAlertDeviceIds as string[])[0];
			const alerts = await items(call, 'device_alerts', { device: deviceId, ...lastDay() });
			if (results(alerts).length === 0) fail(`device_alerts ${deviceId}: no alerts in the last 24 hours`);
			for (const alert of results(alerts)) {
				ensureSimplifiedFix('device_alerts', alert);
				if (!Array.isArray(alert.alerts) || alert.alerts.length === 0) fail(`device_alerts: an alert without alert names: ${JSON.stringify(alert)}`);
			}
			return 1;
		},
	},
	{
		name: 'add_devices_to_group: IDs and names, called twice, writes once',
		async run(call, ctx) {
			const groups = await items(call, 'list_groups', {});
			const night = groups.find((group) => group.name === 'Night shift');
			if (!night) fail(`list_groups has no "Night shift": ${JSON.stringify(groups)}`);
			const args = { group: night.id, devices: 'device001, Van 12' };
			const [first] = await items(call, 'add_devices_to_group', args);
			const [second] = await items(call, 'add_devices_to_group', args);
			for (const group of [first, second]) {
				if (JSON.stringify(group?.devices) !== JSON.stringify(['device001', 'device012'])) fail(`add_devices_to_group: the group should hold device001, device012: ${JSON.stringify(group)}`);
			}
			const writes = ((await ctx.sandboxJson('/__sandbox/writes')) as Array<{ resource?: string; id?: string; kind?: string }>).filter(
				(write) => JSON.stringify(write).includes(String(night.id)),
			);
			if (writes.length !== 1) fail(`add_devices_to_group called twice should write once, the sandbox saw ${writes.length} writes: ${JSON.stringify(writes)}`);
			await readableError(call, 'add_devices_to_group', { group: night.id, devices: 'device001, Lorry 7' }, [/"Devices"/, /"Lorry 7" is neither the ID nor the name of a device/]);
			return 4;
		},
	},
	{
		name: 'upsert_user: called twice, creates once; a bad e-mail is an error naming the field',
		async run(call, ctx) {
			const args = { name: 'Nadia Driver', email: 'nadia.driver@example.com', country: 'DE', timeZone: 'Europe/Berlin' };
			const [first] = await items(call, 'upsert_user', args);
			const [second] = await items(call, 'upsert_user', { ...args, email: 'Nadia.Driver@Example.com' });
			if (first?.action !== 'created' || second?.action !== 'unchanged') fail(`upsert_user twice: ${JSON.stringify([first, second])}`);
			const writes = ((await ctx.sandboxJson('/__sandbox/writes')) as unknown[]).filter((write) => JSON.stringify(write).includes('nadia.driver@example.com'));
			if (writes.length !== 1) fail(`upsert_user called twice should write once, the sandbox saw ${writes.length}: ${JSON.stringify(writes)}`);
			await readableError(call, 'upsert_user', { ...args, email: 'nadia at example' }, [/"Email"/]);
			return 3;
		},
	},
	{
		name: 'a missing argument is refused by the tool schema, as a readable error',
		async run(call) {
			await readableError(call, 'location_history', { device: 'device001' }, [/from|to/i]);
			return 1;
		},
	},
];
