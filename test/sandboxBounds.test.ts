import { startSandbox, type Sandbox } from '../sandbox/server';

/** One small request must not knock the sandbox over (issue 24): it answers 4xx and keeps serving. */
describe('sandbox bounds', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	afterAll(async () => await sandbox?.close());

	it('POST /__sandbox/move {"minutes": 1e9} answers 400 naming the bound, and the sandbox still serves', async () => {
		const answer = await fetch(`${sandbox.url}/__sandbox/move`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ minutes: 1e9 }),
		});
		expect(answer.status).toBe(400);
		expect(((await answer.json()) as { error: string }).error).toContain('at most 10080');
		const moved = await fetch(`${sandbox.url}/__sandbox/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"minutes": 10}' });
		expect(moved.status).toBe(200);
	});
});
