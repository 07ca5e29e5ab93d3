/**
 * The ceiling: a bare undici keep-alive pool with as many connections as the node's concurrency,
 * doing the same calls (one token call, then the job's requests) with nothing else in the way: no
 * engine, no expressions, no retries, no pacing. The fastest any client could go against the sandbox.
 */
import { Pool } from 'undici';

import { DEMO_API_KEY, DEMO_USER_NAME } from '../sandbox/server';
import type { PathParams } from '../nodes/shared/transport';
import { fillPath } from '../nodes/shared/transport/client';
import { ENDPOINTS, TOKEN_PATH, type EndpointName } from '../nodes/shared/wire';

export interface RawCall {
	method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
	path: string;
	body?: unknown;
}

/** A call as the nodes would make it: method and path from the wire module, ids encoded alike. */
export function rawCall(name: EndpointName, params: PathParams = {}, body?: unknown): RawCall {
	const endpoint = ENDPOINTS[name];
	return { method: endpoint.method, path: fillPath(endpoint.path, params), body };
}

/** The route key the sandbox counts a call under, e.g. `GET /api/users`. */
export function routeKey(name: EndpointName): string {
	return `${ENDPOINTS[name].method} ${ENDPOINTS[name].path}`;
}

/** The demo account's token exchange, done bare. `prefix` is the base URL's path. */
export async function rawToken(pool: Pool, prefix: string): Promise<string> {
	const answer = await pool.request({
		method: 'POST',
		path: `${prefix}${TOKEN_PATH}`,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY }),
	});
	return ((await answer.body.json()) as { token: string }).token;
}

export interface RawRun {
	wallMs: number;
	/** Requests answered 2xx, token call excluded. */
	ok: number;
	/** Answers by status, token call excluded. */
	statuses: Record<string, number>;
	/** Requests sent, token call included. */
	requests: number;
}

export async function rawRun(baseUrl: string, calls: RawCall[], concurrency: number): Promise<RawRun> {
	const url = new URL(baseUrl);
	const prefix = url.pathname.replace(/\/+$/, '');
	const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1 });
	const statuses: Record<string, number> = {};
	let ok = 0;
	const started = performance.now();
	try {
		const token = await rawToken(pool, prefix);
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		let next = 0;
		const worker = async () => {
			while (next < calls.length) {
				const call = calls[next++];
				const answer = await pool.request({
					method: call.method,
					path: `${prefix}${call.path}`,
					headers,
					body: call.body === undefined ? undefined : JSON.stringify(call.body),
				});
				await answer.body.json();
				statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
				if (answer.statusCode >= 200 && answer.statusCode < 300) ok++;
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, calls.length)) }, worker));
		return { wallMs: performance.now() - started, ok, statuses, requests: calls.length + 1 };
	} finally {
		await pool.close();
	}
}
