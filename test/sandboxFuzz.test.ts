/**
 * The sandbox as `npm run sandbox` runs it, its own process, fed what a new user's typo or a broken
 * client may send (issue 24): it never dies and never answers 500 for the caller's mistake. The
 * process gets a small heap, so a request that would exhaust memory kills it in seconds.
 *
 * The fuzz is seeded: SANDBOX_FUZZ_SEED=<n> replays (or explores) a run; a failure names its seed.
 */
import { Agent } from 'undici';
import { startSandboxProcess, type SandboxProcess } from '../bench/sandboxProcess';
import { MAX_PATCH_ADDED_BYTES } from '../sandbox/jsonPatch';
import { Rng } from '../sandbox/random';
import { ROUTES, type Route } from '../sandbox/router';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../sandbox/server';

const SEED = Number(process.env.SANDBOX_FUZZ_SEED ?? 24);
const FUZZ_REQUESTS = 400;
const MAX_BODY_BYTES = 5 * 1024 * 1024;

interface Reply {
	status: number;
	text: string;
}

// A connection per request: under load a kept-alive socket can meet the server's 5 s idle close
// as it is reused ("other side closed"), which says nothing about the sandbox.
const agent = new Agent({ pipelining: 0 });
let sandbox: SandboxProcess;
let origin: string;
let token: string;

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
	const answer = await agent.request({
		origin,
		path,
		method: method as 'GET',
		headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${token}`, ...headers },
		body,
	});
	return { status: answer.statusCode, text: await answer.body.text() };
}

/** A fresh process per block: one that a block knocks over must not fail the next block too. */
function sandboxProcessPerBlock(): void {
	beforeAll(async () => {
		sandbox = await startSandboxProcess({ maxHeapMb: 256 });
		origin = new URL(sandbox.url).origin;
		const answer = await call('POST', '/api/Auth/Token', JSON.stringify({ userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY }));
		token = JSON.parse(answer.text).token;
	});
	afterAll(async () => await sandbox?.close());
}

afterAll(async () => await agent.close());

async function expectServing(): Promise<void> {
	expect({ alive: sandbox.isAlive(), stderr: sandbox.stderrTail() }).toEqual({ alive: true, stderr: expect.any(String) });
	const devices = await call('GET', '/api/devices');
	expect(devices.status).toBe(200);
	expect(JSON.parse(devices.text).devices.length).toBeGreaterThan(0);
}

describe('a JSON Patch that doubles the document 40 times', () => {
	sandboxProcessPerBlock();
	const forty = (operation: object) => JSON.stringify(Array(40).fill(operation));

	it.each([
		['a group, its devices copied into themselves', '/api/groups/grp-1', forty({ op: 'copy', from: '/devices', path: '/devices/-' })],
		['a group, copied whole into itself', '/api/groups/grp-1', forty({ op: 'copy', from: '', path: '/devices/-' })],
		['a user, its privileges copied into themselves', '/api/users/usr-1', forty({ op: 'copy', from: '/privileges', path: '/privileges/-' })],
		['a user, copied whole into itself', '/api/users/usr-1', forty({ op: 'copy', from: '', path: '/privileges/-' })],
	])('on %s answers 400 naming the limit; the resource is unchanged and the sandbox serves', async (_what, path, patch) => {
		expect(patch.length).toBeLessThan(3000);
		const before = await call('GET', path);
		const answer = await call('PATCH', path, patch);
		expect(answer.status).toBe(400);
		expect(JSON.parse(answer.text).error).toContain(`a patch may add at most ${MAX_PATCH_ADDED_BYTES} bytes of JSON`);
		expect(JSON.parse((await call('GET', path)).text)).toMatchObject({ ...JSON.parse(before.text), apiUsage: expect.any(Number), apiDailyUsage: expect.any(Number) });
		await expectServing();
	});
});

describe(`fuzzing every API route (seed ${SEED})`, () => {
	sandboxProcessPerBlock();
	it(`answers ${FUZZ_REQUESTS} malformed, huge and prototype-named requests without a 500 or a crash`, async () => {
		const rng = new Rng(SEED);
		const failures: string[] = [];
		for (let i = 0; i < FUZZ_REQUESTS; i++) {
			// Round-robin first, so every route is hit whatever the seed draws.
			const route = i < ROUTES.length * 4 ? ROUTES[i % ROUTES.length] : rng.pick(ROUTES);
			const request = fuzzRequest(rng, route);
			let reply: Reply;
			try {
				reply = await call(request.method, request.path, request.body, request.headers);
			} catch (error) {
				failures.push(`#${i} ${summary(request)}: no answer (${error.message}); the process is ${sandbox.isAlive() ? 'alive' : `dead:\n${sandbox.stderrTail()}`}`);
				break;
			}
			if (reply.status >= 500 || !isEnvelope(reply.text)) {
				failures.push(`#${i} ${summary(request)}: ${reply.status} ${reply.text.slice(0, 300)}`);
			}
		}
		expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
		await expectServing();
		// The ground truth stays readable: a 200,000-deep body once made the request log unserialisable.
		expect((await sandbox.requestTimes()).length).toBeGreaterThan(0);
		const { byRoute } = await sandbox.stats();
		expect(ROUTES.filter((route) => !byRoute[route.key]).map((route) => route.key)).toEqual([]);
		// About 20 s on an idle core; beside the zone matrix's other workers on a cold 2-core machine, 110 s.
	}, 240_000);
});

interface FuzzRequest {
	method: string;
	path: string;
	body?: string;
	headers: Record<string, string>;
}

function summary(request: FuzzRequest): string {
	const body = request.body === undefined ? '' : ` body ${request.body.length > 200 ? `${request.body.slice(0, 200)}… (${request.body.length} chars)` : request.body}`;
	return `${request.method} ${request.path.slice(0, 120)}${body} headers ${JSON.stringify(request.headers)} (seed ${SEED})`;
}

function isEnvelope(text: string): boolean {
	try {
		const json = JSON.parse(text);
		return typeof json === 'object' && json !== null && typeof json.success === 'boolean';
	} catch {
		return false;
	}
}

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function fuzzRequest(rng: Rng, route: Route): FuzzRequest {
	const path = route.segments.map((segment) => (segment.startsWith('{') ? fuzzId(rng) : segment)).join('/');
	const query = rng.chance(0.3) ? `?${PROTOTYPE_NAMES.map((name) => `${name}=${rng.pick(['1', '', '%zz', '[]'])}`).join('&')}` : '';
	const headers: Record<string, string> = {};
	if (rng.chance(0.08)) headers.authorization = rng.pick(['', 'Bearer', 'Bearer constructor', 'Basic ZGVtbzprZXk=', `Bearer ${'x'.repeat(5000)}`]);
	if (rng.chance(0.05)) headers['content-type'] = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']);
	return {
		method: rng.chance(0.9) ? route.method : rng.pick(METHODS),
		path: `/${path}${query}`,
		body: fuzzBody(rng, route),
		headers,
	};
}

function fuzzId(rng: Rng): string {
	return rng.pick([
		() => rng.pick(['device001', 'device002', 'grp-1', 'grp-2', 'usr-1', 'usr-2']),
		() => rng.pick(PROTOTYPE_NAMES),
		() => rng.pick(['%zz', '%E0%A4%A', '..%2F..%2Fapi%2Fusers', '%00', encodeURIComponent('a/b?c#d'), '%F0%9F%9B%B0']),
		// Below Node's 16 KiB header limit, which answers 431 before the sandbox sees the request.
		() => 'x'.repeat(rng.int(1000, 12_000)),
	])();
}

function fuzzBody(rng: Rng, route: Route): string | undefined {
	const kinds: Array<() => string | undefined> = [
		() => undefined,
		() => rng.pick(['{', '{"a":', 'nul', '[1,]', '\u0000', '{"name":"\ud800"}', '"', '{}}', '1e999999']),
		() => rng.pick(['1', '"x"', 'null', 'true', '[]', '{}', '-0', '1e308']),
		() => JSON.stringify(prototypeKeyed(rng, validBody(route))),
		() => deep(rng.int(65, 50_000)),
		() => JSON.stringify(mutated(rng, validBody(route))),
		() => JSON.stringify(mutated(rng, validBody(route))),
		() => JSON.stringify(fuzzPatch(rng)),
		() => JSON.stringify(fuzzPatch(rng)),
		() => JSON.stringify({ ...(validBody(route) as object), name: 'n'.repeat(1024 * 1024) }),
	];
	// A body over the 5 MiB limit costs the fuzz ~100 ms: a handful per run is enough.
	if (rng.chance(0.01)) return `{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`;
	return rng.pick(kinds)();
}

function deep(depth: number): string {
	return `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
}

const RANGE = { from: '2024-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' };

function validBody(route: Route): unknown {
	if (route.path.endsWith('/locations')) return { ...RANGE, location: { dateTime: '2024-05-01T12:00:00Z', latitude: 1, longitude: 2 } };
	if (route.path.endsWith('/alerts')) return { ...RANGE, alertName: 'SpeedLimit' };
	if (route.path.endsWith('/sendCommand')) return { command: '0A 1B', format: 'Hex', sms: false };
	if (route.path.startsWith('/api/groups')) return route.method === 'PATCH' ? fuzzPatchOf('/name') : { name: 'Fuzz', devices: ['device001'] };
	if (route.path.startsWith('/api/users')) {
		if (route.method === 'PATCH') return fuzzPatchOf('/description');
		return { name: 'Fuzz', email: 'fuzz@example.com', country: 'US', timeZone: 'Europe/London' };
	}
	if (route.path === '/api/Auth/Token') return { userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY };
	return {};
}

const fuzzPatchOf = (path: string) => [{ op: 'replace', path, value: 'Fuzzed' }];

/** The body with its prototype's names as own members, as JSON.parse makes them. */
function prototypeKeyed(rng: Rng, body: unknown): Record<string, unknown> {
	const keyed: Record<string, unknown> = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body } : {};
	const name = rng.pick(PROTOTYPE_NAMES);
	Object.defineProperty(keyed, name, { value: rng.pick([1, null, {}, { polluted: true }, 'x']), enumerable: true, writable: true, configurable: true });
	if (rng.chance(0.5)) keyed.location = { ...(keyed.location as object), [rng.pick(PROTOTYPE_NAMES)]: 1 };
	return keyed;
}

/** One member of a valid body set to something it must not be. */
function mutated(rng: Rng, body: unknown): unknown {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
	const keys = Object.keys(body);
	if (keys.length === 0) return { [rng.pick(PROTOTYPE_NAMES)]: 1 };
	return { ...body, [rng.pick(keys)]: fuzzValue(rng) };
}

function fuzzValue(rng: Rng): unknown {
	return rng.pick<() => unknown>([
		() => null,
		() => rng.pick([-1, 0, 1e308, -1e308, 0.5, 2 ** 53 + 1]),
		() => rng.pick(['', ' ', 'not a date', '9999-99-99T99:99:99Z', 'ZZ', 'Not/AZone', '0G', '=', '\u0000']),
		() => rng.pick([true, false]),
		() => [rng.pick([1, 'x', null, {}])],
		() => ({ [rng.pick(PROTOTYPE_NAMES)]: 'x' }),
		() => 'y'.repeat(rng.int(10_000, 200_000)),
	])();
}

const POINTERS = ['', '/', '/name', '/devices', '/devices/-', '/devices/0', '/devices/01', '/devices/99999999999999999999', '/tags', '/tags/a~1b', '/privileges/-', '/~2', '/id', '/__proto__', '/constructor/prototype', '/toString', 'name'];

function fuzzPatch(rng: Rng): unknown {
	return Array.from({ length: rng.int(1, 60) }, () =>
		rng.pick<() => unknown>([
			() => ({ op: rng.pick(['add', 'replace', 'test']), path: rng.pick(POINTERS), value: fuzzValue(rng) }),
			() => ({ op: 'remove', path: rng.pick(POINTERS) }),
			() => ({ op: rng.pick(['copy', 'move']), from: rng.pick(POINTERS), path: rng.pick(POINTERS) }),
			() => ({ op: rng.pick(['copy', 'move', 'add', 'nope', 'constructor', '__proto__']), path: rng.pick([1, null, ...POINTERS]) }),
			() => rng.pick([null, 1, 'op', [], {}]),
		])(),
	);
}
