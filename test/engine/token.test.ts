/**
 * The token's life in a run: how long it is trusted whatever the clocks say, what a failing or
 * hanging token endpoint costs, what a route that refuses every token costs, and that a token
 * never outlives the credential values it was fetched with (runs and the credential Test alike).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox } from '../../sandbox/server';
import { TOKEN_PATH } from '../../nodes/shared/wire';
import { Engine } from '../support/engine';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const getDevice = { resource: 'device', operation: 'get', deviceId: byId('device001') };
const items = (count: number) => Array.from({ length: count }, () => ({}));
const MINUTE = 60_000;

describe('token lifetime, read on the service clock', () => {
	const ctx = useSandbox();

	beforeEach(() => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.resetStats();
	});
	afterEach(() => ctx.sandbox.setOptions({ clock: () => new Date(), tokenLifetimeSeconds: 3600 }));

	it.each([59, 61])('costs one token exchange for 40 items at 8 concurrent with the service clock %i minutes behind', async (behind) => {
		ctx.sandbox.setOptions({ clock: () => new Date(Date.now() - behind * MINUTE) });

		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { maxConcurrency: 8 } }, { items: items(40) });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(40);
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
	});

	it('costs one token exchange for 40 items under a 20 s token lifetime', async () => {
		ctx.sandbox.setOptions({ tokenLifetimeSeconds: 20 });

		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { maxConcurrency: 8 } }, { items: items(40) });

		expect(result.items).toHaveLength(40);
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
		// When to renew is on n8n's clock, from the lifetime the answer gave (20 s less a margin).
		const renewAt = Date.parse(String(ctx.engine.credentials.read('cred-sandbox').tokenExpires));
		expect(renewAt - Date.now()).toBeGreaterThan(5_000);
		expect(renewAt - Date.now()).toBeLessThanOrEqual(20_000);
	});

	it('fetches a new token when the lifetime the service gave has run out, not before', async () => {
		ctx.sandbox.setOptions({ tokenLifetimeSeconds: 2, clock: () => new Date(Date.now() - 59 * MINUTE) });
		await ctx.engine.runNode(getDevice);
		await new Promise((resolve) => setTimeout(resolve, 2_100));

		const result = await ctx.engine.runNode(getDevice, { items: items(5) });

		expect(result.items).toHaveLength(5);
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
		expect(ctx.sandbox.stats.statusCounts['401']).toBeUndefined();
	});
});

describe('a failing or hanging token endpoint', () => {
	const ctx = useSandbox();
	const tokenFault = { match: { path: TOKEN_PATH } };

	beforeEach(() => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.faults.clear();
		ctx.sandbox.resetStats();
	});

	it('retries one failed exchange once, on behalf of every waiting request', async () => {
		ctx.sandbox.faults.inject({ ...tokenFault, kind: 'status', status: 503, times: 1 });

		const result = await ctx.engine.runNode(getDevice, { items: items(20) });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
	});

	it('fails every item after the retried exchange failed too, without one exchange per item', async () => {
		ctx.sandbox.faults.inject({ ...tokenFault, kind: 'status', status: 503 });

		const result = await ctx.engine.runNode({ resource: 'group', operation: 'create', name: 'G' }, { items: items(20), continueOnFail: true });

		expect(jsonOf(result.items).map((item) => item.error)).toEqual(Array(20).fill('The token request answered 503'));
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
		expect(ctx.sandbox.stats.byRoute['POST /api/groups']).toBeUndefined();
	});

	it('fails every waiting item within the node Timeout when the exchange hangs, naming where it went', async () => {
		ctx.sandbox.faults.inject({ ...tokenFault, kind: 'slow', delayMs: 20_000 });

		const result = await ctx.engine.runNode(
			{ ...getDevice, requestSettings: { timeoutSeconds: 1 } },
			{ items: items(10), continueOnFail: true },
		);

		expect(jsonOf(result.items).map((item) => item.error)).toEqual(
			Array(10).fill(`Could not get an answer from the tracking API at ${ctx.sandbox.url}${TOKEN_PATH}: no answer came within the timeout`),
		);
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
	}, 8_000);
});

describe('a route that refuses every token', () => {
	const ctx = useSandbox();

	beforeEach(() => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.faults.clear();
		ctx.sandbox.resetStats();
	});

	it('stops renewing once a fresh token is refused again: 100 items cost about one request each and two exchanges', async () => {
		ctx.sandbox.faults.inject({ match: { path: '/api/devices/device001' }, kind: 'status', status: 401, message: 'Invalid or expired token.' });

		const result = await ctx.engine.runNode(getDevice, { items: items(100), continueOnFail: true });

		expect(jsonOf(result.items).map((item) => item.error)).toEqual(
			Array(100).fill('The tracking API refuses this call with a fresh token: Invalid or expired token.'),
		);
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
		// The first wave (8 at once) meets two fresh tokens; every later item is sent once.
		expect(ctx.sandbox.stats.byRoute['GET /api/devices/{deviceId}']).toBeLessThanOrEqual(100 + 2 * 8);
	});
});

describe('a route that refuses every token, from a service that re-issues the same token text', () => {
	// Many services hand out the token they already issued until it expires: each exchange is still
	// a fresh token, and a second refusal of one is as telling as of a new text.
	let server: Server;
	let url = '';
	const calls = { token: 0, route: 0 };

	beforeAll(async () => {
		server = createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				const token = request.url === TOKEN_PATH;
				calls[token ? 'token' : 'route']++;
				response.writeHead(token ? 200 : 401, { 'content-type': 'application/json' });
				response.end(JSON.stringify(token ? { success: true, token: 'the-same-token-every-time' } : { success: false, error: 'Not allowed.' }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(() => new Promise((resolve) => server.close(resolve)));

	it('stops renewing after the second refusal just the same: 100 items cost two exchanges', async () => {
		const engine = new Engine({ baseUrl: url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });

		const result = await engine.runNode(
			{ resource: 'device', operation: 'get', deviceId: byId('device001') },
			{ items: items(100), continueOnFail: true },
		);

		expect(jsonOf(result.items).map((item) => item.error)).toEqual(
			Array(100).fill('The tracking API refuses this call with a fresh token: Not allowed.'),
		);
		// Counted by token text, the two exchanges looked like one token: five more renewals followed.
		expect(calls.token).toBe(2);
		expect(calls.route).toBeLessThanOrEqual(100 + 2 * 8);
	});
});

describe('a token belongs to the values it was fetched with', () => {
	const ctx = useSandbox();

	beforeEach(async () => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		await ctx.engine.runNode(getDevice);
		ctx.sandbox.resetStats();
	});

	const storedWith = (changes: ICredentialDataDecryptedObject) => {
		const data = ctx.engine.credentials.read('cred-sandbox');
		ctx.engine.credentials.save({ id: 'cred-sandbox', name: 'Sandbox', type: 'satelliteTrackingApi', data: { ...data, ...changes } });
	};

	it('the credential Test exchanges a changed key even with a working token stored, and fails a wrong one', async () => {
		const stored = ctx.engine.credentials.read('cred-sandbox');
		expect(stored.token).not.toBe('');

		const wrong = await ctx.engine.testCredential({ ...stored, apiKey: 'wrong-key-123' });
		const right = await ctx.engine.testCredential({ ...stored });

		expect(wrong).toEqual({ status: 'Error', message: 'Invalid API key or username.' });
		expect(right.status).toBe('OK');
		expect(ctx.sandbox.stats.tokenCalls).toBeGreaterThanOrEqual(2);
	});

	it('the credential Test reads a Base URL with spaces around it as runs do (issue 24.3: "Invalid URL")', async () => {
		const stored = ctx.engine.credentials.read('cred-sandbox');
		const spaced = await ctx.engine.testCredential({ ...stored, baseUrl: `  ${String(stored.baseUrl)}/ ` });
		expect(spaced.status).toBe('OK');
	});

	it('a run after the key changed fetches a token for the new key instead of using the stored one', async () => {
		storedWith({ apiKey: 'wrong-key-123' });

		const result = await ctx.engine.runNode(getDevice);

		expect(result.error?.message).toBe('Authentication failed: Invalid API key or username.');
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
		expect(ctx.sandbox.stats.byRoute['GET /api/devices/{deviceId}']).toBeUndefined();
	});

	it('never sends a token to a Base URL it was not fetched from', async () => {
		const other = await startSandbox({ port: 0 });
		try {
			const oldToken = String(ctx.engine.credentials.read('cred-sandbox').token);
			storedWith({ baseUrl: other.url });

			const result = await ctx.engine.runNode(getDevice);

			expect(result.error).toBeUndefined();
			expect(other.stats.tokenCalls).toBe(1);
			expect(other.requestLog.map((entry) => String(entry.headers.authorization ?? ''))).not.toContain(`Bearer ${oldToken}`);
		} finally {
			await other.close();
		}
	});

	it('says what was tried and what to check when nothing answers at the Base URL', async () => {
		const closed = await startSandbox({ port: 0 });
		const url = closed.url;
		await closed.close();
		storedWith({ baseUrl: url });

		const run = await ctx.engine.runNode(getDevice);
		const test = await ctx.engine.testCredential({ ...ctx.engine.credentials.read('cred-sandbox') });

		const expected = `Could not get an answer from the tracking API at ${url}${TOKEN_PATH}: the connection was refused`;
		expect(run.error?.message).toBe(expected);
		expect(run.error?.description).toContain('Check the Base URL');
		expect(test).toEqual({ status: 'Error', message: expected });
	});
});

// Only a poll's deadline bounds the wait for another run's exchange (helper-38): counting it against
// an action's Timeout failed every item of a run whose Timeout was shorter than that exchange.
describe("waiting for another run's token exchange, in an action node", () => {
	const ctx = useSandbox();
	const realWait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	it('makes its own exchange once the other one timed out, instead of failing every item', async () => {
		ctx.sandbox.faults.inject({ match: { path: TOKEN_PATH }, kind: 'slow', delayMs: 5_000, times: 1 });
		const other = ctx.engine.runNode({ ...getDevice, requestSettings: { timeoutSeconds: 2 } }, { items: items(1), continueOnFail: true });
		await realWait(200);
		const run = await ctx.engine.runNode({ ...getDevice, requestSettings: { timeoutSeconds: 1 } }, { items: items(5), continueOnFail: true });
		await other;
		expect(jsonOf(run.items).map((item) => item.error)).toEqual(Array(5).fill(undefined));
	}, 20_000);

	it('sends a write once the slow exchange it waited for is done', async () => {
		ctx.sandbox.faults.inject({ match: { path: TOKEN_PATH }, kind: 'slow', delayMs: 2_000, times: 1 });
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const other = ctx.engine.runNode({ ...getDevice, requestSettings: { timeoutSeconds: 10 } }, { continueOnFail: true });
		await realWait(200);
		const run = await ctx.engine.runNode({ resource: 'group', operation: 'create', name: 'G', requestSettings: { timeoutSeconds: 1 } }, { items: [{}, {}], continueOnFail: true });
		await other;
		expect(jsonOf(run.items).map((item) => item.error)).toEqual([undefined, undefined]);
		expect(ctx.sandbox.stats.byRoute['POST /api/groups']).toBe(2);
	}, 20_000);
});
