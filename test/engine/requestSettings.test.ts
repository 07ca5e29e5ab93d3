/**
 * Request Settings as both nodes read them, from expressions too; what the service's usage
 * counters tell the user after a run; and what the error texts never show.
 */
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { TOKEN_PATH } from '../../nodes/shared/wire';
import { byId, jsonOf, useSandbox } from '../support/sandboxed';

const getDevice = { resource: 'device', operation: 'get', deviceId: byId('device001') };

describe('Request Settings from expressions', () => {
	const ctx = useSandbox();

	beforeEach(() => ctx.sandbox.resetStats());

	it.each([
		['maxConcurrency', 'Max Concurrent Requests'],
		['requestsPerMinute', 'Max Requests per Minute'],
		['timeoutSeconds', 'Timeout (Seconds)'],
		['maxRetries', 'Max Retries'],
	])('the action node refuses %s "abc" by name, before any request', async (name, label) => {
		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { [name]: '={{ "abc" }}' } }, { items: [{}, {}] });

		expect(result.error?.message).toBe(`Invalid "${label}": ${label} must be a number (got "abc")`);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it.each(['={{ "abc" }}', '={{ -1 }}', '={{ {} }}', '={{ [1] }}'])(
		'under Continue On Fail, a bad Daily Request Limit (%s) gives each input one error item, not its input back',
		async (value) => {
			const result = await ctx.engine.runNode(
				{ ...getDevice, requestSettings: { dailyRequestLimit: value } },
				{ items: [{ a: 1 }, { a: 2 }, { a: 3 }], continueOnFail: true },
			);

			// n8n's own fallback passed the input items through unchanged, which reads downstream as success.
			expect(jsonOf(result.items)).toEqual(
				[0, 1, 2].map(() => ({ error: expect.stringMatching(/^Invalid "Daily Request Limit": Daily Request Limit must be /) })),
			);
			expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(ctx.sandbox.stats.requests).toBe(0);
		},
	);

	it('the action node takes numbers written as text', async () => {
		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { maxConcurrency: '={{ "2" }}', timeoutSeconds: '={{ "5" }}' } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
	});

	it.each([
		['maxConcurrency', 'Max Concurrent Requests'],
		['requestsPerMinute', 'Max Requests per Minute'],
		['timeoutSeconds', 'Timeout (Seconds)'],
		['maxRequestsPerPoll', 'Max Requests per Poll'],
	])('the trigger refuses %s "abc" by name, before any request', async (name, label) => {
		const poll = ctx.engine.poll({ events: ['locationUpdated'], requestSettings: { [name]: '={{ "abc" }}' } }, {});

		await expect(poll).rejects.toThrow(`Invalid "${label}": ${label} must be a number (got "abc")`);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});
});

describe('usage counters after a run', () => {
	const ctx = useSandbox();

	const hintsOf = (run: Awaited<ReturnType<typeof ctx.engine.runNode>>) => run.run.data.resultData.runData.Node[0].hints ?? [];

	it("shows the account's newest counters as an execution hint", async () => {
		const result = await ctx.engine.runNode(getDevice, { items: [{}, {}, {}] });

		const newest = ctx.sandbox.requestLog.length; // every call so far counted, token calls included
		expect(hintsOf(result)).toEqual([
			{
				message: expect.stringMatching(/^The tracking service counts \d+ API calls today for this account, \d+ in all\.$/),
				location: 'outputPane',
			},
		]);
		const [, today] = /counts (\d+) API calls today/.exec(hintsOf(result)[0].message)!;
		expect(Number(today)).toBe(newest);
	});

	it('warns once the day nears the Daily Request Limit entered', async () => {
		const result = await ctx.engine.runNode({ ...getDevice, requestSettings: { dailyRequestLimit: 5, dailyLimitWarnShare: 0.5 } });

		expect(hintsOf(result)).toEqual([
			expect.objectContaining({ type: 'warning', message: expect.stringContaining('Near the daily limit') }),
		]);
	});
});

describe('secrets in the service error texts', () => {
	const ctx = useSandbox();

	beforeEach(() => {
		ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		ctx.sandbox.faults.clear();
	});

	const leaks = (text: string) => [DEMO_API_KEY, ...ctx.sandbox.issuedTokens].filter((secret) => text.includes(secret));

	it('takes the token out of an API error that quotes the request', async () => {
		ctx.sandbox.faults.inject({ match: { path: '/api/devices/device001' }, kind: 'status', status: 400, echoRequest: true });

		const items = await ctx.engine.runNode(getDevice, { continueOnFail: true });
		const thrown = await ctx.engine.runNode(getDevice);

		const texts = JSON.stringify([jsonOf(items.items), thrown.error?.message, thrown.error?.description]);
		expect(texts).toContain('Authorization: Bearer [redacted]');
		expect(leaks(texts)).toEqual([]);
	});

	it('takes the API key out of a token refusal that quotes the request body, in runs and in the credential Test', async () => {
		ctx.sandbox.faults.inject({ match: { path: TOKEN_PATH }, kind: 'status', status: 401, message: 'Invalid API key or username.', echoRequest: true });

		const run = await ctx.engine.runNode(getDevice, { continueOnFail: true });
		const test = await ctx.engine.testCredential({ ...ctx.engine.credentials.read('cred-sandbox') });

		const texts = JSON.stringify([jsonOf(run.items), test]);
		expect(texts).toContain('[redacted]');
		expect(texts).toContain('Invalid API key or username.');
		expect(leaks(texts)).toEqual([]);
		expect(test.status).toBe('Error');
	});
});
