/** What startSandbox accepts, and the defaults. */
import { DEMO_API_KEY, DEMO_USER_NAME, type Account } from './auth';
import type { RateLimit } from './rateLimit';

export interface RuntimeOptions {
	/** Default 3600. */
	tokenLifetimeSeconds: number;
	/** Status of a failed token call; the body says success:false either way. Default 401. */
	tokenFailureStatus: number;
	/** Per account, sliding window; null for none (default). */
	rateLimit: RateLimit | null;
	/** Send Retry-After with a rate-limit 429. Default true. */
	retryAfterHeader: boolean;
	/** Added before every API answer. Default 0. */
	latencyMs: number;
	/** The sandbox's notion of now: token expiry, timestamps, seeded and moved tracks. Default real time. */
	clock: () => Date;
	/** Default: the demo account alone. Replacing a key here invalidates the old one at once. */
	accounts: Account[];
	/** Entries kept in requestLog (newest). Default 10000. */
	requestLogLimit: number;
}

export interface StartOptions {
	/** Default 0: any free port. */
	port: number;
	/** Default 127.0.0.1. */
	host: string;
	/** A path prefix the API lives under, e.g. `/tracking`. Default none. */
	basePath: string;
	/** Seeds data, tracks and fault probabilities. Default 1. */
	seed: number;
	/** Default 24. */
	deviceCount: number;
	/** Default 30. */
	userCount: number;
	/** Serve HTTPS with this key and certificate (PEM). */
	https?: { key: string | Buffer; cert: string | Buffer };
	/** Larger request bodies get 413. Default 5 MiB. */
	maxBodyBytes: number;
}

export type SandboxOptions = Partial<StartOptions & RuntimeOptions>;

export const RUNTIME_DEFAULTS: RuntimeOptions = {
	tokenLifetimeSeconds: 3600,
	tokenFailureStatus: 401,
	rateLimit: null,
	retryAfterHeader: true,
	latencyMs: 0,
	clock: () => new Date(),
	accounts: [{ userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY }],
	requestLogLimit: 10_000,
};

export const START_DEFAULTS: StartOptions = {
	port: 0,
	host: '127.0.0.1',
	basePath: '',
	seed: 1,
	deviceCount: 24,
	userCount: 30,
	maxBodyBytes: 5 * 1024 * 1024,
};

const RUNTIME_KEYS = Object.keys(RUNTIME_DEFAULTS) as Array<keyof RuntimeOptions>;

/** Keeps only the runtime options, dropping undefined so a partial never erases a default. */
export function runtimePart(options: Partial<RuntimeOptions>): Partial<RuntimeOptions> {
	return Object.fromEntries(
		RUNTIME_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
	) as Partial<RuntimeOptions>;
}
