import { LoggerProxy, type INodeParameters } from 'n8n-workflow';

import { RequestPacer } from '../../nodes/shared/transport/pacer';
import { DEMO_API_KEY } from '../../sandbox/server';
import { byId, fromItem, jsonOf, useSandbox } from '../support/sandboxed';

const lastLocationOf = (ids: string[], settings: INodeParameters = {}) => ({
	parameters: { resource: 'device', operation: 'getLastLocation', deviceId: fromItem('id'), requestSettings: settings },
	items: ids.map((id) => ({ id })),
});

describe('transport behaviour in the engine', () => {
	const ctx = useSandbox();
	beforeEach(() => {
		ctx.sandbox.faults.clear();
		ctx.sandbox.setOptions({ rateLimit: null });
		ctx.sandbox.resetStats();
	});

	it('keeps input order and pairing with concurrent requests', async () => {
		const ids = ctx.sandbox.store.listDevices().map((device) => device.id).filter((id) => id !== ctx.sandbox.store.facts.neverReportedDeviceId);
		ctx.sandbox.setOptions({ latencyMs: 5 });
		const { parameters, items } = lastLocationOf(ids, { maxConcurrency: 6 });
		const result = await ctx.engine.runNode(parameters, { items });
		ctx.sandbox.setOptions({ latencyMs: 0 });
		expect(jsonOf(result.items).map((fix) => fix.deviceId)).toEqual(ids);
		expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	});

	it('finishes a batch under a request quota: 429s slow the node down instead of failing items', async () => {
		ctx.sandbox.setOptions({ rateLimit: { requests: 20, windowMs: 1000 } });
		const ids = Array.from({ length: 60 }, (_, index) => `device00${(index % 9) + 1}`);
		// More under way at once than the quota allows in its window: the first requests alone draw
		// 429s, however slow a loaded machine makes each of them (with 8, a CI run drew none).
		const { parameters, items } = lastLocationOf(ids, { maxConcurrency: 25 });
		const result = await ctx.engine.runNode(parameters, { items });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(60);
		expect(result.items.every((item) => item.json.error === undefined)).toBe(true);
		expect(ctx.sandbox.stats.tooManyRequests).toBeGreaterThan(0);
	});

	it('retries a 503 and a connection reset on reads', async () => {
		ctx.sandbox.faults.inject({ match: { path: /lastLocation$/ }, kind: 'status', status: 503, retryAfter: 0, times: 1 });
		ctx.sandbox.faults.inject({ match: { path: /lastLocation$/ }, kind: 'reset', times: 1 });
		const { parameters, items } = lastLocationOf(['device001']);
		const result = await ctx.engine.runNode(parameters, { items });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ deviceId: 'device001', latitude: expect.any(Number) });
		expect(ctx.sandbox.stats.byRoute['GET /api/devices/{deviceId}/lastLocation']).toBe(3);
	});

	it('never resends a write whose answer was lost, and says so', async () => {
		ctx.sandbox.faults.inject({ match: { path: /sendCommand$/ }, kind: 'reset', afterApply: true, times: 1 });
		const result = await ctx.engine.runNode(
			{ resource: 'device', operation: 'sendCommand', deviceId: byId('device002'), command: 'REBOOT' },
			{ continueOnFail: true },
		);
		expect(ctx.sandbox.writes.filter((write) => write.kind === 'sendCommand')).toHaveLength(1);
		expect(result.items[0].json.error).toBe(
			`Could not get an answer from the tracking API at ${ctx.sandbox.url}/api/devices/device002/sendCommand: the connection was reset`,
		);
	});

	it('learns a quota only from a 429 that says when to come back; others just slow it down for a while', async () => {
		// Learning from a 429 without Retry-After took a made-up 1 s span and compounded with each
		// such 429: a 10,000-item run under a steady trickle of them would never end.
		const throttled = jest.spyOn(RequestPacer.prototype, 'throttled');
		try {
			for (const retryAfter of [undefined, 0, 1]) {
				ctx.sandbox.faults.inject({ match: { path: /lastLocation$/ }, kind: 'status', status: 429, retryAfter, times: 1 });
			}
			const { parameters, items } = lastLocationOf(['device001']);
			const result = await ctx.engine.runNode(parameters, { items });
			expect(result.error).toBeUndefined();
			expect(throttled.mock.calls.map(([, overQuota]) => overQuota)).toEqual([false, false, true]);
		} finally {
			throttled.mockRestore();
		}
	});

	it('retries a 429 on a write: the service did not process it', async () => {
		ctx.sandbox.faults.inject({ match: { path: /sendCommand$/ }, kind: 'status', status: 429, retryAfter: 0, times: 2 });
		const result = await ctx.engine.runNode({ resource: 'device', operation: 'sendCommand', deviceId: byId('device002'), command: 'REBOOT' });
		expect(result.error).toBeUndefined();
		expect(ctx.sandbox.writes.filter((write) => write.kind === 'sendCommand')).toHaveLength(1);
	});

	it.each([
		['an HTML error page', { kind: 'html' as const, status: 502 }, 'The tracking API answered 502 with an HTML page instead of JSON (often a proxy or gateway error)'],
		['success:false with status 200', { kind: 'successFalse200' as const, message: 'Device is locked.' }, 'Device is locked.'],
		['a 200 that is not JSON', { kind: 'nonJson200' as const }, 'The tracking API answered something other than a JSON object where an object was expected'],
		['a JSON array instead of an object', { kind: 'arrayBody' as const }, 'The tracking API answered a list where an object was expected'],
		['an answer without its payload', { kind: 'missingPayload' as const }, 'The tracking API answer has no "device"'],
	])('turns %s into a clear error', async (_, fault, message) => {
		ctx.sandbox.faults.inject({ match: { path: /^\/api\/devices\/device001$/ }, ...fault });
		const result = await ctx.engine.runNode(
			{ resource: 'device', operation: 'get', deviceId: byId('device001'), requestSettings: { maxRetries: 1 } },
			{ continueOnFail: true },
		);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.error).toBe(message);
	});

	it.each(['../users', 'a/b?x=1#frag', '%2e%2e', 'name with spaces', 'ünïcødé/ü'])(
		'sends the id %p encoded, so it reaches the device route and nothing else',
		async (id) => {
			const result = await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId(id) }, { continueOnFail: true });
			// The id as the user typed it, not as it was encoded into the path.
			expect(result.items[0].json.error).toBe(`The tracking API answered 404: Device not found. (device id "${id}")`);
			const seen = ctx.sandbox.requestLog.filter((entry) => entry.route !== 'POST /api/Auth/Token');
			expect(seen).toHaveLength(1);
			expect(seen[0]).toMatchObject({ route: 'GET /api/devices/{deviceId}', deviceId: id });
		},
	);

	it.each(['..', '.', '  '])('refuses the id %p, which cannot travel in a path', async (id) => {
		const result = await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId(id) }, { continueOnFail: true });
		expect(result.items[0].json.error).toMatch(/^Invalid "Device" in item 0: Device (cannot be|is empty)/);
		expect(ctx.sandbox.stats.requests).toBe(0);
	});

	it('with Continue On Fail, yields exactly one item per input, errors where they belong', async () => {
		const ids = ['device001', 'missing-1', 'device002', '..', 'device003'];
		const { parameters, items } = lastLocationOf(ids);
		const result = await ctx.engine.runNode(parameters, { items, continueOnFail: true });
		expect(result.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(result.items.map((item) => (item.json.error ? 'error' : item.json.deviceId))).toEqual([
			'device001',
			'error',
			'device002',
			'error',
			'device003',
		]);
	});

	it('without Continue On Fail, stops at the first failing item and names it', async () => {
		const { parameters, items } = lastLocationOf(['device001', 'device002', '..']);
		const result = await ctx.engine.runNode(parameters, { items });
		expect(result.error?.message).toBe('Invalid "Device" in item 2: Device cannot be ".."');
		expect(result.error?.context?.itemIndex).toBe(2);
	});

	it('never shows the API key or a token in output, errors or logs', async () => {
		const logged: string[] = [];
		const capture = (message: string, meta?: object) => logged.push(`${message} ${JSON.stringify(meta ?? {})}`);
		LoggerProxy.init({ error: capture, warn: capture, info: capture, debug: capture } as never);
		ctx.sandbox.faults.inject({ match: { path: /device003$/ }, kind: 'status', status: 500, message: 'Internal failure.' });
		ctx.sandbox.faults.inject({ match: { path: /device004$/ }, kind: 'reset' });
		ctx.sandbox.revokeTokens();
		const results = [
			await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: fromItem('id'), requestSettings: { maxRetries: 1 } }, {
				items: [{ id: 'device001' }, { id: 'device003' }, { id: 'device004' }, { id: 'nope' }],
				continueOnFail: true,
			}),
			await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId('device003'), requestSettings: { maxRetries: 0 } }),
		];
		const everything = JSON.stringify([
			results.map((result) => result.items),
			results.map((result) => [result.error?.message, result.error?.description, result.error, result.run.data.resultData]),
			logged,
		]);
		expect(everything).toContain('Internal failure.');
		for (const secret of [DEMO_API_KEY, ...ctx.sandbox.issuedTokens]) {
			expect(everything).not.toContain(secret);
		}
	});
});
