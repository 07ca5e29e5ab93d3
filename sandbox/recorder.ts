/**
 * Ground truth for tests and benches: what reached the sandbox, what it answered and which writes it
 * applied — to compare with what a client believes it did.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PathParam } from './vendorApi';
import type { FaultKind } from './faults';

export interface SandboxStats {
	tokenCalls: number;
	/** Every API request, token calls and unknown routes included (control and sink routes excluded). */
	requests: number;
	/** Keyed by route template, e.g. `GET /api/devices/{deviceId}/lastLocation`; `unmatched` for the rest. */
	byRoute: Record<string, number>;
	/** Keyed by status code; `reset` for connections dropped without an answer. */
	statusCounts: Record<string, number>;
	/** Every 429 sent, from the rate limit or an injected fault. */
	tooManyRequests: number;
	faultsApplied: number;
}

export interface LoggedRequest extends Partial<Record<PathParam, string>> {
	method: string;
	rawPath: string;
	/** Decoded, without the base path. */
	path: string;
	/** The route template key, or null when no route matched. */
	route: string | null;
	/** 0 when the connection was reset. */
	status: number;
	/** Epoch milliseconds (real time) when the request arrived. */
	at: number;
	body: unknown;
	headers: IncomingHttpHeaders;
	fault?: FaultKind;
}

export type WriteKind = 'create' | 'put' | 'patch' | 'delete' | 'submitLocation' | 'sendCommand';

export interface AppliedWrite {
	kind: WriteKind;
	resource: 'group' | 'user' | 'location' | 'command';
	/** The group, user or device id. */
	id: string;
	/** The request body as received. */
	body: unknown;
	/** What the sandbox stored (a user's password read back as null). */
	stored?: unknown;
	at: number;
}

export interface SinkEntry {
	method: string;
	/** The path after `/__sink`, e.g. `/chat`. */
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	at: number;
}

export const UNMATCHED_ROUTE = 'unmatched';

export class Recorder {
	readonly stats: SandboxStats = emptyStats();
	readonly requestLog: LoggedRequest[] = [];
	readonly writes: AppliedWrite[] = [];
	readonly sink: SinkEntry[] = [];

	constructor(private readonly requestLogLimit: () => number) {}

	/** Counts the request and logs it; the entry's status is filled in when it is answered. */
	arrival(entry: LoggedRequest, isTokenCall: boolean): LoggedRequest {
		this.stats.requests++;
		if (isTokenCall) this.stats.tokenCalls++;
		const route = entry.route ?? UNMATCHED_ROUTE;
		this.stats.byRoute[route] = (this.stats.byRoute[route] ?? 0) + 1;
		this.requestLog.push(entry);
		// Benches send 100k+ requests; keep the newest only.
		if (this.requestLog.length > this.requestLogLimit()) this.requestLog.shift();
		return entry;
	}

	answered(entry: LoggedRequest, status: number | 'reset'): void {
		entry.status = status === 'reset' ? 0 : status;
		const key = String(status);
		this.stats.statusCounts[key] = (this.stats.statusCounts[key] ?? 0) + 1;
		if (status === 429) this.stats.tooManyRequests++;
	}

	faultApplied(entry: LoggedRequest, kind: FaultKind): void {
		entry.fault = kind;
		this.stats.faultsApplied++;
	}

	write(write: Omit<AppliedWrite, 'at'>): void {
		this.writes.push({ ...write, at: Date.now() });
	}

	sunk(entry: SinkEntry): void {
		this.sink.push(entry);
	}

	/** Empties in place, so references tests hold stay live. */
	reset(): void {
		Object.assign(this.stats, emptyStats());
		this.requestLog.length = 0;
		this.writes.length = 0;
		this.sink.length = 0;
	}
}

function emptyStats(): SandboxStats {
	return { tokenCalls: 0, requests: 0, byRoute: {}, statusCounts: {}, tooManyRequests: 0, faultsApplied: 0 };
}
