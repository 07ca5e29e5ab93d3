import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { Engine } from './engine';

export interface Sandboxed {
	sandbox: Sandbox;
	engine: Engine;
}

/** A sandbox server and an engine with a credential for it, shared by the tests of one file. */
export function useSandbox(options: SandboxOptions = {}): Sandboxed {
	const context = {} as Sandboxed;
	beforeAll(async () => {
		context.sandbox = await startSandbox({ port: 0, ...options });
		context.engine = new Engine({ baseUrl: context.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	});
	afterAll(async () => {
		await context.sandbox?.close();
	});
	return context;
}

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

export const fromItem = (field: string) => byId(`={{ $json.${field} }}`);

export const jsonOf = (items: Array<{ json: object }>) => items.map((item) => item.json as Record<string, unknown>);
