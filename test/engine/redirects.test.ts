/**
 * Issue 51, items 1 and 2: a redirect never takes the token, the API key or a request body to
 * another origin. The sandbox stands behind a front that redirects chosen routes; whatever reaches
 * the other origin (another loopback address, or the same host over plain HTTP) is recorded.
 */
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { generateSelfSignedCert } from '../../sandbox/tls';
import { Engine } from '../support/engine';
import { startCatcher, startFront, type Front, type HostileServer } from '../support/hostileHosts';
import { byId, useSandbox } from '../support/sandboxed';

const REDIRECTS = [301, 302, 303, 307, 308];
const TOKEN_PATH = '/api/Auth/Token';
const getDevice = { resource: 'device', operation: 'get', deviceId: byId('device001') };

describe('a redirect takes nothing to another origin', () => {
	const ctx = useSandbox();
	let front: Front;
	let otherHost: HostileServer;
	let engine: Engine;

	beforeAll(async () => {
		front = await startFront(ctx.sandbox.url);
		otherHost = await startCatcher({ host: '127.0.0.2' });
	});
	afterAll(async () => {
		await front.close();
		await otherHost.close();
	});
	beforeEach(() => {
		front.rules.length = 0;
		front.received.length = 0;
		otherHost.received.length = 0;
		engine = new Engine({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	});

	it.each(REDIRECTS)('Device Get answered %i to another host: nothing reaches it, and the error says where it pointed', async (status) => {
		front.rules.push({ method: 'GET', path: '/api/devices/device001', answer: { redirect: status, location: `${otherHost.url}/api/devices/device001?via=redirect` } });

		const result = await engine.runNode(getDevice);

		expect(otherHost.received).toEqual([]);
		expect(result.error?.message).toBe(`The tracking API answered ${status}, redirecting to ${otherHost.url}/api/devices/device001: not followed`);
		expect(result.error?.description).toContain('set the Base URL in the credential');
		// The token exchange and the call went to the Base URL, once each: a redirect is not retried.
		expect(front.received.map((request) => `${request.method} ${request.path}`)).toEqual([`POST ${TOKEN_PATH}`, 'GET /api/devices/device001']);
	});

	it('a write answered 307 sends neither the token nor its body (a password) to the other host; each item fails on its own', async () => {
		front.rules.push({ method: 'POST', path: '/api/users', answer: { redirect: 307, location: `${otherHost.url}/api/users` } });
		const create = {
			resource: 'user',
			operation: 'create',
			name: 'Redirected Person',
			email: 'redirected@example.com',
			country: 'DE',
			timeZone: 'Europe/Berlin',
			additionalFields: { password: 'never-leaves-1' },
		};

		const result = await engine.runNode(create, { items: [{}, {}], continueOnFail: true });

		expect(otherHost.received).toEqual([]);
		expect(result.items.map((item) => item.json.error)).toEqual([
			`The tracking API answered 307, redirecting to ${otherHost.url}/api/users: not followed`,
			`The tracking API answered 307, redirecting to ${otherHost.url}/api/users: not followed`,
		]);
	});

	it('a chain (same origin, then another host) is not followed past its first hop, which the error names', async () => {
		front.rules.push(
			{ method: 'GET', path: '/api/devices/device001', answer: { redirect: 302, location: '/moved/device001' } },
			{ method: 'GET', path: '/moved/device001', answer: { redirect: 307, location: `${otherHost.url}/api/devices/device001` } },
		);

		const result = await engine.runNode(getDevice);

		expect(otherHost.received).toEqual([]);
		expect(result.error?.message).toBe(`The tracking API answered 302, redirecting to ${front.url}/moved/device001: not followed`);
		expect(front.received.some((request) => request.path === '/moved/device001')).toBe(false);
	});

	it('the trigger: a poll redirected elsewhere sends nothing there and fails saying where', async () => {
		front.rules.push({ method: 'GET', path: '/api/devices', answer: { redirect: 302, location: `${otherHost.url}/api/devices` } });

		await expect(engine.poll({ events: ['locationUpdated'] }, {})).rejects.toThrow(
			`The tracking API answered 302, redirecting to ${otherHost.url}/api/devices: not followed`,
		);
		expect(otherHost.received).toEqual([]);
	});

	it.each(REDIRECTS)('the token exchange answered %i: the API key goes nowhere else, and the error names where it pointed', async (status) => {
		front.rules.push({ method: 'POST', path: TOKEN_PATH, answer: { redirect: status, location: `${otherHost.url}${TOKEN_PATH}` } });

		const result = await engine.runNode(getDevice);

		expect(otherHost.received).toEqual([]);
		expect(result.error?.message).toBe(`The token request was answered ${status}, redirecting to ${otherHost.url}${TOKEN_PATH}: not followed`);
		expect(result.error?.description).toContain('the API key went only to the Base URL');
		expect(JSON.stringify(result.run)).not.toContain(DEMO_API_KEY);
		// Nothing was sent with a token: the exchange never gave one.
		expect(front.received.every((request) => request.path === TOKEN_PATH)).toBe(true);
	});

	it("the credential dialog's Test of a redirected token exchange says where it pointed", async () => {
		front.rules.push({ method: 'POST', path: TOKEN_PATH, answer: { redirect: 308, location: `${otherHost.url}${TOKEN_PATH}` } });

		const tested = await engine.testCredential({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });

		expect(otherHost.received).toEqual([]);
		expect(tested).toEqual({ status: 'Error', message: `The token request was answered 308, redirecting to ${otherHost.url}${TOKEN_PATH}: not followed` });
	});

	it("the credential dialog's Test of a token exchange redirected to an address quoting the key: the key is not shown", async () => {
		front.rules.push({ method: 'POST', path: TOKEN_PATH, answer: { redirect: 307, location: `/login/${DEMO_API_KEY}/token` } });

		const tested = await engine.testCredential({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const run = await engine.runNode(getDevice);

		const expected = `The token request was answered 307, redirecting to ${front.url}/login/[redacted]/token: not followed`;
		expect(tested).toEqual({ status: 'Error', message: expected });
		expect(run.error?.message).toBe(expected);
	});

	it("the credential dialog's Test: its call with the token, redirected, goes nowhere else", async () => {
		front.rules.push({ method: 'GET', path: '/api/groups', answer: { redirect: 307, location: `${otherHost.url}/api/groups` } });

		const tested = await engine.testCredential({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });

		expect(otherHost.received).toEqual([]);
		expect(tested).toEqual({ status: 'Error', message: 'Request failed with status code 307' });
	});
});

describe('a redirect from https to http takes nothing there', () => {
	const ctx = useSandbox();
	let front: Front;
	let plainHttp: HostileServer;
	let engine: Engine;

	beforeAll(async () => {
		front = await startFront(ctx.sandbox.url, { https: generateSelfSignedCert() });
		// The same host: only the scheme (and port) differ.
		plainHttp = await startCatcher();
	});
	afterAll(async () => {
		await front.close();
		await plainHttp.close();
	});
	beforeEach(() => {
		front.rules.length = 0;
		plainHttp.received.length = 0;
		engine = new Engine({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY, allowUnauthorizedCerts: true });
	});

	it.each([302, 307])('an API call answered %i to http:// sends no token there', async (status) => {
		front.rules.push({ method: 'GET', path: '/api/devices/device001', answer: { redirect: status, location: `${plainHttp.url}/api/devices/device001` } });

		const result = await engine.runNode(getDevice);

		expect(front.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
		expect(plainHttp.received).toEqual([]);
		expect(result.error?.message).toBe(`The tracking API answered ${status}, redirecting to ${plainHttp.url}/api/devices/device001: not followed`);
	});

	it('the token exchange answered 308 to http:// sends no key there', async () => {
		front.rules.push({ method: 'POST', path: TOKEN_PATH, answer: { redirect: 308, location: `${plainHttp.url}${TOKEN_PATH}` } });

		const result = await engine.runNode(getDevice);

		expect(plainHttp.received).toEqual([]);
		expect(result.error?.message).toBe(`The token request was answered 308, redirecting to ${plainHttp.url}${TOKEN_PATH}: not followed`);
	});
});
