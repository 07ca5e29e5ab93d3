/**
 * Shared pieces of the reliability suite: its size, the watch for leaked secrets that spans every
 * area (R3), what counts as an error message a person understands, and the one-line summaries.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { LoggerProxy } from 'n8n-workflow';

import { DEMO_API_KEY, type Sandbox } from '../../sandbox/server';
import type { NodeRunResult } from '../support/engine';
import { useSandbox, type Sandboxed } from '../support/sandboxed';

/** `RELIABILITY_SIZE=full` (npm run test:reliability) runs the figures docs/reliability.md quotes. */
export const FULL = process.env.RELIABILITY_SIZE === 'full';

export const sized = <T>(reduced: T, full: T): T => (FULL ? full : reduced);

export const SIZE_NAME = FULL ? 'full' : 'reduced';

/** Seconds since `start`, for the summaries. */
export const secondsSince = (start: number) => ((Date.now() - start) / 1000).toFixed(1);

/** Wall time of one area (a describe block), from its beforeAll, for its summary line. */
export function areaWallClock(): () => string {
	let started = Date.now();
	beforeAll(() => {
		started = Date.now();
	});
	return () => secondsSince(started);
}

/** One line per area, printed where jest shows console output. */
export function summary(line: string): void {
	console.log(`${line} [size=${SIZE_NAME}]`);
}

// --- R3: secrets ------------------------------------------------------------------------------

/**
 * Every text the suite can see — output items, error messages and descriptions, serialized
 * errors, run data, trigger output and state, log lines — is scanned for the API key, every token
 * a sandbox issued and the passwords the suite wrote. Texts are scanned when they are produced
 * (a token issued later cannot be in them); log lines are scanned at the end.
 */
class SecretWatch {
	private readonly sandboxes: Sandbox[] = [];

	private readonly extraSecrets = new Set<string>([DEMO_API_KEY]);

	private readonly logLines: string[] = [];

	texts = 0;

	bytes = 0;

	outputItems = 0;

	errors = 0;

	readonly leaks: string[] = [];

	private installed = false;

	watchSandbox(sandbox: Sandbox): void {
		this.sandboxes.push(sandbox);
	}

	/** Another value that must never be shown: a user's password, another API key. */
	addSecret(secret: string): void {
		this.extraSecrets.add(secret);
	}

	secrets(): string[] {
		return [...this.extraSecrets, ...this.sandboxes.flatMap((sandbox) => sandbox.issuedTokens)];
	}

	/** Routes n8n's logger and the nodes' context logger (this.logger) into the watch. */
	captureLogs(): void {
		if (this.installed) return;
		this.installed = true;
		const capture = (message: unknown, meta?: unknown) => this.logLines.push(`${String(message)} ${safeJson(meta ?? {})}`);
		const logger = { error: capture, warn: capture, info: capture, debug: capture, verbose: capture, scoped: () => logger };
		LoggerProxy.init(logger as never);
		Container.set(Logger, logger as never);
	}

	scan(where: string, value: unknown): void {
		const text = typeof value === 'string' ? value : safeJson(value);
		this.texts++;
		this.bytes += text.length;
		for (const secret of this.secrets()) {
			if (secret !== '' && text.includes(secret)) this.leaks.push(`${where}: ${secret.slice(0, 12)}…`);
		}
	}

	/** Everything a node run shows: items, the stopping error and the run data n8n keeps. */
	scanRun(where: string, result: NodeRunResult): void {
		this.outputItems += result.items.length;
		const errorItems = result.items.filter((item) => item.json.error !== undefined).length;
		this.errors += errorItems + (result.error ? 1 : 0);
		this.scan(`${where} items`, result.items);
		if (result.error) {
			this.scan(`${where} error`, [result.error.message, result.error.description, result.error, errorDetails(result.error)]);
		}
		this.scan(`${where} run data`, result.run.data.resultData);
	}

	scanError(where: string, error: unknown): void {
		this.errors++;
		const shaped = error as { message?: unknown; description?: unknown };
		this.scan(where, [shaped?.message, shaped?.description, error, errorDetails(error)]);
	}

	scanLogs(): number {
		for (const line of this.logLines) this.scan('log', line);
		return this.logLines.length;
	}
}

export const secretWatch = new SecretWatch();

function safeJson(value: unknown): string {
	const seen = new WeakSet<object>();
	try {
		return (
			JSON.stringify(value, (_key, entry: unknown) => {
				if (typeof entry === 'object' && entry !== null) {
					if (seen.has(entry)) return '[circular]';
					seen.add(entry);
				}
				return typeof entry === 'bigint' ? String(entry) : entry;
			}) ?? String(value)
		);
	} catch {
		return String(value);
	}
}

/** An error's own fields, which JSON.stringify of an Error leaves out (message, stack, cause). */
function errorDetails(error: unknown): unknown {
	if (typeof error !== 'object' || error === null) return error;
	const own = Object.getOwnPropertyNames(error).map((name) => [name, (error as Record<string, unknown>)[name]]);
	const cause = (error as { cause?: unknown }).cause;
	return { own: Object.fromEntries(own), cause: cause === undefined ? undefined : errorDetails(cause), text: String(error) };
}

// --- readable errors --------------------------------------------------------------------------

const READABLE_ERRORS: RegExp[] = [
	// A status with the vendor's own text.
	/^The tracking API answered \d{3}: \S.{2,}$/,
	// A status that came without any text.
	/^The tracking API answered \d{3} without saying why$/,
	// A status whose body was a proxy's HTML page.
	/^The tracking API answered \d{3} with an HTML page instead of JSON/,
	// No answer: the network explanation, with the address tried.
	/^Could not get an answer from the tracking API at https?:\/\/\S+: (the connection was reset|no answer came within the timeout|the connection was refused|the connection was closed while sending)$/,
	// An answer the node cannot use, said in words.
	/^The tracking API answer(ed)? .*(object|list|has no|without|not an? ).*/,
	// A call the service refuses whatever the token.
	/^The tracking API refuses this call with a fresh token(: \S.{2,})?$/,
	// The vendor's text of a success:false answer.
	/^[A-Z][^[\]{}]{3,}\.$/,
];

/** A message a person understands: no "[object Object]", nothing empty, one of the known forms. */
export function isReadableError(message: unknown): boolean {
	if (typeof message !== 'string' || message.trim() === '') return false;
	if (/\[object \w+\]|undefined|null$/.test(message)) return false;
	return READABLE_ERRORS.some((pattern) => pattern.test(message));
}

/** A sandbox whose tokens the secrets check watches, with faults and records cleared before each case. */
export function useWatchedSandbox(): Sandboxed {
	const ctx = useSandbox();
	beforeAll(() => secretWatch.watchSandbox(ctx.sandbox));
	beforeEach(() => {
		ctx.sandbox.faults.clear();
		ctx.sandbox.resetStats();
	});
	return ctx;
}
