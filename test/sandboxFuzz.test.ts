/**
 * The sandbox as `npm run sandbox` runs it, its own process, fed what a new user's typo or a broken
 * client may send (issue 24): it never dies and never answers 500 for the caller's mistake. The
 * process gets a small heap, so a request that would exhaust memory kills it in seconds.
 */
import { Agent } from 'undici';
import { startSandboxProcess, type SandboxProcess } from '../bench/sandboxProcess';
import { MAX_PATCH_ADDED_BYTES } from '../sandbox/jsonPatch';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../sandbox/server';

interface Reply {
	status: number;
	text: string;
}

const agent = new Agent();
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
	expect(sandbox.isAlive()).toBe(true);
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
