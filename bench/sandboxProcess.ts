/**
 * The sandbox as its own process, driven through its control routes. The benched client then has
 * the event loop to itself, as it would against the real service, and the server gets the other
 * core: what the ratios compare is clients, not a client sharing a thread with its server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';

import type { LoggedRequest, RuntimeOptions, SandboxStats } from '../sandbox/server';

export interface SandboxProcessOptions {
	devices?: number;
	users?: number;
	latencyMs?: number;
	/** `{ requests, windowMs }`: the account's quota, answered with 429 beyond it. */
	rateLimit?: { requests: number; windowMs: number };
	/** Keep this many newest entries in the request log (sliding-window counts need all of them). */
	requestLogLimit?: number;
	/** V8's old-space limit in MiB: a request that would exhaust memory then kills the process in seconds, not minutes. */
	maxHeapMb?: number;
}

export interface SandboxProcess {
	/** Base URL for a credential. */
	url: string;
	stats(): Promise<SandboxStats>;
	/** Arrival time, route and status of each logged request (bodies and headers dropped). */
	requestTimes(): Promise<Array<Pick<LoggedRequest, 'at' | 'route' | 'status'>>>;
	resetStats(): Promise<void>;
	revokeTokens(): Promise<void>;
	/** Appends `minutes` of fixes to every device that has reported. */
	moveDevices(minutes: number): Promise<void>;
	setOptions(options: Partial<Pick<RuntimeOptions, 'accounts' | 'latencyMs' | 'rateLimit' | 'requestLogLimit' | 'retryAfterHeader'>>): Promise<void>;
	/** Adds a device, and a history to it. */
	addDevice(device: { id: string; name: string }): Promise<void>;
	addFixes(deviceId: string, locations: object[]): Promise<void>;
	/** False once the process has exited, however it exited. */
	isAlive(): boolean;
	/** The last few KiB it wrote to stderr: why it died, when it did. */
	stderrTail(): string;
	close(): Promise<void>;
}

const ROOT = join(__dirname, '..');

/** Sandboxes still running; killed when this process exits, however it exits. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) child.kill('SIGKILL');
});
const READY = /^SANDBOX_READY (\S+)/;
const STDERR_TAIL_CHARS = 4_096;

export async function startSandboxProcess(options: SandboxProcessOptions = {}): Promise<SandboxProcess> {
	const heap = options.maxHeapMb === undefined ? [] : [`--max-old-space-size=${options.maxHeapMb}`];
	const args = [...heap, '--import', 'tsx', join(ROOT, 'sandbox', 'cli.ts'), '--port', '0'];
	if (options.devices !== undefined) args.push('--devices', String(options.devices));
	if (options.users !== undefined) args.push('--users', String(options.users));
	if (options.latencyMs) args.push('--latency', String(options.latencyMs));
	if (options.rateLimit) args.push('--rate-limit', `${options.rateLimit.requests}/${options.rateLimit.windowMs}`);
	// Its stderr is kept, not shared: jest kills a worker whose stderr reads "heap out of memory" (as
	// a sandbox on a small heap may print), and reported that as "terminated by another process".
	const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
	running.add(child);
	child.once('exit', () => running.delete(child));
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS)));
	const url = await readyUrl(child, () => stderr);
	const root = new URL(url).origin;

	const control = async <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> => {
		const answer = await request(`${root}/__sandbox/${path}`, {
			method,
			headers: body ? { 'content-type': 'application/json' } : {},
			body: body ? JSON.stringify(body) : undefined,
		});
		const json = (await answer.body.json()) as T;
		if (answer.statusCode !== 200) throw new Error(`Sandbox control ${method} ${path} answered ${answer.statusCode}: ${JSON.stringify(json)}`);
		return json;
	};

	const sandbox: SandboxProcess = {
		url,
		stats: () => control<SandboxStats>('GET', 'stats'),
		requestTimes: async () =>
			(await control<LoggedRequest[]>('GET', 'requests')).map(({ at, route, status }) => ({ at, route, status })),
		resetStats: async () => void (await control('POST', 'reset-stats')),
		revokeTokens: async () => void (await control('POST', 'revoke-tokens')),
		moveDevices: async (minutes) => void (await control('POST', 'move', { minutes })),
		setOptions: async (runtime) => void (await control('POST', 'options', runtime)),
		addDevice: async (device) => void (await control('POST', 'devices', { device })),
		addFixes: async (deviceId, locations) => void (await control('POST', 'fixes', { deviceId, locations })),
		isAlive: () => child.exitCode === null && child.signalCode === null,
		stderrTail: () => stderr,
		close: () => stop(child),
	};
	if (options.requestLogLimit !== undefined) await sandbox.setOptions({ requestLogLimit: options.requestLogLimit });
	return sandbox;
}

function readyUrl(child: ChildProcess, stderr: () => string): Promise<string> {
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		const onExit = (code: number | null) => reject(new Error(`The sandbox process exited (${code}) before it was ready:\n${stderr()}`));
		child.once('exit', onExit);
		lines.on('line', (line) => {
			const match = READY.exec(line);
			if (!match) return;
			child.off('exit', onExit);
			lines.close();
			// Keep draining its stdout so the child never blocks on a full pipe.
			child.stdout!.resume();
			resolve(match[1]);
		});
	});
}

function stop(child: ChildProcess): Promise<void> {
	// A sandbox that died of a signal (its small heap exhausted) has no exit code: waiting for an exit already past would hang.
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		child.once('exit', () => resolve());
		child.kill('SIGTERM');
	});
}
