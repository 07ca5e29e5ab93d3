/**
 * The sandbox server itself, over real HTTP: the contract it serves (envelope, routing, ids,
 * validation, JSON Patch) and the switches tests rely on (faults, rate limit, revocation, movement,
 * base path, HTTPS, control routes).
 */
import { request as httpRequest } from 'node:http';
import { Agent, request as undiciRequest } from 'undici';
import { ENDPOINTS, TOKEN_PATH, type Group, type Location, type User } from '../nodes/shared/wire';
import { applyJsonPatch } from '../sandbox/jsonPatch';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server';
import { generateSelfSignedCert } from '../sandbox/tls';

interface Reply {
	status: number;
	headers: Headers;
	text: string;
	json: any;
}

interface CallOptions {
	body?: unknown;
	token?: string | null;
	rawBody?: string;
	contentType?: string;
}

const HOUR_MS = 3_600_000;
const lastDay = () => ({ from: new Date(Date.now() - 24 * HOUR_MS).toISOString(), to: new Date().toISOString() });
const path = (template: string, id: string) => template.replace(/\{\w+\}/, encodeURIComponent(id));

async function call(sandbox: Sandbox, method: string, route: string, options: CallOptions = {}): Promise<Reply> {
	const headers: Record<string, string> = {};
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
	const response = await fetch(`${sandbox.url}${route}`, { method, headers, body });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

async function tokenFor(sandbox: Sandbox): Promise<string> {
	const reply = await call(sandbox, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY } });
	expect(reply.json.success).toBe(true);
	return reply.json.token;
}

/** The path exactly as given: fetch's URL parser would normalise some of what these tests send. */
function rawGet(sandbox: Sandbox, rawPath: string, token: string): Promise<{ status: number; json: any }> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{ host: '127.0.0.1', port: sandbox.port, path: rawPath, method: 'GET', headers: { authorization: `Bearer ${token}` } },
			(res) => {
				let text = '';
				res.on('data', (chunk) => (text += chunk));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
			},
		);
		req.on('error', reject);
		req.end();
	});
}

async function withSandbox(options: SandboxOptions, test: (sandbox: Sandbox) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox({ port: 0, ...options });
	try {
		await test(sandbox);
	} finally {
		await sandbox.close();
	}
}

describe('sandbox server', () => {
	let sandbox: Sandbox;
	let token: string;
	const api = (method: string, route: string, options: CallOptions = {}) =>
		call(sandbox, method, route, { token, ...options });

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		token = await tokenFor(sandbox);
	});

	afterAll(() => sandbox.close());

	afterEach(() => {
		sandbox.faults.clear();
		sandbox.setOptions({ rateLimit: null, latencyMs: 0, tokenFailureStatus: 401, retryAfterHeader: true });
	});

	describe('startup', () => {
		it('seeds 5000 devices and 10000 users, each device with a track', async () => {
			await withSandbox({ deviceCount: 5000, userCount: 10_000 }, async (big) => {
				const bigToken = await tokenFor(big);
				const devices = await call(big, 'GET', ENDPOINTS.listDevices.path, { token: bigToken });
				expect(devices.json.devices).toHaveLength(5000);
				const last = await call(big, 'GET', path(ENDPOINTS.getLastLocation.path, 'device4999'), { token: bigToken });
				expect(last.json.lastLocation.latitude).toEqual(expect.any(Number));
			});
		});

		it('seeds the same data for the same seed, and other data for another', async () => {
			const clock = () => new Date('2030-01-01T00:00:00Z');
			const seeded: Array<{ devices: unknown; track: unknown }> = [];
			for (const seed of [1, 1, 2]) {
				await withSandbox({ seed, clock }, async (s) => void seeded.push({ devices: s.store.listDevices(), track: s.store.locations('device002') }));
			}
			expect(seeded[0]).toEqual(seeded[1]);
			expect(seeded[2].track).not.toEqual(seeded[0].track);
		});
	});

	describe('token', () => {
		it('issues a distinct token with an expiry about an hour ahead', async () => {
			const first = await call(sandbox, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY } });
			const second = await call(sandbox, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY } });
			expect(first.status).toBe(200);
			expect(first.json).toMatchObject({ success: true, error: null, token: expect.any(String) });
			expect(first.json.token).not.toBe(second.json.token);
			const expiresIn = Date.parse(first.json.expires) - Date.now();
			expect(expiresIn).toBeGreaterThan(3590_000);
			expect(expiresIn).toBeLessThanOrEqual(3600_000);
			expect(sandbox.issuedTokens).toEqual(expect.arrayContaining([first.json.token, second.json.token]));
		});

		it('rejects bad credentials with 401 by default and 200 when configured', async () => {
			const bad = { body: { userName: DEMO_USER_NAME, apiKey: 'wrong' } };
			const rejected = await call(sandbox, 'POST', TOKEN_PATH, bad);
			expect(rejected.status).toBe(401);
			expect(rejected.json).toEqual({ success: false, error: 'Invalid API key or username.' });
			sandbox.setOptions({ tokenFailureStatus: 200 });
			const rejectedWith200 = await call(sandbox, 'POST', TOKEN_PATH, bad);
			expect(rejectedWith200.status).toBe(200);
			expect(rejectedWith200.json).toEqual({ success: false, error: 'Invalid API key or username.' });
		});

		it('treats a missing field as bad credentials and a non-object body as a bad request', async () => {
			expect((await call(sandbox, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME } })).status).toBe(401);
			expect((await call(sandbox, 'POST', TOKEN_PATH, { body: ['x'] })).status).toBe(400);
		});

		it('lets a regenerated API key invalidate the old one at once', async () => {
			await withSandbox({}, async (other) => {
				other.setOptions({ accounts: [{ userName: DEMO_USER_NAME, apiKey: 'regenerated' }] });
				const old = await call(other, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY } });
				const fresh = await call(other, 'POST', TOKEN_PATH, { body: { userName: DEMO_USER_NAME, apiKey: 'regenerated' } });
				expect(old.json.success).toBe(false);
				expect(fresh.json.success).toBe(true);
			});
		});

		it('requires a valid bearer token on every other route', async () => {
			const missing = await call(sandbox, 'GET', ENDPOINTS.listDevices.path);
			const garbage = await call(sandbox, 'GET', ENDPOINTS.listDevices.path, { token: 'not-a-token' });
			for (const reply of [missing, garbage]) {
				expect(reply.status).toBe(401);
				expect(reply.json).toEqual({ success: false, error: 'Invalid or expired token.' });
			}
		});

		it('expires tokens after tokenLifetimeSeconds on the sandbox clock', async () => {
			let now = Date.parse('2030-01-01T00:00:00Z');
			await withSandbox({ tokenLifetimeSeconds: 60, clock: () => new Date(now) }, async (other) => {
				const shortToken = await tokenFor(other);
				expect((await call(other, 'GET', ENDPOINTS.listGroups.path, { token: shortToken })).status).toBe(200);
				now += 61_000;
				expect((await call(other, 'GET', ENDPOINTS.listGroups.path, { token: shortToken })).status).toBe(401);
			});
		});

		it('revokes every issued token on demand', async () => {
			await withSandbox({}, async (other) => {
				const issued = await tokenFor(other);
				other.revokeTokens();
				expect((await call(other, 'GET', ENDPOINTS.listDevices.path, { token: issued })).status).toBe(401);
				expect((await call(other, 'GET', ENDPOINTS.listDevices.path, { token: await tokenFor(other) })).status).toBe(200);
			});
		});
	});

	describe('envelope and payload shapes', () => {
		it('keys device payloads and counts usage per call', async () => {
			const list = await api('GET', ENDPOINTS.listDevices.path);
			const one = await api('GET', path(ENDPOINTS.getDevice.path, 'device001'));
			expect(list.json).toMatchObject({ success: true, error: null, apiUsage: expect.any(Number), apiDailyUsage: expect.any(Number) });
			expect(list.json.devices.length).toBeGreaterThanOrEqual(24);
			expect(one.json.device).toMatchObject({ id: 'device001', name: 'Truck 01', tags: { fleet: 'north', type: 'truck' } });
			expect(one.json.apiUsage).toBe(list.json.apiUsage + 1);
		});

		it('seeds expired, expiring, unlimited devices and phone numbers', async () => {
			const { devices } = (await api('GET', ENDPOINTS.listDevices.path)).json;
			const expires = devices.map((d: { expires: string | null }) => (d.expires === null ? null : Date.parse(d.expires)));
			expect(expires.some((at: number | null) => at !== null && at < Date.now())).toBe(true);
			expect(expires.some((at: number | null) => at !== null && at > Date.now() && at < Date.now() + 30 * 24 * HOUR_MS)).toBe(true);
			expect(expires).toContain(null);
			expect(devices.filter((d: { min: string | null }) => typeof d.min === 'string').length).toBeGreaterThan(12);
			expect(sandbox.store.facts.expiredDeviceIds).toContain('device004');
		});

		it('answers a single group and a single user flat, beside success', async () => {
			const group = await api('GET', path(ENDPOINTS.getGroup.path, 'grp-1'));
			const user = await api('GET', path(ENDPOINTS.getUser.path, 'usr-1'));
			expect(group.json).toMatchObject({ success: true, id: 'grp-1', name: expect.any(String), devices: expect.any(Array) });
			expect(group.json.group).toBeUndefined();
			expect(user.json).toMatchObject({ success: true, id: 'usr-1', email: expect.stringContaining('@'), password: null });
			expect(user.json.user).toBeUndefined();
		});

		it('answers a never-reported device with lastLocation null and success true', async () => {
			const reply = await api('GET', path(ENDPOINTS.getLastLocation.path, sandbox.store.facts.neverReportedDeviceId!));
			expect(reply.status).toBe(200);
			expect(reply.json).toMatchObject({ success: true, lastLocation: null });
		});

		it('answers lastLocation with the newest fix of the history', async () => {
			const reply = await api('GET', path(ENDPOINTS.getLastLocation.path, 'device002'));
			const history = sandbox.store.locations('device002')!;
			expect(reply.json.lastLocation).toEqual(history[history.length - 1]);
			expect(history.length).toBeGreaterThan(200);
			expect(Date.parse(reply.json.lastLocation.dateTime)).toBeLessThanOrEqual(Date.now());
		});

		it('lists users, countries and time zones', async () => {
			const users = await api('GET', ENDPOINTS.listUsers.path);
			const countries = await api('GET', ENDPOINTS.listCountries.path);
			const timeZones = await api('GET', ENDPOINTS.listTimeZones.path);
			expect(users.json.users.length).toBeGreaterThanOrEqual(30);
			expect(users.json.users.every((user: User) => user.password === null)).toBe(true);
			expect(countries.json.countries.US).toBe('United States');
			expect(Object.keys(countries.json.countries).length).toBeGreaterThanOrEqual(20);
			expect(timeZones.json.timeZones['Europe/London']).toBe('Greenwich Mean Time');
			expect(Object.keys(timeZones.json.timeZones).length).toBeGreaterThanOrEqual(20);
		});
	});

	describe('routing', () => {
		it('decodes each segment on its own: ..%2Fusers is a device id, never the users list', async () => {
			const reply = await rawGet(sandbox, '/api/devices/..%2Fusers', token);
			expect(reply.status).toBe(404);
			expect(reply.json).toMatchObject({ success: false, error: 'Device not found.' });
			expect(reply.json.users).toBeUndefined();
			const logged = sandbox.requestLog[sandbox.requestLog.length - 1];
			expect(logged).toMatchObject({ deviceId: '../users', route: `GET ${ENDPOINTS.getDevice.path}` });
		});

		it('reaches a device whose id holds a slash and a question mark', async () => {
			sandbox.store.addDevice({ id: 'a/b?x', name: 'Odd id', tags: {}, expires: null });
			const reply = await rawGet(sandbox, '/api/devices/a%2Fb%3Fx', token);
			expect(reply.status).toBe(200);
			expect(reply.json.device.id).toBe('a/b?x');
			expect(sandbox.requestLog[sandbox.requestLog.length - 1].deviceId).toBe('a/b?x');
		});

		it('routes /api/users/countries to the countries list, not to a user id', async () => {
			const reply = await api('GET', ENDPOINTS.listCountries.path);
			expect(sandbox.requestLog[sandbox.requestLog.length - 1].route).toBe(`GET ${ENDPOINTS.listCountries.path}`);
			expect(reply.json.countries).toBeDefined();
		});

		it('answers unknown routes and ids with 404 envelopes', async () => {
			const unknownRoute = await api('GET', '/api/nothing');
			expect(unknownRoute.status).toBe(404);
			expect(unknownRoute.json.success).toBe(false);
			expect((await api('GET', path(ENDPOINTS.getGroup.path, 'grp-999'))).json.error).toBe('Group not found.');
			expect((await api('GET', path(ENDPOINTS.getUser.path, 'usr-999999'))).json.error).toBe('User not found.');
			expect((await rawGet(sandbox, '/api/devices/%E0%A4%A', token)).status).toBe(400);
		});

		it('rejects bodies that are not JSON', async () => {
			const route = path(ENDPOINTS.getLocations.path, 'device001');
			const notJson = await api('POST', route, { rawBody: '{from:', contentType: 'application/json' });
			const plainText = await api('POST', route, { rawBody: 'from=1', contentType: 'text/plain' });
			expect(notJson.status).toBe(400);
			expect(notJson.json.error).toMatch(/JSON/);
			expect(plainText.status).toBe(415);
		});

		it('serves the API under a base path', async () => {
			await withSandbox({ basePath: '/tracking' }, async (prefixed) => {
				expect(prefixed.url).toMatch(/\/tracking$/);
				const prefixedToken = await tokenFor(prefixed);
				expect((await call(prefixed, 'GET', ENDPOINTS.listDevices.path, { token: prefixedToken })).status).toBe(200);
				const outside = await fetch(`${prefixed.rootUrl}${ENDPOINTS.listDevices.path}`, {
					headers: { authorization: `Bearer ${prefixedToken}` },
				});
				expect(outside.status).toBe(404);
			});
		});
	});

	describe('locations, alerts and commands', () => {
		const locationsOf = (id: string) => path(ENDPOINTS.getLocations.path, id);

		it('reads a date range inclusively, oldest first', async () => {
			const history = sandbox.store.locations('device002')!;
			const from = history[10].dateTime;
			const to = history[20].dateTime;
			const reply = await api('POST', locationsOf('device002'), { body: { from, to } });
			expect(reply.json.locations).toHaveLength(11);
			expect(reply.json.locations[0].dateTime).toBe(from);
			expect(reply.json.locations[10].dateTime).toBe(to);
			const times = reply.json.locations.map((l: Location) => Date.parse(l.dateTime));
			expect(times).toEqual([...times].sort((a, b) => a - b));
		});

		it('rejects a missing or reversed range', async () => {
			const { from, to } = lastDay();
			expect((await api('POST', locationsOf('device002'), { body: { from } })).status).toBe(400);
			const reversed = await api('POST', locationsOf('device002'), { body: { from: to, to: from } });
			expect(reversed.status).toBe(400);
			expect(reversed.json.error).toMatch(/from/);
			expect((await api('POST', locationsOf('device002'), { body: { from: 'yesterday', to } })).status).toBe(400);
		});

		it('stores a submitted location and answers the range around it', async () => {
			const location = { dateTime: new Date(Date.now() - 60_000).toISOString(), latitude: -12.05, longitude: -77.04, speed: 12 };
			const range = { from: new Date(Date.now() - 120_000).toISOString(), to: new Date().toISOString() };
			const reply = await api('POST', locationsOf('device007'), { body: { ...range, location } });
			expect(reply.status).toBe(200);
			expect(reply.json.locations).toContainEqual(location);
			expect(sandbox.writes[sandbox.writes.length - 1]).toMatchObject({ kind: 'submitLocation', id: 'device007', stored: location });
		});

		it('rejects an invalid location without storing it', async () => {
			const before = sandbox.store.locations('device007')!.length;
			const writes = sandbox.writes.length;
			const bad = { ...lastDay(), location: { dateTime: new Date().toISOString(), latitude: 91, longitude: 0 } };
			const reply = await api('POST', locationsOf('device007'), { body: bad });
			expect(reply.status).toBe(400);
			expect(reply.json.error).toMatch(/latitude/);
			const unknownField = { ...lastDay(), location: { dateTime: new Date().toISOString(), latitude: 1, longitude: 1, deviceId: 'x' } };
			expect((await api('POST', locationsOf('device007'), { body: unknownField })).status).toBe(400);
			expect(sandbox.store.locations('device007')).toHaveLength(before);
			expect(sandbox.writes).toHaveLength(writes);
		});

		it('reads alerts in a range, filtered by name, with their notification channels', async () => {
			const deviceId = sandbox.store.facts.criticalAlertDeviceIds[0];
			const all = await api('POST', path(ENDPOINTS.getAlerts.path, deviceId), { body: lastDay() });
			const sos = await api('POST', path(ENDPOINTS.getAlerts.path, deviceId), { body: { ...lastDay(), alertName: 'SOSButton' } });
			expect(all.json.alerts.length).toBeGreaterThan(sos.json.alerts.length);
			expect(sos.json.alerts.length).toBeGreaterThanOrEqual(1);
			expect(sos.json.alerts.every((alert: { alerts: string[] }) => alert.alerts.includes('SOSButton'))).toBe(true);
			// A name is matched exactly, as the alerts page lists them: no case folding, no substring.
			for (const alertName of ['sosbutton', 'SOS']) {
				expect((await api('POST', path(ENDPOINTS.getAlerts.path, deviceId), { body: { ...lastDay(), alertName } })).json.alerts).toEqual([]);
			}
			expect(sos.json.alerts[0].notifications.length).toBeGreaterThan(0);
			const fix = sandbox.store.locations(deviceId)!.find((l) => l.dateTime === sos.json.alerts[0].dateTime);
			expect(fix?.hasCriticalAlert).toBe(true);
		});

		it('queues a command, records it, and validates its format', async () => {
			const route = path(ENDPOINTS.sendCommand.path, 'device001');
			const sent = await api('POST', route, { body: { command: '0A1B', format: 'Hex', sms: false } });
			expect(sent.json).toMatchObject({ success: true, result: expect.any(String) });
			expect(sandbox.store.commands[sandbox.store.commands.length - 1]).toMatchObject({ deviceId: 'device001', command: '0A1B', format: 'Hex' });
			expect((await api('POST', route, { body: { command: 'reboot', format: 'Binary' } })).status).toBe(400);
			expect((await api('POST', route, { body: { command: 'xyz', format: 'Hex' } })).status).toBe(400);
			expect((await api('POST', route, { body: {} })).status).toBe(400);
		});
	});

	describe('groups', () => {
		it('creates, reads, replaces, patches and deletes a group', async () => {
			const created = await api('POST', ENDPOINTS.createGroup.path, { body: { name: 'Test group', devices: ['device001'] } });
			expect(created.json).toMatchObject({ success: true, id: expect.stringMatching(/^grp-\d+$/), name: 'Test group', description: null, devices: ['device001'] });
			expect(created.json.creation).toBe(created.json.lastModified);
			const route = path(ENDPOINTS.getGroup.path, created.json.id);
			const replaced = await api('PUT', route, { body: { name: 'Replaced', description: 'd' } });
			expect(replaced.json).toMatchObject({ name: 'Replaced', description: 'd', devices: [] });
			const patched = await api('PATCH', route, {
				body: [
					{ op: 'replace', path: '/name', value: 'Patched' },
					{ op: 'add', path: '/devices/-', value: 'device002' },
					{ op: 'add', path: '/devices/-', value: 'device003' },
					{ op: 'add', path: '/devices/0', value: 'device001' },
					{ op: 'remove', path: '/devices/1' },
					{ op: 'remove', path: '/description' },
				],
			});
			expect(patched.status).toBe(200);
			expect(patched.json).toMatchObject({ name: 'Patched', description: null, devices: ['device001', 'device003'] });
			expect(sandbox.store.getGroup(created.json.id)?.devices).toEqual(['device001', 'device003']);
			const deleted = await api('DELETE', route);
			expect(deleted.json).toEqual({ success: true, error: null, apiUsage: expect.any(Number), apiDailyUsage: expect.any(Number) });
			expect((await api('GET', route)).status).toBe(404);
			expect(sandbox.writes.filter((w) => w.id === created.json.id).map((w) => w.kind)).toEqual(['create', 'put', 'patch', 'delete']);
		});

		it('requires a non-empty name and known devices', async () => {
			expect((await api('POST', ENDPOINTS.createGroup.path, { body: { name: '' } })).status).toBe(400);
			expect((await api('POST', ENDPOINTS.createGroup.path, { body: { description: 'x' } })).status).toBe(400);
			const unknownDevice = await api('POST', ENDPOINTS.createGroup.path, { body: { name: 'x', devices: ['nope'] } });
			expect(unknownDevice.status).toBe(400);
			expect(unknownDevice.json.error).toMatch(/nope/);
			expect((await api('PUT', path(ENDPOINTS.replaceGroup.path, 'grp-2'), { body: { description: 'no name' } })).status).toBe(400);
		});

		it('rejects a malformed patch and leaves the group unchanged', async () => {
			const route = path(ENDPOINTS.updateGroup.path, 'grp-2');
			const before = sandbox.store.getGroup('grp-2');
			const cases: unknown[] = [
				{ op: 'replace', path: '/name', value: 'not an array' },
				[{ op: 'replace', path: '/name', value: 'ok' }, { op: 'move', from: '/name', path: '/description' }],
				[{ op: 'replace', path: '/missing', value: 1 }],
				[{ op: 'add', path: 'name', value: 'no slash' }],
				[{ op: 'replace', path: '/name' }],
				[{ op: 'remove', path: '/devices/99' }],
				[{ op: 'replace', path: '/name', value: '' }],
				[{ op: 'replace', path: '/id', value: 'grp-77' }],
			];
			for (const body of cases) {
				const reply = await api('PATCH', route, { body });
				expect({ body, status: reply.status }).toEqual({ body, status: 400 });
				expect(reply.json.error).toEqual(expect.any(String));
			}
			expect(sandbox.store.getGroup('grp-2')).toEqual(before);
		});
	});

	describe('users', () => {
		const newUser = (email: string) => ({ name: 'New User', email, country: 'PE', timeZone: 'America/Lima', password: 's3cret' });

		it('creates a user whose password is write-only', async () => {
			const created = await api('POST', ENDPOINTS.createUser.path, { body: newUser('new.user@example.com') });
			expect(created.json).toMatchObject({ success: true, id: expect.stringMatching(/^usr-\d+$/), password: null, country: 'PE' });
			expect(sandbox.store.passwordOf(created.json.id)).toBe('s3cret');
			const read = await api('GET', path(ENDPOINTS.getUser.path, created.json.id));
			expect(read.json.password).toBeNull();
		});

		it("accepts the values of the vendor's own user examples", async () => {
			const vendorish = { ...newUser('vendor.values@example.com'), country: 'USA', group: 'Admins', privileges: ['read', 'write', 'execute'] };
			const created = await api('POST', ENDPOINTS.createUser.path, { body: vendorish });
			expect(created.json).toMatchObject({ success: true, country: 'USA', group: 'Admins', privileges: ['read', 'write', 'execute'] });
			for (const country of ['Colombia', 'CO', 'Peru']) {
				expect((await api('PUT', path(ENDPOINTS.replaceUser.path, created.json.id), { body: { ...vendorish, country } })).json.country).toBe(country);
			}
		});

		it('requires name, email, country and timeZone on create and replace', async () => {
			for (const field of ['name', 'email', 'country', 'timeZone'] as const) {
				const body: Record<string, unknown> = newUser(`missing.${field}@example.com`);
				delete body[field];
				const reply = await api('POST', ENDPOINTS.createUser.path, { body });
				expect(reply.status).toBe(400);
				expect(reply.json.error).toContain(field);
				expect((await api('PUT', path(ENDPOINTS.replaceUser.path, 'usr-2'), { body })).status).toBe(400);
			}
			// A name from the countries list is accepted since the vendor's own user examples hold one ("Colombia").
			expect((await api('POST', ENDPOINTS.createUser.path, { body: { ...newUser('x@example.com'), country: 'Atlantis' } })).status).toBe(400);
			expect((await api('POST', ENDPOINTS.createUser.path, { body: { ...newUser('y@example.com'), timeZone: 'Mars/Olympus' } })).status).toBe(400);
		});

		it('answers 409 for an e-mail already taken, whatever its case', async () => {
			const taken = sandbox.store.getUser('usr-3')!.email;
			const reply = await api('POST', ENDPOINTS.createUser.path, { body: newUser(taken.toUpperCase()) });
			expect(reply.status).toBe(409);
			expect((await api('PATCH', path(ENDPOINTS.updateUser.path, 'usr-4'), { body: [{ op: 'replace', path: '/email', value: taken }] })).status).toBe(409);
		});

		it('replaces a user fully but keeps the password when none is sent', async () => {
			const created = await api('POST', ENDPOINTS.createUser.path, { body: { ...newUser('replace.me@example.com'), description: 'old' } });
			const route = path(ENDPOINTS.replaceUser.path, created.json.id);
			const replaced = await api('PUT', route, { body: { name: 'Replaced', email: 'replace.me@example.com', country: 'US', timeZone: 'America/New_York' } });
			expect(replaced.json).toMatchObject({ name: 'Replaced', country: 'US', description: null, creation: created.json.creation });
			expect(sandbox.store.passwordOf(created.json.id)).toBe('s3cret');
		});

		it('patches a user with JSON Patch', async () => {
			const route = path(ENDPOINTS.updateUser.path, 'usr-5');
			const reply = await api('PATCH', route, {
				body: [
					{ op: 'replace', path: '/name', value: 'Renamed' },
					{ op: 'add', path: '/tags', value: { team: 'night' } },
					{ op: 'add', path: '/tags/shift~1role', value: 'lead' },
					{ op: 'replace', path: '/disabled', value: true },
					{ op: 'add', path: '/password', value: 'patched' },
				],
			});
			expect(reply.status).toBe(200);
			expect(reply.json).toMatchObject({ id: 'usr-5', name: 'Renamed', tags: { team: 'night', 'shift/role': 'lead' }, disabled: true, password: null });
			expect(sandbox.store.passwordOf('usr-5')).toBe('patched');
			expect((await api('PATCH', route, { body: [{ op: 'remove', path: '/email' }] })).status).toBe(400);
		});

		it('deletes a user', async () => {
			const route = path(ENDPOINTS.deleteUser.path, 'usr-6');
			expect((await api('DELETE', route)).json.success).toBe(true);
			expect((await api('GET', route)).status).toBe(404);
			expect((await api('DELETE', route)).status).toBe(404);
		});
	});

	describe('JSON Patch (RFC 6902)', () => {
		const doc = { name: 'a', list: [1, 2, 3], nested: { 'x/y': 1, 'm~n': 2 } };

		it('adds, removes and replaces on objects and arrays', () => {
			expect(applyJsonPatch(doc, [{ op: 'add', path: '/list/1', value: 9 }]).list).toEqual([1, 9, 2, 3]);
			expect(applyJsonPatch(doc, [{ op: 'add', path: '/list/3', value: 9 }]).list).toEqual([1, 2, 3, 9]);
			expect(applyJsonPatch(doc, [{ op: 'add', path: '/list/-', value: 9 }]).list).toEqual([1, 2, 3, 9]);
			expect(applyJsonPatch(doc, [{ op: 'remove', path: '/list/0' }]).list).toEqual([2, 3]);
			expect(applyJsonPatch(doc, [{ op: 'replace', path: '/list/2', value: 0 }]).list).toEqual([1, 2, 0]);
			expect(applyJsonPatch(doc, [{ op: 'add', path: '/name', value: 'b' }]).name).toBe('b');
			expect(applyJsonPatch(doc, [{ op: 'remove', path: '/nested/x~1y' }, { op: 'replace', path: '/nested/m~0n', value: 3 }]).nested).toEqual({ 'm~n': 3 });
			expect(applyJsonPatch(doc, [{ op: 'replace', path: '', value: { fresh: true } }])).toEqual({ fresh: true });
			expect(doc.list).toEqual([1, 2, 3]);
		});

		it('applies move, copy and test, which the user PATCH page lists', () => {
			expect(applyJsonPatch(doc, [{ op: 'test', path: '/name', value: 'a' }, { op: 'move', from: '/name', path: '/title' }])).toEqual({
				title: 'a',
				list: [1, 2, 3],
				nested: doc.nested,
			});
			expect(applyJsonPatch(doc, [{ op: 'copy', from: '/list/0', path: '/list/-' }]).list).toEqual([1, 2, 3, 1]);
			expect(applyJsonPatch(doc, [{ op: 'test', path: '/nested', value: { 'x/y': 1, 'm~n': 2 } }])).toEqual(doc);
			expect(doc.list).toEqual([1, 2, 3]);
		});

		it('refuses what RFC 6902 refuses', () => {
			const refused: unknown[] = [
				[{ op: 'add', path: '/list/4', value: 0 }],
				[{ op: 'add', path: '/list/01', value: 0 }],
				[{ op: 'replace', path: '/list/-', value: 0 }],
				[{ op: 'remove', path: '/absent' }],
				[{ op: 'add', path: '/absent/child', value: 0 }],
				[{ op: 'add', path: '/nested/~2', value: 0 }],
				[{ op: 'test', path: '/name', value: 'not the name' }],
				[{ op: 'move', from: '/absent', path: '/name' }],
				[{ op: 'move', from: '/nested', path: '/nested/inner' }],
				[{ op: 'copy', path: '/name' }],
				[{ op: 'remove', path: '' }],
				{ op: 'add', path: '/name', value: 'b' },
			];
			for (const patch of refused) expect(() => applyJsonPatch(doc, patch)).toThrow();
		});

		it('stores "__proto__" as a plain member', () => {
			const patched = applyJsonPatch({} as Record<string, unknown>, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]);
			expect(Object.prototype.hasOwnProperty.call(patched, '__proto__')).toBe(true);
			expect('polluted' in patched).toBe(false);
			expect('polluted' in {}).toBe(false);
		});
	});

	describe('rate limit and latency', () => {
		it('answers 429 with an integer Retry-After once the window is full', async () => {
			await withSandbox({ rateLimit: { requests: 3, windowMs: 60_000 } }, async (limited) => {
				const limitedToken = await tokenFor(limited);
				const statuses: number[] = [];
				let last: Reply | undefined;
				for (let i = 0; i < 4; i++) {
					last = await call(limited, 'GET', ENDPOINTS.listGroups.path, { token: limitedToken });
					statuses.push(last.status);
				}
				expect(statuses).toEqual([200, 200, 200, 429]);
				expect(last!.json).toEqual({ success: false, error: 'Too many requests.' });
				const retryAfter = last!.headers.get('retry-after');
				expect(retryAfter).toMatch(/^\d+$/);
				expect(Number(retryAfter)).toBeGreaterThanOrEqual(59);
				expect(Number(retryAfter)).toBeLessThanOrEqual(60);
				expect(limited.stats.tooManyRequests).toBe(1);
				limited.setOptions({ retryAfterHeader: false });
				expect((await call(limited, 'GET', ENDPOINTS.listGroups.path, { token: limitedToken })).headers.get('retry-after')).toBeNull();
			});
		});

		it('lets requests through again once the window slides', async () => {
			await withSandbox({ rateLimit: { requests: 2, windowMs: 300 } }, async (limited) => {
				const limitedToken = await tokenFor(limited);
				const get = () => call(limited, 'GET', ENDPOINTS.listGroups.path, { token: limitedToken });
				await get();
				await get();
				const refused = await get();
				expect(refused.status).toBe(429);
				expect(refused.headers.get('retry-after')).toBe('1');
				await new Promise((resolve) => setTimeout(resolve, 350));
				expect((await get()).status).toBe(200);
			});
		});

		it('delays every answer by latencyMs', async () => {
			sandbox.setOptions({ latencyMs: 150 });
			const startedAt = performance.now();
			await api('GET', ENDPOINTS.listGroups.path);
			expect(performance.now() - startedAt).toBeGreaterThanOrEqual(140);
		});
	});

	describe('faults', () => {
		const createGroup = (name: string) => api('POST', ENDPOINTS.createGroup.path, { body: { name } });
		const groupNamed = (name: string) => sandbox.store.listGroups().find((group: Group) => group.name === name);

		it('answers a status fault before processing: the write does not happen', async () => {
			sandbox.faults.inject({ kind: 'status', status: 503, retryAfter: 2, times: 1, match: { method: 'POST', path: ENDPOINTS.createGroup.path } });
			const failed = await createGroup('fault-status');
			expect(failed.status).toBe(503);
			expect(failed.json.success).toBe(false);
			expect(failed.headers.get('retry-after')).toBe('2');
			expect(groupNamed('fault-status')).toBeUndefined();
			expect((await createGroup('fault-status')).status).toBe(200);
			expect(groupNamed('fault-status')).toBeDefined();
		});

		it('resets the connection without answering, before or after applying the write', async () => {
			sandbox.faults.inject({ kind: 'reset', times: 1, match: { path: ENDPOINTS.createGroup.path } });
			await expect(createGroup('fault-reset')).rejects.toThrow();
			expect(groupNamed('fault-reset')).toBeUndefined();
			sandbox.faults.inject({ kind: 'reset', times: 1, afterApply: true, match: { path: ENDPOINTS.createGroup.path } });
			await expect(createGroup('fault-reset-after')).rejects.toThrow();
			expect(groupNamed('fault-reset-after')).toBeDefined();
			expect(sandbox.stats.statusCounts.reset).toBeGreaterThanOrEqual(2);
		});

		it('answers a proxy HTML page', async () => {
			sandbox.faults.inject({ kind: 'html', times: 1 });
			const reply = await api('GET', ENDPOINTS.listDevices.path);
			expect(reply.status).toBe(502);
			expect(reply.headers.get('content-type')).toMatch(/text\/html/);
			expect(reply.text).toMatch(/<html>/);
		});

		it('delays a slow answer, then answers normally', async () => {
			sandbox.faults.inject({ kind: 'slow', delayMs: 200, times: 1 });
			const startedAt = performance.now();
			const reply = await api('GET', ENDPOINTS.listGroups.path);
			expect(performance.now() - startedAt).toBeGreaterThanOrEqual(190);
			expect(reply.json.groups).toEqual(expect.any(Array));
		});

		it('sends 200 answers that are not a usable envelope', async () => {
			sandbox.faults.inject({ kind: 'nonJson200', times: 1 });
			sandbox.faults.inject({ kind: 'arrayBody', times: 1 });
			sandbox.faults.inject({ kind: 'successFalse200', times: 1, message: 'Quota exceeded.' });
			const nonJson = await api('GET', ENDPOINTS.listDevices.path);
			const array = await api('GET', ENDPOINTS.listDevices.path);
			const successFalse = await api('GET', ENDPOINTS.listDevices.path);
			expect(nonJson.status).toBe(200);
			expect(nonJson.json).toBeUndefined();
			expect(array.json).toEqual([]);
			expect(successFalse).toMatchObject({ status: 200, json: { success: false, error: 'Quota exceeded.' } });
		});

		it('drops the payload after applying the write', async () => {
			sandbox.faults.inject({ kind: 'missingPayload', times: 1, match: { method: 'POST', path: /^\/api\/groups$/ } });
			const reply = await createGroup('fault-missing-payload');
			expect(reply.json).toEqual({ success: true, error: null, apiUsage: expect.any(Number), apiDailyUsage: expect.any(Number) });
			expect(groupNamed('fault-missing-payload')).toBeDefined();
		});

		it('sends a huge body of the requested size', async () => {
			sandbox.faults.inject({ kind: 'hugeBody', sizeBytes: 3_000_000, times: 1 });
			const reply = await api('GET', ENDPOINTS.listGroups.path);
			expect(reply.text.length).toBe(3_000_000);
			expect(reply.json.success).toBe(true);
		});

		it('matches by route template, counts times and draws probabilities from the seed', async () => {
			const fault = sandbox.faults.inject({ kind: 'status', status: 500, times: 2, match: { path: ENDPOINTS.getDevice.path } });
			const statuses: number[] = [];
			for (let i = 0; i < 3; i++) statuses.push((await api('GET', path(ENDPOINTS.getDevice.path, 'device001'))).status);
			expect(statuses).toEqual([500, 500, 200]);
			expect(fault.applied).toBe(2);
			expect((await api('GET', ENDPOINTS.listGroups.path)).status).toBe(200);

			const draw = async (seeded: Sandbox) => {
				const seededToken = await tokenFor(seeded);
				seeded.faults.inject({ kind: 'status', probability: 0.5 });
				const results: number[] = [];
				for (let i = 0; i < 12; i++) results.push((await call(seeded, 'GET', ENDPOINTS.listGroups.path, { token: seededToken })).status);
				return results;
			};
			const sequences: number[][] = [];
			for (let run = 0; run < 2; run++) await withSandbox({ seed: 7 }, async (seeded) => void sequences.push(await draw(seeded)));
			expect(sequences[0]).toEqual(sequences[1]);
			expect(sequences[0]).toContain(503);
			expect(sequences[0]).toContain(200);
		});

		it('clears all faults', async () => {
			sandbox.faults.inject({ kind: 'status' });
			sandbox.faults.clear();
			expect((await api('GET', ENDPOINTS.listGroups.path)).status).toBe(200);
		});
	});

	describe('movement and test data', () => {
		it('moves devices forward with fixes that are never in the future', async () => {
			const before = sandbox.store.lastLocation('device001')!;
			const moved = sandbox.moveDevices({ minutes: 15, deviceIds: ['device001'] });
			expect(moved.device001).toHaveLength(3);
			const after = (await api('GET', path(ENDPOINTS.getLastLocation.path, 'device001'))).json.lastLocation;
			expect(after).toEqual(moved.device001[2]);
			expect(Date.parse(after.dateTime)).toBeGreaterThan(Date.parse(before.dateTime));
			expect(Date.parse(after.dateTime)).toBeLessThanOrEqual(Date.now());
			expect([after.latitude, after.longitude]).not.toEqual([before.latitude, before.longitude]);
		});

		it('squeezes a move that does not fit before now into a track a vehicle could drive', () => {
			sandbox.moveDevices({ minutes: 10, deviceIds: ['device001'] });
			// The device's newest fix is now seconds old: ten more minutes of driving must fit in those seconds.
			const before = sandbox.store.lastLocation('device001')!;
			const track = [before, ...sandbox.moveDevices({ minutes: 10, deviceIds: ['device001'] }).device001];
			for (let i = 1; i < track.length; i++) {
				const hours = (Date.parse(track[i].dateTime) - Date.parse(track[i - 1].dateTime)) / 3_600_000;
				const km = Math.hypot(track[i].latitude - track[i - 1].latitude, track[i].longitude - track[i - 1].longitude) * 111.32;
				expect(km).toBeLessThanOrEqual(Math.max(hours, 1 / 3600) * 150);
			}
		});

		it('moves every reporting device by default', () => {
			const moved = sandbox.moveDevices({ minutes: 5 });
			expect(Object.keys(moved)).toContain('device002');
			expect(Object.keys(moved)).not.toContain(sandbox.store.facts.neverReportedDeviceId);
		});

		it('adds fixes, alerts and devices, and removes devices', async () => {
			sandbox.store.addDevice({ id: 'fresh-1', name: 'Fresh', tags: {}, expires: null });
			const fix = sandbox.store.addFix('fresh-1', { latitude: 1, longitude: 2 });
			expect((await api('GET', path(ENDPOINTS.getLastLocation.path, 'fresh-1'))).json.lastLocation).toEqual(fix);
			sandbox.store.addAlert('fresh-1', { text: 'Geofence exit', alerts: ['Geofence'], notifications: ['SMS'] });
			const alerts = await api('POST', path(ENDPOINTS.getAlerts.path, 'fresh-1'), { body: { ...lastDay(), alertName: 'Geofence' } });
			expect(alerts.json.alerts).toEqual([expect.objectContaining({ text: 'Geofence exit', latitude: 1, longitude: 2 })]);
			expect(sandbox.store.removeDevice('fresh-1')).toBe(true);
			expect((await api('GET', path(ENDPOINTS.getDevice.path, 'fresh-1'))).status).toBe(404);
		});
	});

	describe('ground truth', () => {
		it('counts requests by route template and status, and resets', async () => {
			await withSandbox({}, async (counted) => {
				const countedToken = await tokenFor(counted);
				await call(counted, 'GET', path(ENDPOINTS.getLastLocation.path, 'device001'), { token: countedToken });
				await call(counted, 'GET', path(ENDPOINTS.getLastLocation.path, 'device002'), { token: countedToken });
				await call(counted, 'GET', path(ENDPOINTS.getDevice.path, 'nope'), { token: countedToken });
				expect(counted.stats).toMatchObject({
					tokenCalls: 1,
					requests: 4,
					byRoute: { [`GET ${ENDPOINTS.getLastLocation.path}`]: 2, [`GET ${ENDPOINTS.getDevice.path}`]: 1, [`POST ${TOKEN_PATH}`]: 1 },
					statusCounts: { '200': 3, '404': 1 },
				});
				expect(counted.requestLog.map((entry) => entry.deviceId)).toEqual([undefined, 'device001', 'device002', 'nope']);
				counted.resetStats();
				expect(counted.stats.requests).toBe(0);
				expect(counted.requestLog).toHaveLength(0);
				expect(counted.issuedTokens).toEqual([countedToken]);
			});
		});
	});

	describe('control routes', () => {
		it('drives the sandbox over HTTP without a token', async () => {
			await withSandbox({}, async (remote) => {
				const control = async (method: string, route: string, body?: unknown) => {
					const response = await fetch(`${remote.rootUrl}/__sandbox/${route}`, {
						method,
						headers: body === undefined ? {} : { 'content-type': 'application/json' },
						body: body === undefined ? undefined : JSON.stringify(body),
					});
					expect(response.status).toBe(200);
					return response.json();
				};
				const remoteToken = await tokenFor(remote);
				expect(await control('GET', 'stats')).toMatchObject({ tokenCalls: 1 });
				await control('POST', 'faults', { kind: 'status', status: 418, match: { pathPattern: '^/api/groups$' } });
				expect((await call(remote, 'GET', ENDPOINTS.listGroups.path, { token: remoteToken })).status).toBe(418);
				await control('DELETE', 'faults');
				expect((await call(remote, 'GET', ENDPOINTS.listGroups.path, { token: remoteToken })).status).toBe(200);
				expect(await control('POST', 'move', { minutes: 10 })).toMatchObject({ ok: true, moved: { device001: 2 } });
				await control('POST', 'revoke-tokens');
				expect((await call(remote, 'GET', ENDPOINTS.listGroups.path, { token: remoteToken })).status).toBe(401);
				await control('POST', 'reset-stats');
				expect(await control('GET', 'stats')).toMatchObject({ requests: 0 });
			});
		});

		it('records whatever is posted to the sink, apart from the API counts', async () => {
			const apiRequests = sandbox.stats.requests;
			const sent = await fetch(`${sandbox.rootUrl}/__sink/chat`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ text: 'Truck 01 left the depot' }),
			});
			expect(await sent.json()).toEqual({ ok: true });
			await fetch(`${sandbox.rootUrl}/__sink/email`, { method: 'POST', body: 'plain text' });
			const chat = await (await fetch(`${sandbox.rootUrl}/__sandbox/received?path=/chat`)).json();
			const all = (await (await fetch(`${sandbox.rootUrl}/__sandbox/sink`)).json()) as Array<{ path: string }>;
			expect(chat).toEqual([expect.objectContaining({ method: 'POST', path: '/chat', body: { text: 'Truck 01 left the depot' } })]);
			expect(all.map((entry) => entry.path)).toEqual(['/chat', '/email']);
			expect(sandbox.stats.requests).toBe(apiRequests);
		});
	});

	describe('https', () => {
		it('serves TLS with the given key and certificate, and drops TLS connections on reset faults', async () => {
			const tls = generateSelfSignedCert();
			await withSandbox({ https: tls }, async (secure) => {
				expect(secure.url).toMatch(/^https:\/\//);
				const dispatcher = new Agent({ connect: { ca: tls.cert } });
				try {
					const reply = await undiciRequest(`${secure.url}${TOKEN_PATH}`, {
						method: 'POST',
						dispatcher,
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY }),
					});
					expect(reply.statusCode).toBe(200);
					expect(((await reply.body.json()) as { success: boolean }).success).toBe(true);
					secure.faults.inject({ kind: 'reset', times: 1 });
					await expect(undiciRequest(`${secure.url}${ENDPOINTS.listDevices.path}`, { dispatcher })).rejects.toThrow();
					expect(secure.stats.statusCounts.reset).toBe(1);
				} finally {
					await dispatcher.close();
				}
			});
		});
	});
});
