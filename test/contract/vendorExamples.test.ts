/**
 * The vendor's documented examples as the contract: every route answers with the vendor's own
 * bytes (replay.ts), the nodes run in n8n's engine, and each test asserts the exact output, the
 * exact request the vendor documents, or the exact error. The last test fails if any example file
 * went unused.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { INode } from 'n8n-workflow';

import { Engine, type NodeRunResult } from '../support/engine';
import { ReplayServer, routeOf, servedFiles, vendorBytes, vendorFiles, vendorIndex, vendorJson, PAGE_ROUTES } from './replay';

const replay = new ReplayServer();
let engine: Engine;

/** Request examples a test compared a request with (served answers are tracked by the replay). */
const comparedFiles = new Set<string>();

/** The JSON of a request example, counted as used. */
function vendorRequest<T = Record<string, unknown>>(file: string): T {
	comparedFiles.add(file);
	return vendorJson<T>(file);
}

beforeAll(async () => {
	await replay.start();
	engine = new Engine({ baseUrl: replay.url, userName: 'your_username', apiKey: 'your_api_key' });
});

afterAll(() => replay.close());

beforeEach(() => {
	replay.reset();
	// A fresh credential each time: no token carried from one example to the next.
	engine.setCredential({ baseUrl: replay.url, userName: 'your_username', apiKey: 'your_api_key' });
});

// No resending: an error example must come back as the error, at once.
const noRetries = { requestSettings: { maxRetries: 0 } };

const run = (parameters: INode['parameters'], continueOnFail = false, typeVersion = 1): Promise<NodeRunResult> =>
	engine.runNode({ ...noRetries, ...parameters }, { continueOnFail, typeVersion });

const outputOf = (result: NodeRunResult) => {
	if (result.error) throw result.error;
	return result.items.map((item) => item.json);
};

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const ENVELOPE = ['success', 'error', 'apiUsage', 'apiDailyUsage'];

function withoutKeys(body: Record<string, unknown>, keys: string[]): Record<string, unknown> {
	return Object.fromEntries(Object.entries(body).filter(([key]) => !keys.includes(key)));
}

/** A flat answer (a single group or user) as the node outputs it: envelope and password dropped. */
const resourceOf = (file: string, hidden: string[] = []) => withoutKeys(vendorJson(file), [...ENVELOPE, ...hidden]);

/**
 * The body the node sent to the example's route. Date-times are compared as instants: the node
 * writes ISO 8601 with milliseconds (`…00.000Z`), the examples without (`…00Z`), the same time.
 */
function sentBody(route: string): unknown {
	const requests = replay.requestsTo(route);
	expect(requests).toHaveLength(1);
	return normalizeDates(requests[0].body);
}

function normalizeDates(value: unknown): unknown {
	if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value)) return new Date(value).toISOString();
	if (Array.isArray(value)) return value.map(normalizeDates);
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalizeDates(entry)]));
	}
	return value;
}

/** The error item of an error example: the vendor's text, and the status it came with. */
async function expectErrorItem(file: string, status: number, parameters: INode['parameters'], expected: Record<string, unknown>) {
	replay.serve(file, status);
	const result = await run(parameters, true);
	expect(result.items.map((item) => item.json)).toEqual([expected]);
	const vendorText = vendorJson<{ error: string }>(file).error;
	expect(String(expected.error)).toContain(vendorText);
}

const HINT_400 = 'The service rejected the request as invalid.';
const HINT_500 = 'The service failed to process the request.';

/** 400 and 500 as the device pages document them, for one operation. */
function statusErrorExamples(page: string, parameters: INode['parameters']) {
	it(`${page}: the documented 400 and 500 answers fail the item with the vendor's text`, async () => {
		await expectErrorItem(`${page}.error-400-bad-request-response.json`, 400, parameters, {
			error: 'The tracking API answered 400: Bad Request',
			description: HINT_400,
			httpCode: '400',
		});
		replay.reset();
		await expectErrorItem(`${page}.error-500-internal-server-error-response.json`, 500, parameters, {
			error: 'The tracking API answered 500: Internal Server Error',
			description: HINT_500,
			httpCode: '500',
		});
	});
}

/** The group and user pages give no status for their error example: the 200 + success:false case. */
function successFalseExample(file: string, parameters: INode['parameters']) {
	it(`${file}: success:false at 200 fails the item with the vendor's text`, async () => {
		const { error } = vendorJson<{ error: string }>(file);
		await expectErrorItem(file, 200, parameters, { error });
	});
}

describe('authentication.md', () => {
	it('sends the documented token request and uses the token it answers', async () => {
		replay.serve('get__api_devices.example-successful-response.json');
		outputOf(await run({ resource: 'device', operation: 'getAll', returnAll: true }));
		const [tokenCall] = replay.requestsTo('POST /api/Auth/Token');
		expect(tokenCall.body).toEqual(vendorRequest('authentication.request-body.json'));
		expect(tokenCall.body).toEqual(vendorRequest('authentication.request-example.json'));
		expect(tokenCall.headers.authorization).toBeUndefined();
		const { token } = vendorJson<{ token: string }>('authentication.successful-response-example.json');
		expect(replay.requestsTo('GET /api/devices')[0].headers.authorization).toBe(`Bearer ${token}`);
	});

	it('a refused key at 401 fails with the vendor text and sends nothing else', async () => {
		replay.serve('authentication.error-response-example.json', 401);
		const result = await run({ resource: 'device', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe('Authentication failed: Invalid API key or username.');
		expect(result.error).toMatchObject({ httpCode: '401' });
		expect(replay.requests.every((request) => request.route === 'POST /api/Auth/Token')).toBe(true);
	});

	it('a refused key at 200 (success:false) fails the same way', async () => {
		replay.serve('authentication.error-response-example-2.json', 200);
		const result = await run({ resource: 'device', operation: 'getAll', returnAll: true }, true);
		expect(result.items.map((item) => item.json)).toEqual([{ error: 'Authentication failed: Invalid API key or username.', httpCode: '401' }]);
		expect(replay.requests.every((request) => request.route === 'POST /api/Auth/Token')).toBe(true);
	});
});

describe('devices_api', () => {
	it('get__api_devices: Get Many outputs the devices as listed', async () => {
		replay.serve('get__api_devices.example-successful-response.json');
		const output = outputOf(await run({ resource: 'device', operation: 'getAll', returnAll: true }));
		expect(output).toEqual(vendorJson('get__api_devices.example-successful-response.json').devices);
	});
	statusErrorExamples('get__api_devices', { resource: 'device', operation: 'getAll', returnAll: true });

	it('get__api_devices_deviceid: Get outputs the device', async () => {
		replay.serve('get__api_devices_deviceid.example-successful-response.json');
		const output = outputOf(await run({ resource: 'device', operation: 'get', deviceId: byId('device123') }));
		expect(output).toEqual([vendorJson('get__api_devices_deviceid.example-successful-response.json').device]);
		expect(replay.requestsTo('GET /api/devices/{deviceId}')[0].path).toBe('/api/devices/device123');
	});
	statusErrorExamples('get__api_devices_deviceid', { resource: 'device', operation: 'get', deviceId: byId('device123') });

	it('get__api_devices_deviceid_lastlocation: Get Last Location outputs the fix with its deviceId', async () => {
		replay.serve('get__api_devices_deviceid_lastlocation.example-successful-response.json');
		const output = outputOf(await run({ resource: 'device', operation: 'getLastLocation', deviceId: byId('device123') }));
		const { lastLocation } = vendorJson<{ lastLocation: object }>('get__api_devices_deviceid_lastlocation.example-successful-response.json');
		expect(output).toEqual([{ deviceId: 'device123', ...lastLocation }]);
	});
	statusErrorExamples('get__api_devices_deviceid_lastlocation', { resource: 'device', operation: 'getLastLocation', deviceId: byId('device123') });

	const alertsParameters = {
		resource: 'alert',
		operation: 'getAll',
		deviceId: byId('device123'),
		from: '2024-06-01T00:00:00Z',
		to: '2024-06-01T23:59:59Z',
		returnAll: true,
	};
	it('post__api_devices_deviceid_alerts: Get Many sends the documented body and outputs the alerts', async () => {
		replay.serve('post__api_devices_deviceid_alerts.example-successful-response.json');
		// "Speeding Alert" is not one of the page's 55 names: an expression sends it exactly as written.
		const output = outputOf(await run({ ...alertsParameters, alertName: '={{ "Speeding Alert" }}' }));
		expect(sentBody('POST /api/devices/{deviceId}/alerts')).toEqual(normalizeDates(vendorRequest('post__api_devices_deviceid_alerts.example-request.json')));
		const { alerts } = vendorJson<{ alerts: object[] }>('post__api_devices_deviceid_alerts.example-successful-response.json');
		expect(output).toEqual(alerts.map((alert) => ({ deviceId: 'device123', ...alert })));
	});
	statusErrorExamples('post__api_devices_deviceid_alerts', alertsParameters);

	it('post__api_devices_deviceid_locations: Submit sends the documented body, every field, and outputs the stored fixes', async () => {
		replay.serve('post__api_devices_deviceid_locations.example-successful-response.json');
		const request = vendorRequest<{ from: string; to: string; location: Record<string, unknown> }>(
			'post__api_devices_deviceid_locations.example-request.json',
		);
		const { dateTime, latitude, longitude, attributes, accessoriesAttributes, ...rest } = request.location;
		const output = outputOf(
			await run({
				resource: 'location',
				operation: 'submit',
				deviceId: byId('device123'),
				dateTime: dateTime as string,
				latitude: latitude as number,
				longitude: longitude as number,
				additionalFields: {
					...rest,
					from: request.from,
					to: request.to,
					attributes: { entries: Object.entries(attributes as object).map(([key, value]) => ({ key, value })) },
					accessoriesAttributes: JSON.stringify(accessoriesAttributes),
				} as never,
			}),
		);
		expect(sentBody('POST /api/devices/{deviceId}/locations')).toEqual(normalizeDates(request));
		const { locations } = vendorJson<{ locations: object[] }>('post__api_devices_deviceid_locations.example-successful-response.json');
		expect(output).toEqual(locations.map((location) => ({ deviceId: 'device123', ...location })));
	});
	statusErrorExamples('post__api_devices_deviceid_locations', {
		resource: 'location',
		operation: 'getAll',
		deviceId: byId('device123'),
		from: '2024-06-01T00:00:00Z',
		to: '2024-06-01T23:59:59Z',
		returnAll: true,
	});

	describe('post__api_devices_deviceid_sendcommand', () => {
		const sendCommand = (command: string, additionalFields: Record<string, unknown>) =>
			run({ resource: 'device', operation: 'sendCommand', deviceId: byId('device123'), command, additionalFields: additionalFields as never });

		it('sends the documented request and outputs the result', async () => {
			replay.serve('post__api_devices_deviceid_sendcommand.example-successful-response.json');
			const request = vendorRequest<{ command: string; format: string; sms: boolean }>('post__api_devices_deviceid_sendcommand.example-request.json');
			const output = outputOf(await sendCommand(request.command, { format: request.format, sms: request.sms }));
			expect(sentBody('POST /api/devices/{deviceId}/sendCommand')).toEqual(request);
			const { result } = vendorJson<{ result: string }>('post__api_devices_deviceid_sendcommand.example-successful-response.json');
			expect(output).toEqual([{ deviceId: 'device123', command: 'engine_stop', result }]);
		});

		it.each([
			'post__api_devices_deviceid_sendcommand.1-command-formats-format.json',
			'post__api_devices_deviceid_sendcommand.1-command-formats-format-2.json',
			'post__api_devices_deviceid_sendcommand.1-command-formats-format-3.json',
		])('sends the documented format example %s as it is', async (file) => {
			replay.serve('post__api_devices_deviceid_sendcommand.example-successful-response.json');
			const request = vendorRequest<{ command: string; format: string }>(file);
			outputOf(await sendCommand(request.command, { format: request.format }));
			expect(sentBody('POST /api/devices/{deviceId}/sendCommand')).toEqual(request);
		});
	});
	statusErrorExamples('post__api_devices_deviceid_sendcommand', {
		resource: 'device',
		operation: 'sendCommand',
		deviceId: byId('device123'),
		command: 'engine_stop',
	});
});

describe('groups_api', () => {
	it('get__api_groups: Get Many outputs the groups', async () => {
		replay.serve('get__api_groups.example-successful-response.json');
		const output = outputOf(await run({ resource: 'group', operation: 'getAll', returnAll: true }));
		expect(output).toEqual(vendorJson('get__api_groups.example-successful-response.json').groups);
	});
	successFalseExample('get__api_groups.example-error-response.json', { resource: 'group', operation: 'getAll', returnAll: true });

	it('get__api_groups_groupid: Get outputs the flat group without its envelope', async () => {
		replay.serve('get__api_groups_groupid.example-successful-response.json');
		const output = outputOf(await run({ resource: 'group', operation: 'get', groupId: byId('grp-125') }));
		expect(output).toEqual([resourceOf('get__api_groups_groupid.example-successful-response.json')]);
	});
	successFalseExample('get__api_groups_groupid.example-error-response.json', { resource: 'group', operation: 'get', groupId: byId('grp-125') });

	const groupWrite = (file: string) => {
		const { name, ...additionalFields } = vendorRequest<{ name: string; description: string; devices: string[] }>(file);
		return { name, additionalFields: { ...additionalFields, devices: additionalFields.devices.join(', ') } };
	};

	it('post__api_groups: Create sends the documented body and outputs the group', async () => {
		replay.serve('post__api_groups.example-successful-response.json');
		const output = outputOf(await run({ resource: 'group', operation: 'create', ...groupWrite('post__api_groups.example-request.json') }));
		expect(sentBody('POST /api/groups')).toEqual(vendorRequest('post__api_groups.example-request.json'));
		expect(sentBody('POST /api/groups')).toEqual(vendorRequest('post__api_groups.example-request-body.json'));
		expect(output).toEqual([resourceOf('post__api_groups.example-successful-response.json')]);
	});
	successFalseExample('post__api_groups.example-error-response.json', { resource: 'group', operation: 'create', name: 'New Group' });

	it('put__api_groups_groupid: Replace sends the documented body and outputs the group', async () => {
		replay.serve('put__api_groups_groupid.example-successful-response.json');
		const parameters = { resource: 'group', operation: 'replace', groupId: byId('grp-125'), ...groupWrite('put__api_groups_groupid.example-request.json') };
		const output = outputOf(await run(parameters));
		expect(sentBody('PUT /api/groups/{groupId}')).toEqual(vendorRequest('put__api_groups_groupid.example-request.json'));
		expect(sentBody('PUT /api/groups/{groupId}')).toEqual(vendorRequest('put__api_groups_groupid.example-request-body.json'));
		expect(output).toEqual([resourceOf('put__api_groups_groupid.example-successful-response.json')]);
	});
	successFalseExample('put__api_groups_groupid.example-error-response.json', { resource: 'group', operation: 'replace', groupId: byId('grp-125'), name: 'x' });

	it('patch__api_groups_groupid: Update from fields sends the documented patch and outputs the group', async () => {
		replay.serve('patch__api_groups_groupid.example-successful-response.json');
		const output = outputOf(
			await run({
				resource: 'group',
				operation: 'update',
				groupId: byId('grp-125'),
				updateFields: { name: 'Updated Name', description: 'Updated description of the group' },
			}, false, 2),
		);
		// Operations on distinct members commute: the node lists them in the editor's field order.
		const byPath = (patch: unknown) => [...(patch as Array<{ path: string }>)].sort((a, b) => a.path.localeCompare(b.path));
		expect(byPath(sentBody('PATCH /api/groups/{groupId}'))).toEqual(byPath(vendorRequest('patch__api_groups_groupid.example-request.json')));
		expect(byPath(sentBody('PATCH /api/groups/{groupId}'))).toEqual(byPath(vendorRequest('patch__api_groups_groupid.example-request-body.json')));
		expect(output).toEqual([resourceOf('patch__api_groups_groupid.example-successful-response.json')]);
	});
	successFalseExample('patch__api_groups_groupid.example-error-response.json', {
		resource: 'group',
		operation: 'update',
		groupId: byId('grp-125'),
		updateFields: { name: 'Updated Name' },
	});

	it('delete__api_groups_groupid: Delete outputs what was deleted', async () => {
		replay.serve('delete__api_groups_groupid.example-successful-response.json');
		const output = outputOf(await run({ resource: 'group', operation: 'delete', groupId: byId('grp-125') }));
		expect(output).toEqual([{ deleted: true, id: 'grp-125' }]);
	});
	successFalseExample('delete__api_groups_groupid.example-error-response.json', { resource: 'group', operation: 'delete', groupId: byId('grp-125') });
});

describe('users_api', () => {
	it('get__api_users: Get Many outputs the users, never a password', async () => {
		replay.serve('get__api_users.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'getAll', returnAll: true }));
		const { users } = vendorJson<{ users: Array<Record<string, unknown>> }>('get__api_users.example-successful-response.json');
		expect(output).toEqual(users.map((user) => withoutKeys(user, ['password'])));
	});
	successFalseExample('get__api_users.example-error-response.json', { resource: 'user', operation: 'getAll', returnAll: true });

	it('get__api_users_userid: Get outputs the flat user without envelope or password', async () => {
		replay.serve('get__api_users_userid.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'get', userId: byId('usr-12345') }));
		expect(output).toEqual([resourceOf('get__api_users_userid.example-successful-response.json', ['password'])]);
	});
	successFalseExample('get__api_users_userid.example-error-response.json', { resource: 'user', operation: 'get', userId: byId('usr-12345') });

	/** A write example as node parameters; the server-managed fields it also carries are not sent. */
	const userWrite = (file: string) => {
		const { name, email, country, timeZone, tags, creation: _c, modification: _m, lastLogin: _l, ...rest } = vendorRequest<Record<string, unknown>>(file);
		return {
			name,
			email,
			country,
			timeZone,
			additionalFields: { ...rest, tags: { entries: Object.entries(tags as object).map(([key, value]) => ({ key, value })) } },
		} as unknown as Record<string, never>;
	};
	const SERVER_MANAGED = ['creation', 'modification', 'lastLogin'];

	it('post__api_users: Create sends the documented body (server-managed fields aside) and outputs the user', async () => {
		replay.serve('post__api_users.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'create', ...userWrite('post__api_users.example-request.json') }));
		expect(sentBody('POST /api/users')).toEqual(normalizeDates(withoutKeys(vendorRequest('post__api_users.example-request.json'), SERVER_MANAGED)));
		expect(output).toEqual([resourceOf('post__api_users.example-successful-response.json', ['password'])]);
	});
	successFalseExample('post__api_users.example-error-response.json', {
		resource: 'user',
		operation: 'create',
		name: 'Jane Doe',
		email: 'jane.doe@example.com',
		country: 'USA',
		timeZone: 'America/Los_Angeles',
	});

	it('put__api_users_userid: Replace sends the documented body (server-managed fields aside) and outputs the user', async () => {
		replay.serve('put__api_users_userid.example-successful-response.json');
		const output = outputOf(
			await run({ resource: 'user', operation: 'replace', userId: byId('usr-12345'), ...userWrite('put__api_users_userid.example-request.json') }),
		);
		expect(sentBody('PUT /api/users/{userId}')).toEqual(normalizeDates(withoutKeys(vendorRequest('put__api_users_userid.example-request.json'), SERVER_MANAGED)));
		expect(output).toEqual([resourceOf('put__api_users_userid.example-successful-response.json', ['password'])]);
	});
	successFalseExample('put__api_users_userid.example-error-response.json', {
		resource: 'user',
		operation: 'replace',
		userId: byId('usr-12345'),
		name: 'Jane Doe',
		email: 'jane.doe@example.com',
		country: 'USA',
		timeZone: 'America/Los_Angeles',
	});

	it('patch__api_users_userid: an expert JSON Patch is sent as written and the user is output', async () => {
		replay.serve('patch__api_users_userid.example-successful-response.json');
		const patch = vendorRequest<object[]>('patch__api_users_userid.example-request.json');
		const output = outputOf(
			await run({ resource: 'user', operation: 'update', userId: byId('usr-12345'), patchMode: 'jsonPatch', jsonPatch: JSON.stringify(patch) }),
		);
		expect(sentBody('PATCH /api/users/{userId}')).toEqual(patch);
		expect(output).toEqual([resourceOf('patch__api_users_userid.example-successful-response.json')]);
	});
	successFalseExample('patch__api_users_userid.example-error-response.json', {
		resource: 'user',
		operation: 'update',
		userId: byId('usr-12345'),
		updateFields: { name: 'Juan Perez' },
	});

	it('delete__api_users_userid: Delete outputs what was deleted', async () => {
		replay.serve('delete__api_users_userid.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'delete', userId: byId('usr-12345') }));
		expect(output).toEqual([{ deleted: true, id: 'usr-12345' }]);
	});
	successFalseExample('delete__api_users_userid.example-error-response.json', { resource: 'user', operation: 'delete', userId: byId('usr-12345') });

	it('get__api_users_countries: Get Countries outputs one item per country', async () => {
		replay.serve('get__api_users_countries.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'getCountries' }));
		const { countries } = vendorJson<{ countries: Record<string, string> }>('get__api_users_countries.example-successful-response.json');
		expect(output).toEqual(Object.entries(countries).map(([code, name]) => ({ code, name })));
	});
	successFalseExample('get__api_users_countries.example-error-response.json', { resource: 'user', operation: 'getCountries' });

	it('get__api_users_timezones: Get Time Zones outputs one item per zone', async () => {
		replay.serve('get__api_users_timezones.example-successful-response.json');
		const output = outputOf(await run({ resource: 'user', operation: 'getTimeZones' }));
		const { timeZones } = vendorJson<{ timeZones: Record<string, string> }>('get__api_users_timezones.example-successful-response.json');
		expect(output).toEqual(Object.entries(timeZones).map(([id, name]) => ({ id, name })));
	});
	successFalseExample('get__api_users_timezones.example-error-response.json', { resource: 'user', operation: 'getTimeZones' });

	it("upsert over the vendor's listed user changes nothing, the country given as code, name or as listed", async () => {
		replay.serve('get__api_users.example-successful-response.json').serve('get__api_users_countries.example-successful-response.json');
		const { users } = vendorJson<{ users: Array<Record<string, unknown>> }>('get__api_users.example-successful-response.json');
		const { name, email, country, timeZone, description, tags, privileges, group, deviceId, adminDevices, from, expires } = users[0];
		for (const given of [country, 'US', 'United States', ' usa ']) {
			replay.requests.length = 0;
			const output = outputOf(
				await run({
					resource: 'user',
					operation: 'upsert',
					name: name as string,
					email: (email as string).toUpperCase(),
					country: given as string,
					timeZone: timeZone as string,
					additionalFields: {
						description,
						tags: { entries: Object.entries(tags as object).map(([key, value]) => ({ key, value })) },
						privileges: (privileges as string[]).join(', '),
						group,
						deviceId,
						adminDevices,
						from,
						expires,
					} as never,
				}),
			);
			expect(output).toEqual([{ action: 'unchanged', user: withoutKeys(users[0], ['password']) }]);
			expect(replay.requests.filter((request) => request.method !== 'GET' && request.route !== 'POST /api/Auth/Token')).toEqual([]);
		}
	});
});

describe('the examples themselves', () => {
	const SHARED = join(__dirname, '..', '..', '..', 'shared', 'vendor-examples');

	it('index.json maps every example file to a documented route, and every route to a file', () => {
		const indexed = vendorIndex().map((entry) => entry.file).sort();
		expect(indexed).toEqual(vendorFiles());
		for (const file of indexed) expect(routeOf(file)).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/api\//);
		expect(new Set(vendorIndex().map((entry) => entry.doc))).toEqual(new Set(Object.keys(PAGE_ROUTES)));
	});

	(existsSync(SHARED) ? it : it.skip)('the copy in test/contract/vendor is byte for byte ../shared/vendor-examples', () => {
		expect(readdirSync(SHARED).sort()).toEqual([...vendorFiles(), 'index.json'].sort());
		const differing = [...vendorFiles(), 'index.json'].filter((file) => !vendorBytes(file).equals(readFileSync(join(SHARED, file))));
		expect(differing).toEqual([]);
	});
	if (!existsSync(SHARED)) {
		// A clone has no ../shared: say so, rather than pass in silence.
		console.warn(`Vendor examples: ${SHARED} is absent (a clone), so the byte-for-byte comparison with it is skipped.`);
	}

	// Runs last: jest runs a file's tests in order.
	it('every example file was used by a test', () => {
		const used = new Set([...servedFiles, ...comparedFiles]);
		expect(vendorFiles().filter((file) => !used.has(file))).toEqual([]);
	});
});
