/**
 * The sandbox tracking server: the whole wire contract (docs/api-contract.md) over real HTTP(S),
 * with seeded data, fault injection, rate limits and ground-truth records for tests.
 *
 *   const sandbox = await startSandbox({ port: 0 });
 *   // base URL for a credential: sandbox.url; user DEMO_USER_NAME, key DEMO_API_KEY
 *   await sandbox.close();
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Location } from './vendorApi';
import { SandboxApp } from './app';
import type { FaultInjector } from './faults';
import { START_DEFAULTS, type RuntimeOptions, type SandboxOptions, type StartOptions } from './options';
import type { AppliedWrite, LoggedRequest, SandboxStats, SinkEntry } from './recorder';
import type { MoveRequest, SandboxStore } from './store';

export { DEMO_API_KEY, DEMO_USER_NAME, type Account } from './auth';
export type { Fault, FaultKind, FaultSpec } from './faults';
export type { RuntimeOptions, SandboxOptions, StartOptions } from './options';
export type { RateLimit } from './rateLimit';
export type { AppliedWrite, LoggedRequest, SandboxStats, SinkEntry } from './recorder';
export type { SeedFacts } from './seed';
export type { AlertInput, FixInput, MoveRequest, SandboxStore, SentCommand } from './store';

export interface Sandbox {
	/** Base URL including the base path, without a trailing slash, e.g. `http://127.0.0.1:54321/tracking`. */
	url: string;
	/** The server's root URL, where `/__sandbox/...` and `/__sink/...` also answer. */
	rootUrl: string;
	port: number;
	store: SandboxStore;
	faults: FaultInjector;
	/** Live objects: they keep changing as requests arrive. */
	readonly stats: SandboxStats;
	readonly requestLog: LoggedRequest[];
	readonly issuedTokens: string[];
	readonly writes: AppliedWrite[];
	readonly sink: SinkEntry[];
	/** The runtime options now in force. */
	readonly options: Readonly<RuntimeOptions>;
	/** Empties stats, requestLog, writes and sink (issued tokens are kept). */
	resetStats(): void;
	/** Every token issued so far becomes invalid: the next call with one gets 401. */
	revokeTokens(): void;
	moveDevices(request: MoveRequest): Record<string, Location[]>;
	setOptions(partial: Partial<RuntimeOptions>): void;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const start: StartOptions = { ...START_DEFAULTS, ...definedOnly(options) };
	const app = new SandboxApp(start, options);
	const server: Server = start.https
		? createHttpsServer({ key: start.https.key, cert: start.https.cert }, (req, res) => void app.handle(req, res))
		: createHttpServer((req, res) => void app.handle(req, res));
	// Longer than any client's own keep-alive (undici's 4 s, n8n's request helper's): a client then
	// always drops an idle socket first, and never sends on one the sandbox just closed (which a busy
	// machine turned into "fetch failed" with Node's default of 5 s).
	server.keepAliveTimeout = 65_000;
	await listen(server, start.port, start.host);
	const { port } = server.address() as AddressInfo;
	const rootUrl = `${start.https ? 'https' : 'http'}://${hostForUrl(start.host)}:${port}`;
	return {
		url: `${rootUrl}${normalizeBasePath(start.basePath)}`,
		rootUrl,
		port,
		store: app.store,
		faults: app.faults,
		get stats() {
			return app.recorder.stats;
		},
		requestLog: app.recorder.requestLog,
		issuedTokens: app.tokens.issued,
		writes: app.recorder.writes,
		sink: app.recorder.sink,
		options: app.options,
		resetStats: () => app.resetStats(),
		revokeTokens: () => app.tokens.revokeAll(),
		moveDevices: (request) => app.store.moveDevices(request),
		setOptions: (partial) => app.setOptions(partial),
		close: () => close(server, app),
	};
}

function listen(server: Server, port: number, host: string): Promise<void> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
}

/** Keep-alive sockets and pending delays would otherwise hold the process (and jest) open. */
function close(server: Server, app: SandboxApp): Promise<void> {
	app.cancelTimers();
	return new Promise((resolve, reject) => {
		server.close((error) => (error ? reject(error) : resolve()));
		server.closeAllConnections();
	});
}

function normalizeBasePath(basePath: string): string {
	const trimmed = basePath.replace(/\/+$/, '');
	return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function hostForUrl(host: string): string {
	return host.includes(':') ? `[${host}]` : host;
}

function definedOnly<T extends object>(options: T): Partial<T> {
	return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
