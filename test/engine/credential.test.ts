import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { ACTION_NODE_TYPE, Engine } from '../support/engine';
import { byId, fromItem, useSandbox } from '../support/sandboxed';

const getDevice = { resource: 'device', operation: 'get', deviceId: byId('device001') };

describe('credential: token exchange through n8n', () => {
	const ctx = useSandbox();

	beforeEach(() => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.resetStats();
	});

	it('fetches one token for a multi-item, multi-node workflow and stores it in the credential', async () => {
		const { engine, sandbox } = ctx;
		const list = engine.node('List', ACTION_NODE_TYPE, { resource: 'device', operation: 'getAll', limit: 10 }, [200, 0]);
		const last = engine.node('Last', ACTION_NODE_TYPE, { resource: 'device', operation: 'getLastLocation', deviceId: fromItem('id') }, [400, 0]);
		const run = await engine.runWorkflow([list, last], { items: [{}, {}, {}] });

		expect(run.data.resultData.error).toBeUndefined();
		expect(run.data.resultData.runData.Last[0].data?.main[0]).toHaveLength(30);
		expect(sandbox.stats.tokenCalls).toBe(1);
		expect(engine.storedToken).toBe(sandbox.issuedTokens.at(-1));
		const bearer = sandbox.requestLog.filter((entry) => entry.route !== 'POST /api/Auth/Token').map((entry) => entry.headers.authorization);
		expect(new Set(bearer)).toEqual(new Set([`Bearer ${engine.storedToken}`]));
	});

	it('reuses the stored token in later executions', async () => {
		for (let run = 0; run < 5; run++) {
			const result = await ctx.engine.runNode(getDevice, { items: [{}, {}, {}, {}] });
			expect(result.error).toBeUndefined();
		}
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
	});

	it('fetches exactly one new token after the old one is revoked, for all items in flight', async () => {
		await ctx.engine.runNode(getDevice);
		const tokenCallsBefore = ctx.sandbox.stats.tokenCalls;
		ctx.sandbox.revokeTokens();

		const items = Array.from({ length: 20 }, () => ({}));
		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { maxConcurrency: 8 } }, { items });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(20);
		expect(ctx.sandbox.stats.tokenCalls - tokenCallsBefore).toBe(1);
	});

	it('renews once per refused token, so a request survives a second revocation during its retries', async () => {
		await ctx.engine.runNode(getDevice);
		ctx.sandbox.resetStats();
		ctx.sandbox.faults.inject({ match: { path: '/api/devices/device001' }, kind: 'status', status: 401, message: 'Invalid or expired token.', times: 2 });

		const result = await ctx.engine.runNode(getDevice);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ id: 'device001' });
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
	});

	it('gives up with a clear error when the service refuses a fresh token again, after two renewals', async () => {
		await ctx.engine.runNode(getDevice);
		ctx.sandbox.resetStats();
		ctx.sandbox.faults.inject({ match: { path: '/api/devices/device001' }, kind: 'status', status: 401, message: 'Invalid or expired token.' });

		const result = await ctx.engine.runNode(getDevice);
		ctx.sandbox.faults.clear();

		expect(result.error?.message).toBe('The tracking API refuses this call with a fresh token: Invalid or expired token.');
		expect(ctx.sandbox.stats.tokenCalls).toBe(2);
	});

	it('fetches a new token once the stored one has expired, before any request is refused', async () => {
		await ctx.engine.runNode(getDevice);
		const data = ctx.engine.credentials.read('cred-sandbox');
		ctx.engine.credentials.save({
			id: 'cred-sandbox',
			name: 'Sandbox',
			type: 'satelliteTrackingApi',
			data: { ...data, tokenExpires: new Date(Date.now() - 1000).toISOString() },
		});
		ctx.sandbox.resetStats();

		await ctx.engine.runNode(getDevice);

		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
		expect(ctx.sandbox.stats.statusCounts['401']).toBeUndefined();
	});

	it.each([200, 401])('shows the vendor text when the key is refused with status %i, once per run', async (status) => {
		ctx.sandbox.setOptions({ tokenFailureStatus: status });
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: 'not-the-key' });

		const result = await ctx.engine.runNode(getDevice, { items: [{}, {}, {}], continueOnFail: true });

		expect(result.items.map((item) => item.json.error)).toEqual(
			Array(3).fill('Authentication failed: Invalid API key or username.'),
		);
		expect(ctx.sandbox.stats.tokenCalls).toBe(1);
		ctx.sandbox.setOptions({ tokenFailureStatus: 401 });
	});

	it.each([
		['without a scheme', (url: string) => url.replace(/^https?:\/\//, ''), /is not a web address: start it with https:\/\//],
		['ending in /api', (url: string) => `${url}/api/`, /no API route for POST \/api\/api\/Auth\/Token\. The Base URL ends in \/api: leave that out/],
	])('says what to change in a Base URL %s, and calls nothing past the token', async (_, edit, advice) => {
		ctx.engine.setCredential({ baseUrl: edit(ctx.sandbox.url), userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const result = await ctx.engine.runNode(getDevice, { items: [{}, {}], continueOnFail: true });
		expect(result.items).toHaveLength(2);
		for (const item of result.items) expect(String(item.json.error)).toMatch(advice);
		expect(ctx.sandbox.stats.statusCounts['200']).toBeUndefined();
	});

	it('stops the node with the vendor text when Continue On Fail is off', async () => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: 'nobody@example.com', apiKey: DEMO_API_KEY });
		const result = await ctx.engine.runNode(getDevice);
		expect(result.items).toHaveLength(0);
		expect(result.error?.message).toBe('Authentication failed: Invalid API key or username.');
	});

	it('works with a base URL that carries a path prefix', async () => {
		const prefixed = await import('../../sandbox/server').then(({ startSandbox }) => startSandbox({ port: 0, basePath: '/tracking' }));
		try {
			const engine = new Engine({ baseUrl: `${prefixed.url}/`, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			const result = await engine.runNode(getDevice);
			expect(result.items[0].json).toMatchObject({ id: 'device001' });
			expect(prefixed.requestLog.every((entry) => entry.rawPath.startsWith('/tracking/api/'))).toBe(true);
		} finally {
			await prefixed.close();
		}
	});
});
