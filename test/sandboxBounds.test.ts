import { MAX_LOGGED_BODY_BYTES } from '../sandbox/http';
import { RUNTIME_DEFAULTS } from '../sandbox/options';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox } from '../sandbox/server';

/** One small request must not knock the sandbox over (issue 24): it answers 4xx and keeps serving. */
describe('sandbox bounds', () => {
	let sandbox: Sandbox;
	let token: string;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		const answer = await post('/api/Auth/Token', { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		token = ((await answer.json()) as { token: string }).token;
	});
	afterAll(async () => await sandbox?.close());

	const send = (method: string, path: string, body: string | undefined, root = sandbox.url) =>
		fetch(`${root}${path}`, {
			method,
			headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
			body,
		});
	const post = (path: string, body: unknown, root?: string) => send('POST', path, JSON.stringify(body), root);
	const errorOf = async (answer: Response) => ((await answer.json()) as { error: string }).error;

	it('POST /__sandbox/move {"minutes": 1e9} answers 400 naming the bound, and the sandbox still serves', async () => {
		const answer = await post('/__sandbox/move', { minutes: 1e9 });
		expect(answer.status).toBe(400);
		expect(await errorOf(answer)).toContain('at most 10080');
		const moved = await post('/__sandbox/move', { minutes: 10 });
		expect(moved.status).toBe(200);
	});

	it('POST /__sandbox/move counts a repeated device id once and answers 400 beyond 100000 fixes', async () => {
		const repeated = await post('/__sandbox/move', { minutes: 10080, deviceIds: Array(1000).fill('device001') });
		expect(repeated.status).toBe(200);
		expect(await repeated.json()).toEqual({ ok: true, moved: { device001: 2016 } });
		const many = await startSandbox({ port: 0, deviceCount: 100 });
		try {
			const before = many.store.locations('device001')!.length;
			const answer = await post('/__sandbox/move', { minutes: 10080 }, many.rootUrl);
			expect(answer.status).toBe(400);
			expect(await errorOf(answer)).toMatch(/at most 100000 fixes per request .*; \d+ devices over 10080 minutes would add \d+\./);
			expect(many.store.locations('device001')!.length).toBe(before);
		} finally {
			await many.close();
		}
	});

	it('answers 413, not 500, for a control-route body over 50 MiB', async () => {
		const answer = await send('POST', '/__sandbox/fixes', 'x'.repeat(50 * 1024 * 1024 + 1), sandbox.rootUrl);
		expect(answer.status).toBe(413);
		expect(await errorOf(answer)).toBe('The request body exceeds 52428800 bytes.');
		expect((await fetch(`${sandbox.rootUrl}/__sandbox/stats`)).status).toBe(200);
	});

	it('refuses a hugeBody fault of more than 256 MiB with 400 instead of failing every matching request later', async () => {
		try {
			const answer = await post('/__sandbox/faults', { kind: 'hugeBody', sizeBytes: 1e12 }, sandbox.rootUrl);
			expect(answer.status).toBe(400);
			expect(await errorOf(answer)).toBe('sizeBytes must be a whole number of bytes from 0 to 268435456 (256 MiB).');
			expect(sandbox.faults.list()).toEqual([]);
		} finally {
			sandbox.faults.clear();
		}
	});

	it.each([
		[{ kind: 'status', status: 99999 }, 'status must be an HTTP status from 200 to 599.'],
		[{ kind: 'html', status: 'abc' }, 'status must be an HTTP status from 200 to 599.'],
		[{ kind: 'status', status: 100 }, 'status must be an HTTP status from 200 to 599.'],
		[{ kind: 'status', status: 429, retryAfter: 'a\nb' }, 'retryAfter must be seconds, a number from 0 to'],
		[{ kind: 'slow', delayMs: 1e12 }, 'delayMs must be milliseconds from 0 to 2147483647.'],
		[{ kind: 'status', match: { method: 5 } }, 'match must be { method?: text, path?: text, pathPattern?: a regular expression }.'],
		[{ kind: 'status', match: 'x' }, 'match must be { method?: text, path?: text, pathPattern?: a regular expression }.'],
		[{ kind: 'status', times: 0 }, 'times must be a whole number, 1 or more.'],
		[{ kind: 'status', probability: 'x' }, 'probability must be a number from 0 to 1.'],
		[{ kind: 'status', message: { a: 1 } }, 'message must be text.'],
		[{ kind: 'dropListed', ids: 'abc' }, 'ids must be an array of texts.'],
		[{ kind: 'status', afterApply: 'yes' }, 'afterApply must be true or false.'],
		[{ kind: 'slow', ms: 1e12 }, 'Unknown fault field "ms"'],
		[{ kind: 'status', constructor: 1 }, 'Unknown fault field "constructor"'],
	])('refuses POST /__sandbox/faults %j with 400 instead of failing every matching request with a 500 later', async (fault, error) => {
		try {
			const answer = await post('/__sandbox/faults', fault, sandbox.rootUrl);
			expect(await errorOf(answer)).toContain(error);
			expect(answer.status).toBe(400);
			expect(sandbox.faults.list()).toEqual([]);
			expect((await send('GET', '/api/groups', undefined)).status).toBe(200);
		} finally {
			sandbox.faults.clear();
		}
	});

	it('takes back a fault as GET /__sandbox/faults lists it (times: null for no end)', async () => {
		try {
			const answer = await post('/__sandbox/faults', { kind: 'status', status: 503, times: null, retryAfter: 0, match: { method: 'GET', path: '/api/groups' } }, sandbox.rootUrl);
			expect(answer.status).toBe(200);
			expect((await send('GET', '/api/groups', undefined)).status).toBe(503);
			expect((await send('GET', '/api/groups', undefined)).status).toBe(503);
		} finally {
			sandbox.faults.clear();
		}
	});

	it.each([
		[{ clock: 'x' }, 'Unknown option "clock"'],
		[{ accounts: 5 }, 'accounts must be an array of { userName, apiKey } strings.'],
		[{ accounts: [{ userName: 'a' }] }, 'accounts must be an array of { userName, apiKey } strings.'],
		[{ latencyMs: 1e12 }, 'latencyMs must be milliseconds from 0 to 600000.'],
		[{ rateLimit: { requests: 0, windowMs: 1000 } }, 'rateLimit must be null or'],
		[{ tokenLifetimeSeconds: 'soon' }, 'tokenLifetimeSeconds must be a whole number of seconds, 1 or more.'],
		[{ constructor: 1 }, 'Unknown option "constructor"'],
	])('refuses POST /__sandbox/options %j with 400, and API calls still work', async (options, error) => {
		try {
			const answer = await post('/__sandbox/options', options, sandbox.rootUrl);
			expect(answer.status).toBe(400);
			expect(await errorOf(answer)).toContain(error);
			const tokenCall = await post('/api/Auth/Token', { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			expect(tokenCall.status).toBe(200);
			expect((await send('GET', '/api/devices', undefined)).status).toBe(200);
		} finally {
			sandbox.setOptions(RUNTIME_DEFAULTS);
		}
	});

	describe.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])('a field named %s', (field) => {
		const withField = (body: Record<string, unknown>) => `${JSON.stringify(body).slice(0, -1)},"${field}":1}`;
		const user = { name: 'N', email: `${field}@example.com`, country: 'US', timeZone: 'Europe/London' };

		it.each([
			['POST', '/api/groups', withField({ name: 'G' }), 'group'],
			['PUT', '/api/groups/grp-1', withField({ name: 'G' }), 'group'],
			['PATCH', '/api/groups/grp-1', JSON.stringify([{ op: 'add', path: `/${field}`, value: 1 }]), 'group'],
			['POST', '/api/users', withField(user), 'user'],
			['PUT', '/api/users/usr-1', withField(user), 'user'],
			['PATCH', '/api/users/usr-1', JSON.stringify([{ op: 'add', path: `/${field}`, value: 1 }]), 'user'],
			['POST', '/api/devices/device001/sendCommand', withField({ command: 'reboot' }), 'command request'],
		])('in %s %s answers 400 naming it as unknown', async (method, path, body, what) => {
			const answer = await send(method, `${path}?${field}=1`, body);
			expect(await errorOf(answer)).toBe(`Unknown field "${field}" in the ${what}.`);
			expect(answer.status).toBe(400);
		});

		it('in a submitted location answers 400 naming it as unknown', async () => {
			const range = { from: '2024-01-01T00:00:00Z', to: '2024-01-02T00:00:00Z' };
			const location = { dateTime: '2024-01-01T12:00:00Z', latitude: 1, longitude: 2 };
			const answer = await send('POST', '/api/devices/device001/locations', `{"from":"${range.from}","to":"${range.to}","location":${withField(location)}}`);
			expect(await errorOf(answer)).toBe(`Unknown field "${field}" in the location.`);
			expect(answer.status).toBe(400);
		});
	});

	it('refuses a body nested more than 64 levels deep with 400, and its request log still serialises', async () => {
		const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
		const answer = await send('PATCH', '/api/groups/grp-1', `[{"op":"add","path":"/description","value":${deep}}]`);
		expect(answer.status).toBe(400);
		expect(await errorOf(answer)).toBe('The request body nests arrays and objects more than 64 levels deep.');
		const sunk = await send('POST', '/__sink/deep', deep, sandbox.rootUrl);
		expect(sunk.status).toBe(200);
		for (const log of ['requests', 'sink']) {
			const read = await fetch(`${sandbox.rootUrl}/__sandbox/${log}`);
			expect(read.status).toBe(200);
		}
		const shallow = await send('PATCH', '/api/groups/grp-1', JSON.stringify([{ op: 'add', path: '/description', value: 'a [{ "]" } string' }]));
		expect(shallow.status).toBe(200);
	});

	it('logs a body over 64 KiB by its size only, so large requests cannot fill its memory through the request log', async () => {
		// 400 fuzzed requests of up to 5 MB each once took the 256 MiB sandbox down when its log was read.
		const large = JSON.stringify({ name: 'x'.repeat(MAX_LOGGED_BODY_BYTES) });
		await send('POST', '/api/groups', large);
		expect(sandbox.requestLog.at(-1)?.body).toBe(`(${Buffer.byteLength(large)} bytes, over the ${MAX_LOGGED_BODY_BYTES} the log keeps)`);
		const small = { name: 'Kept whole' };
		await post('/api/groups', small);
		expect(sandbox.requestLog.at(-1)?.body).toEqual(small);
	});

	it('refuses a patch of more than 1000 operations with 400 naming the limit', async () => {
		const test = { op: 'test', path: '/id', value: 'grp-1' };
		expect((await send('PATCH', '/api/groups/grp-1', JSON.stringify(Array(1000).fill(test)))).status).toBe(200);
		const answer = await send('PATCH', '/api/groups/grp-1', JSON.stringify(Array(1001).fill(test)));
		expect(answer.status).toBe(400);
		expect(await errorOf(answer)).toBe('A patch may have at most 1000 operations; this one has 1001.');
	});
});
