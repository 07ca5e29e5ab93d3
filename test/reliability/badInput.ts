/**
 * R2: bad input across every operation, table-driven. Invalid input gets an error naming the item
 * and the field, and no request leaves the node. Odd ids that are valid strings reach their own
 * route percent-encoded and get the service's 404; the sandbox's log shows the path it saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { PathParam } from '../../nodes/shared/wire';
import { byId } from '../support/sandboxed';
import { areaWallClock, useWatchedSandbox, isReadableError, secretWatch, summary } from './support';

const FROM = '2024-01-01T00:00:00Z';
const TO = '2024-01-02T00:00:00Z';
/** Two items per case: each must fail on its own, named by its own index. */
const ITEMS: IDataObject[] = [{}, {}];

/** A value taken from the input item by an expression, as a workflow hands over a spreadsheet cell. */
const fromJson = (value: unknown) => ({ expression: '={{ $json.v }}', value });

type Value = unknown;

interface OperationBase {
	label: string;
	parameters: INodeParameters;
}

const device = byId('device001');
const group = byId('grp-1');
const user = byId('usr-1');
const validUser = { name: 'Ada', email: 'ada@example.com', country: 'US', timeZone: 'Europe/London' };

const OPS = {
	deviceGet: { label: 'device get', parameters: { resource: 'device', operation: 'get', deviceId: device } },
	lastLocation: { label: 'device getLastLocation', parameters: { resource: 'device', operation: 'getLastLocation', deviceId: device } },
	deviceGetAll: { label: 'device getAll', parameters: { resource: 'device', operation: 'getAll' } },
	sendCommand: { label: 'device sendCommand', parameters: { resource: 'device', operation: 'sendCommand', deviceId: device, command: 'PING 1' } },
	locations: { label: 'location getAll', parameters: { resource: 'location', operation: 'getAll', deviceId: device, from: FROM, to: TO } },
	submit: {
		label: 'location submit',
		parameters: { resource: 'location', operation: 'submit', deviceId: device, latitude: 1, longitude: 2, dateTime: FROM },
	},
	alerts: { label: 'alert getAll', parameters: { resource: 'alert', operation: 'getAll', deviceId: device, from: FROM, to: TO } },
	groupCreate: { label: 'group create', parameters: { resource: 'group', operation: 'create', name: 'Night shift' } },
	groupGet: { label: 'group get', parameters: { resource: 'group', operation: 'get', groupId: group } },
	groupGetAll: { label: 'group getAll', parameters: { resource: 'group', operation: 'getAll' } },
	groupReplace: { label: 'group replace', parameters: { resource: 'group', operation: 'replace', groupId: group, name: 'Night shift' } },
	groupUpdate: { label: 'group update', parameters: { resource: 'group', operation: 'update', groupId: group, updateFields: { name: 'Day shift' } } },
	groupPatch: { label: 'group update (JSON Patch)', parameters: { resource: 'group', operation: 'update', groupId: group, patchMode: 'jsonPatch' } },
	groupDelete: { label: 'group delete', parameters: { resource: 'group', operation: 'delete', groupId: group } },
	addDevices: { label: 'group addDevices', parameters: { resource: 'group', operation: 'addDevices', groupId: group, devices: 'device001' } },
	removeDevices: { label: 'group removeDevices', parameters: { resource: 'group', operation: 'removeDevices', groupId: group, devices: 'device001' } },
	userCreate: { label: 'user create', parameters: { resource: 'user', operation: 'create', ...validUser } },
	userGet: { label: 'user get', parameters: { resource: 'user', operation: 'get', userId: user } },
	userGetAll: { label: 'user getAll', parameters: { resource: 'user', operation: 'getAll' } },
	userReplace: { label: 'user replace', parameters: { resource: 'user', operation: 'replace', userId: user, ...validUser } },
	userUpdate: { label: 'user update', parameters: { resource: 'user', operation: 'update', userId: user, updateFields: { name: 'Ada L.' } } },
	userPatch: { label: 'user update (JSON Patch)', parameters: { resource: 'user', operation: 'update', userId: user, patchMode: 'jsonPatch' } },
	userDelete: { label: 'user delete', parameters: { resource: 'user', operation: 'delete', userId: user } },
	userUpsert: { label: 'user upsert', parameters: { resource: 'user', operation: 'upsert', ...validUser } },
} satisfies Record<string, OperationBase>;

/** Sets `path` (e.g. `additionalFields.format`) in a copy of the operation's parameters. */
function withValue(base: INodeParameters, path: string, value: Value): { parameters: INodeParameters; items: IDataObject[] } {
	const parameters = structuredClone(base) as IDataObject;
	let items = ITEMS;
	let parameterValue: unknown = value;
	if (typeof value === 'object' && value !== null && 'expression' in value) {
		const { expression, value: itemValue } = value as { expression: string; value: unknown };
		parameterValue = expression;
		items = ITEMS.map(() => ({ v: itemValue as IDataObject[string] }));
	}
	const keys = path.split('.');
	let target = parameters;
	for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as IDataObject;
	const last = keys[keys.length - 1];
	const isLocator = ['deviceId', 'groupId', 'userId'].includes(last);
	target[last] = isLocator ? byId(parameterValue as string) : (parameterValue as IDataObject[string]);
	return { parameters: parameters as INodeParameters, items };
}

interface InvalidCase {
	op: OperationBase;
	path: string;
	value: Value;
	/** The field as the error names it. */
	field: string;
	problem?: RegExp;
	why: string;
}

const invalid = (op: OperationBase, path: string, value: Value, field: string, why: string, problem?: RegExp): InvalidCase => ({
	op,
	path,
	value,
	field,
	why,
	problem,
});

const HUGE = 'x'.repeat(100_000);

const INVALID_CASES: InvalidCase[] = [
	// ids that cannot travel in a path, or are no text at all
	invalid(OPS.deviceGet, 'deviceId', fromJson(''), 'Device', 'empty id from an expression', /is empty/),
	invalid(OPS.deviceGet, 'deviceId', '   ', 'Device', 'blank id', /is empty/),
	invalid(OPS.lastLocation, 'deviceId', '..', 'Device', 'dot-dot id', /cannot be/),
	invalid(OPS.sendCommand, 'deviceId', '.', 'Device', 'dot id', /cannot be/),
	invalid(OPS.locations, 'deviceId', fromJson(null), 'Device', 'null id from an expression', /is empty/),
	invalid(OPS.alerts, 'deviceId', fromJson({ id: 'device001' }), 'Device', 'object id from an expression', /must be text/),
	invalid(OPS.groupGet, 'groupId', fromJson(['grp-1']), 'Group', 'array id from an expression', /must be text/),
	invalid(OPS.groupDelete, 'groupId', '..', 'Group', 'dot-dot group id', /cannot be/),
	invalid(OPS.userDelete, 'userId', fromJson(''), 'User', 'empty user id from an expression', /is empty/),
	invalid(OPS.deviceGet, 'deviceId', fromJson('d'.repeat(100_000)), 'Device', 'a 100 kB id', /too long for an id/),
	invalid(OPS.userGet, 'userId', ' .. ', 'User', 'dot-dot user id with spaces', /cannot be/),
	invalid(OPS.userReplace, 'userId', fromJson({}), 'User', 'object user id', /must be text/),
	// send command
	invalid(OPS.sendCommand, 'command', fromJson(''), 'Command', 'empty command', /is empty/),
	invalid(OPS.sendCommand, 'command', '  \t ', 'Command', 'blank command', /is empty/),
	invalid(OPS.sendCommand, 'command', fromJson({ text: 'PING' }), 'Command', 'object command from an expression', /must be text/),
	invalid(OPS.sendCommand, 'additionalFields', { format: 'Hex', sms: false }, 'Command', 'hex format, text command', /hexadecimal/),
	invalid(OPS.sendCommand, 'additionalFields.format', 'Base64', 'Command', 'base64 format, text command', /Base64/),
	invalid(OPS.sendCommand, 'additionalFields.format', fromJson('Binary'), 'Format', 'unknown format from an expression', /must be one of/),
	invalid(OPS.sendCommand, 'additionalFields.sms', fromJson('yes'), 'Send by SMS', 'non-boolean SMS flag from an expression', /true or false/),
	// date ranges
	invalid(OPS.locations, 'from', 'yesterday', 'From', 'words for a date', /ISO 8601/),
	invalid(OPS.locations, 'from', '2024-02-30T00:00:00Z', 'From', 'February 30th', /not a valid date|does not exist/),
	invalid(OPS.locations, 'to', '2023-02-29', 'To', 'February 29th of a common year', /not a valid date|does not exist/),
	invalid(OPS.locations, 'to', '2024-04-31T10:00:00Z', 'To', 'April 31st', /not a valid date|does not exist/),
	invalid(OPS.locations, 'from', '2024-13-01T00:00:00Z', 'From', 'month 13', /not a valid date|does not exist/),
	invalid(OPS.locations, 'to', '2024-01-01T25:00:00Z', 'To', 'hour 25', /not a valid date/),
	invalid(OPS.locations, 'from', '2024-01-03T00:00:00Z', 'From', 'from after to', /must not be after To/),
	invalid(OPS.alerts, 'to', '2023-12-31T23:59:59Z', 'From', 'to before from', /must not be after To/),
	invalid(OPS.locations, 'from', fromJson(''), 'From', 'empty date', /is empty/),
	invalid(OPS.alerts, 'to', fromJson(Number.NaN), 'To', 'NaN date from an expression', /NaN/),
	invalid(OPS.alerts, 'from', fromJson({ day: 1 }), 'From', 'object date from an expression', /not a date/),
	invalid(OPS.alerts, 'from', fromJson(true), 'From', 'boolean date from an expression', /not a date/),
	invalid(OPS.alerts, 'alertName', fromJson({ name: 'SOS' }), 'Alert Name', 'object alert name from an expression', /must be text/),
	// coordinates and fix fields
	invalid(OPS.submit, 'latitude', 91, 'Latitude', 'latitude above 90', /between -90 and 90/),
	invalid(OPS.submit, 'latitude', -90.0001, 'Latitude', 'latitude below -90', /between -90 and 90/),
	invalid(OPS.submit, 'longitude', 180.5, 'Longitude', 'longitude above 180', /between -180 and 180/),
	invalid(OPS.submit, 'longitude', -181, 'Longitude', 'longitude below -180', /between -180 and 180/),
	invalid(OPS.submit, 'latitude', fromJson(Number.NaN), 'Latitude', 'NaN latitude', /must be a number \(got NaN\)/),
	invalid(OPS.submit, 'longitude', fromJson(Number.POSITIVE_INFINITY), 'Longitude', 'infinite longitude', /must be a number \(got Infinity\)/),
	invalid(OPS.submit, 'latitude', fromJson('north'), 'Latitude', 'text latitude', /must be a number/),
	invalid(OPS.submit, 'latitude', fromJson(''), 'Latitude', 'empty latitude', /must be a number/),
	invalid(OPS.submit, 'longitude', fromJson(null), 'Longitude', 'null longitude', /must be a number/),
	invalid(OPS.submit, 'latitude', fromJson(true), 'Latitude', 'boolean latitude', /must be a number/),
	invalid(OPS.submit, 'longitude', fromJson([12]), 'Longitude', 'array longitude', /must be a number/),
	invalid(OPS.submit, 'dateTime', fromJson(''), 'Date Time', 'empty fix time', /is empty/),
	invalid(OPS.submit, 'dateTime', 'not a date', 'Date Time', 'fix time in words', /ISO 8601/),
	invalid(OPS.submit, 'dateTime', '2024-02-30T12:00:00Z', 'Date Time', 'impossible fix time', /not a valid date|does not exist/),
	invalid(OPS.submit, 'additionalFields.speed', fromJson('fast'), 'Speed', 'text speed', /must be a number/),
	invalid(OPS.submit, 'additionalFields.alertTexts', fromJson({ text: 'SOS' }), 'AlertTexts', 'object alert texts', /list/),
	invalid(OPS.submit, 'additionalFields.hasCriticalAlert', fromJson('yes'), 'Has Critical Alert', 'non-boolean flag', /true or false/),
	// groups
	invalid(OPS.groupCreate, 'name', fromJson(''), 'Name', 'empty group name', /is empty/),
	invalid(OPS.groupCreate, 'name', '   ', 'Name', 'blank group name', /is empty/),
	invalid(OPS.groupCreate, 'name', fromJson({ name: 'G' }), 'Name', 'object group name', /must be text/),
	invalid(OPS.groupCreate, 'additionalFields.devices', 'device001, ..', 'Devices', 'dot-dot device in the list', /invalid device id/),
	invalid(OPS.groupCreate, 'additionalFields.devices', fromJson(42), 'Devices', 'number for a device list', /list or an array/),
	invalid(OPS.groupCreate, 'additionalFields.description', fromJson(['a']), 'Description', 'array description', /must be text/),
	invalid(OPS.groupReplace, 'name', fromJson(null), 'Name', 'replace without a name', /is empty/),
	invalid(OPS.groupUpdate, 'updateFields', {}, 'Update Fields', 'update with no field', /is empty/),
	invalid(OPS.addDevices, 'devices', fromJson(''), 'Devices', 'no devices to add', /is empty/),
	invalid(OPS.removeDevices, 'devices', ' , ,', 'Devices', 'only commas', /is empty/),
	invalid(OPS.addDevices, 'devices', fromJson(['device001', '..']), 'Devices', 'dot-dot device in an array', /invalid device id/),
	// raw JSON Patch
	invalid(OPS.groupPatch, 'jsonPatch', '[{ "op": "replace", ', 'JSON Patch', 'truncated JSON', /not valid JSON/),
	invalid(OPS.groupPatch, 'jsonPatch', '{ "op": "replace", "path": "/name", "value": "x" }', 'JSON Patch', 'an object, not an array', /array/),
	invalid(OPS.groupPatch, 'jsonPatch', '[]', 'JSON Patch', 'no operations', /no operations/),
	// move is valid (the vendor's user PATCH page lists all six RFC 6902 ops); "merge" is no op at all.
	invalid(OPS.groupPatch, 'jsonPatch', '[{ "op": "merge", "path": "/name", "value": "x" }]', 'JSON Patch', 'unsupported op', /must be one of/),
	invalid(OPS.groupPatch, 'jsonPatch', '[{ "op": "move", "path": "/name" }]', 'JSON Patch', 'move without from', /from is required/),
	invalid(OPS.groupPatch, 'jsonPatch', '[{ "op": "replace", "path": "name", "value": "x" }]', 'JSON Patch', 'path without a slash', /JSON Pointer/),
	invalid(OPS.userPatch, 'jsonPatch', '[{ "op": "add", "path": "/tags" }]', 'JSON Patch', 'add without a value', /value is required/),
	invalid(OPS.userPatch, 'jsonPatch', '[{ "op": "replace", "path": "/a~2b", "value": 1 }]', 'JSON Patch', 'bad pointer escape', /~/),
	invalid(OPS.userPatch, 'jsonPatch', '[42]', 'JSON Patch', 'a number for an operation', /operation 0/),
	invalid(OPS.userPatch, 'jsonPatch', fromJson({ op: 'remove', path: '/message' }), 'JSON Patch', 'object from an expression', /array/),
	invalid(OPS.userPatch, 'jsonPatch', fromJson('not json'), 'JSON Patch', 'text from an expression', /not valid JSON/),
	// users
	invalid(OPS.userCreate, 'email', 'ada.example.com', 'Email', 'e-mail without @', /not an e-mail address/),
	invalid(OPS.userCreate, 'email', 'ada@example', 'Email', 'e-mail without a domain dot', /not an e-mail address/),
	invalid(OPS.userCreate, 'email', 'ada lovelace@example.com', 'Email', 'e-mail with a space', /not an e-mail address/),
	invalid(OPS.userCreate, 'email', 'ada@@example.com', 'Email', 'e-mail with two @', /not an e-mail address/),
	invalid(OPS.userCreate, 'email', fromJson(''), 'Email', 'empty e-mail', /is empty/),
	invalid(OPS.userCreate, 'name', fromJson(''), 'Name', 'empty user name', /is empty/),
	invalid(OPS.userCreate, 'country', fromJson(''), 'Country', 'empty country', /is empty/),
	invalid(OPS.userCreate, 'timeZone', '  ', 'Time Zone', 'blank time zone', /is empty/),
	invalid(OPS.userCreate, 'additionalFields.adminDevices', -1, 'Admin Devices', 'negative count', /between 0/),
	invalid(OPS.userCreate, 'additionalFields.adminDevices', 1.5, 'Admin Devices', 'fractional count', /whole number/),
	invalid(OPS.userCreate, 'additionalFields.adminDevices', fromJson('many'), 'Admin Devices', 'text count', /must be a number/),
	invalid(OPS.userCreate, 'additionalFields.disabled', fromJson('yes'), 'Disabled', 'non-boolean disabled', /true or false/),
	invalid(OPS.userCreate, 'additionalFields.expires', '2025-02-29T00:00:00Z', 'Expires', 'impossible expiry', /not a valid date|does not exist/),
	invalid(OPS.userCreate, 'additionalFields.from', 'tomorrow', 'From', 'start in words', /ISO 8601/),
	invalid(OPS.userCreate, 'additionalFields.privileges', fromJson({ all: true }), 'Privileges', 'object privileges', /list or an array/),
	invalid(OPS.userReplace, 'email', fromJson(42), 'Email', 'number e-mail', /not an e-mail address/),
	invalid(OPS.userUpdate, 'updateFields', { email: 'nobody' }, 'Email', 'update to a bad e-mail', /not an e-mail address/),
	invalid(OPS.userUpdate, 'updateFields', {}, 'Update Fields', 'update with no field', /is empty/),
	invalid(OPS.userUpsert, 'email', 'nobody', 'Email', 'upsert with a bad e-mail', /not an e-mail address/),
	invalid(OPS.userUpsert, 'name', fromJson(null), 'Name', 'upsert with a null name', /is empty/),
	// limits from expressions
	invalid(OPS.deviceGetAll, 'limit', fromJson('ten'), 'Limit', 'text limit', /must be a number/),
	invalid(OPS.groupGetAll, 'limit', fromJson(0), 'Limit', 'zero limit', /between 1/),
	invalid(OPS.userGetAll, 'limit', fromJson(-5), 'Limit', 'negative limit', /between 1/),
	// huge input where a short one is expected
	invalid(OPS.locations, 'from', fromJson(HUGE), 'From', 'a 100 kB date', /ISO 8601/),
	invalid(OPS.userCreate, 'email', fromJson(`${HUGE}@example`), 'Email', 'a 100 kB e-mail without a domain dot', /not an e-mail address/),
];

/** Required parameters left empty (not by an expression): n8n's own parameter check stops the run. */
const EDITOR_EMPTY_CASES: Array<{ op: OperationBase; path: string }> = [
	{ op: OPS.deviceGet, path: 'deviceId' },
	{ op: OPS.sendCommand, path: 'command' },
	{ op: OPS.userCreate, path: 'email' },
];

interface OddIdCase {
	op: OperationBase;
	param: PathParam;
	id: string;
	/** The routes the request(s) must reach, in order. */
	routes: string[];
	thing: 'Device' | 'Group' | 'User';
}

const DEVICE_ROUTE = 'GET /api/devices/{deviceId}';
const ODD_ID_CASES: OddIdCase[] = [
	{ op: OPS.deviceGet, param: 'deviceId', id: 'a/b', routes: [DEVICE_ROUTE], thing: 'Device' },
	{ op: OPS.deviceGet, param: 'deviceId', id: '../users', routes: [DEVICE_ROUTE], thing: 'Device' },
	{ op: OPS.deviceGet, param: 'deviceId', id: '../../api/users/usr-1', routes: [DEVICE_ROUTE], thing: 'Device' },
	{ op: OPS.lastLocation, param: 'deviceId', id: 'x?debug=1', routes: ['GET /api/devices/{deviceId}/lastLocation', DEVICE_ROUTE], thing: 'Device' },
	{ op: OPS.lastLocation, param: 'deviceId', id: 'x#fragment', routes: ['GET /api/devices/{deviceId}/lastLocation', DEVICE_ROUTE], thing: 'Device' },
	{ op: OPS.sendCommand, param: 'deviceId', id: '100%', routes: ['POST /api/devices/{deviceId}/sendCommand'], thing: 'Device' },
	{ op: OPS.sendCommand, param: 'deviceId', id: '%2e%2e%2fusers', routes: ['POST /api/devices/{deviceId}/sendCommand'], thing: 'Device' },
	{ op: OPS.locations, param: 'deviceId', id: 'truck 12', routes: ['POST /api/devices/{deviceId}/locations'], thing: 'Device' },
	{ op: OPS.submit, param: 'deviceId', id: '..\\..\\windows', routes: ['POST /api/devices/{deviceId}/locations'], thing: 'Device' },
	{ op: OPS.alerts, param: 'deviceId', id: 'ünïcødé-🚚', routes: ['POST /api/devices/{deviceId}/alerts'], thing: 'Device' },
	{ op: OPS.alerts, param: 'deviceId', id: '...', routes: ['POST /api/devices/{deviceId}/alerts'], thing: 'Device' },
	{ op: OPS.groupGet, param: 'groupId', id: 'grp-1/../../users', routes: ['GET /api/groups/{groupId}'], thing: 'Group' },
	{ op: OPS.groupDelete, param: 'groupId', id: '日本語', routes: ['DELETE /api/groups/{groupId}'], thing: 'Group' },
	{ op: OPS.groupUpdate, param: 'groupId', id: 'grp-1;drop', routes: ['PATCH /api/groups/{groupId}'], thing: 'Group' },
	{ op: OPS.groupReplace, param: 'groupId', id: 'grp-1?x=y&z', routes: ['PUT /api/groups/{groupId}'], thing: 'Group' },
	{ op: OPS.addDevices, param: 'groupId', id: '/api/groups', routes: ['GET /api/groups/{groupId}'], thing: 'Group' },
	{ op: OPS.userGet, param: 'userId', id: 'countries/../timeZones', routes: ['GET /api/users/{userId}'], thing: 'User' },
	{ op: OPS.userDelete, param: 'userId', id: ' usr-404 ', routes: ['DELETE /api/users/{userId}'], thing: 'User' },
	{ op: OPS.userReplace, param: 'userId', id: 'usr-1%00', routes: ['PUT /api/users/{userId}'], thing: 'User' },
	{ op: OPS.userUpdate, param: 'userId', id: 'usr\u00a0nbsp', routes: ['PATCH /api/users/{userId}'], thing: 'User' },
];

export function describeBadInput(): void {
	const total = INVALID_CASES.length + ODD_ID_CASES.length + EDITOR_EMPTY_CASES.length + 1;
	describe(`R2 bad input: ${total} cases across all operations`, () => {
		const ctx = useWatchedSandbox();
		const wall = areaWallClock();
		let passed = 0;
		let requestsForInvalid = 0;
		let idsInRoute = 0;

		afterAll(() => {
			summary(
				`R2 bad input: cases=${total} passed=${passed} invalid-refused-before-sending=${INVALID_CASES.length + EDITOR_EMPTY_CASES.length} ` +
					`requests-for-invalid-input=${requestsForInvalid} ` +
					`odd-ids-kept-in-their-route=${idsInRoute}/${ODD_ID_CASES.length} wall=${wall()} s`,
			);
		});

		it.each(INVALID_CASES.map((entry) => [`${entry.op.label}: ${entry.why}`, entry]))('%s', async (_, entry) => {
			const { parameters, items } = withValue(entry.op.parameters, entry.path, entry.value);
			const result = await ctx.engine.runNode(parameters, { items, continueOnFail: true });
			secretWatch.scanRun(`R2 ${entry.why}`, result);
			requestsForInvalid += ctx.sandbox.stats.requests;

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(items.length);
			result.items.forEach((item, index) => {
				const message = String(item.json.error);
				expect(message).toMatch(new RegExp(`^Invalid "${escape(entry.field)}" in item ${index}: ${escape(entry.field)} `));
				if (entry.problem) expect(message).toMatch(entry.problem);
				expect(message).not.toMatch(/\[object \w+\]|undefined/);
				expect(item.pairedItem).toEqual({ item: index });
			});
			expect(ctx.sandbox.stats.requests).toBe(0);
			passed++;
		});

		it.each(ODD_ID_CASES.map((entry) => [`${entry.op.label}: id ${JSON.stringify(entry.id)}`, entry]))(
			'%s reaches its own route and gets a 404',
			async (_, entry) => {
				const { parameters, items } = withValue(entry.op.parameters, entry.param, entry.id);
				const result = await ctx.engine.runNode(parameters, { items, continueOnFail: true });
				secretWatch.scanRun(`R2 id ${entry.id}`, result);

				expect(result.items).toHaveLength(items.length);
				const expectedId = entry.id.trim();
				for (const item of result.items) {
					// A 404 names the id it was for (issue 24).
					expect(item.json.error).toBe(`The tracking API answered 404: ${entry.thing} not found. (${entry.param.replace(/Id$/, '')} id "${expectedId}")`);
				}
				const seen = ctx.sandbox.requestLog.filter((request) => request.route !== 'POST /api/Auth/Token');
				// Items run concurrently: compare the routes reached, not their order.
				expect(seen.map((request) => request.route).sort()).toEqual(items.flatMap(() => entry.routes).sort());
				for (const request of seen) {
					expect(request[entry.param]).toBe(expectedId);
					expect(request.rawPath).toContain(`/${encodeURIComponent(expectedId)}`);
				}
				expect(ctx.sandbox.writes).toEqual([]);
				idsInRoute++;
				passed++;
			},
		);

		it.each(EDITOR_EMPTY_CASES.map((entry) => [`${entry.op.label}: ${entry.path} left empty in the editor`, entry]))(
			'%s: n8n itself refuses to run the workflow, nothing is sent',
			async (_, entry) => {
				const { parameters, items } = withValue(entry.op.parameters, entry.path, '');
				await expect(ctx.engine.runNode(parameters, { items, continueOnFail: true })).rejects.toThrow(/workflow has issues/);
				expect(ctx.sandbox.stats.requests).toBe(0);
				passed++;
			},
		);

		it('huge strings: a 6 MiB command gets the service’s clear refusal, nothing crashes', async () => {
			const result = await ctx.engine.runNode(
				{ ...OPS.sendCommand.parameters, command: '={{ "A".repeat(6 * 1024 * 1024) }}' },
				{ items: [{}], continueOnFail: true },
			);
			secretWatch.scanRun('R2 huge command', result);
			expect(result.items).toHaveLength(1);
			expect(result.items[0].json.error).toMatch(/^The tracking API answered 413: The request body exceeds \d+ bytes\.$/);
			expect(isReadableError(result.items[0].json.error)).toBe(true);
			expect(ctx.sandbox.writes).toEqual([]);
			passed++;
		});
	});
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
