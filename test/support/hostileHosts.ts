/**
 * Servers that attack the transport from the network, for the security tests: a front for the
 * sandbox that answers chosen routes with a redirect or by quoting the request back, and a catcher
 * on another origin that records whatever reaches it.
 */
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import type { KeyAndCert } from '../../sandbox/tls';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	body: string;
}

/**
 * How the front answers one route instead of the sandbox: a redirect, a 400 quoting the whole
 * request as JSON, or an error whose text it writes from the request (as other encoders quote it).
 */
export type FrontAnswer = { redirect: number; location: string } | 'quoteRequest' | { status: number; error: (request: ReceivedRequest) => string };

export interface FrontRule {
	method: string;
	/** The request path, query left out. */
	path: string;
	answer: FrontAnswer;
}

export interface HostileServer {
	url: string;
	/** What reached this server, in order. */
	received: ReceivedRequest[];
	close(): Promise<void>;
}

export interface Front extends HostileServer {
	/** Routes answered by the front itself; every other request goes on to the sandbox. */
	rules: FrontRule[];
}

interface ServerOptions {
	/** Default 127.0.0.1. */
	host?: string;
	/** Serve HTTPS with this key and certificate. */
	https?: KeyAndCert;
}

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}

async function serve(
	options: ServerOptions,
	handle: (request: ReceivedRequest, response: ServerResponse) => void,
): Promise<HostileServer> {
	const received: ReceivedRequest[] = [];
	const listener = (request: IncomingMessage, response: ServerResponse) => {
		void readBody(request).then((body) => {
			const entry = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
			received.push(entry);
			handle(entry, response);
		});
	};
	const server: Server = options.https ? createHttpsServer(options.https, listener) : createHttpServer(listener);
	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `${options.https ? 'https' : 'http'}://${host}:${port}`,
		received,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

/** Records every request and answers each as a service would that accepts anything. */
export function startCatcher(options: ServerOptions = {}): Promise<HostileServer> {
	return serve(options, (_request, response) => sendJson(response, 200, { success: true, token: 'caught-token-0001', device: { id: 'caught' } }));
}

/** Stands in front of the sandbox at `sandboxUrl` (plain HTTP): answers the routes of `rules` itself, forwards the rest. */
export async function startFront(sandboxUrl: string, options: ServerOptions = {}): Promise<Front> {
	const rules: FrontRule[] = [];
	const target = new URL(sandboxUrl);
	const server = await serve(options, (request, response) => {
		const path = request.path.replace(/\?.*$/, '');
		const rule = rules.find((candidate) => candidate.method === request.method && candidate.path === path);
		if (rule?.answer === 'quoteRequest') {
			// A service (or proxy) that says what it refused by quoting the whole request.
			sendJson(response, 400, { success: false, error: `Bad request: ${JSON.stringify({ headers: request.headers, body: request.body })}` });
			return;
		}
		const answer = rule?.answer;
		if (typeof answer === 'object' && 'error' in answer) {
			sendJson(response, answer.status, { success: false, error: answer.error(request) });
			return;
		}
		if (typeof answer === 'object') {
			response.writeHead(answer.redirect, { location: answer.location, 'content-type': 'application/json' });
			response.end(JSON.stringify({ success: false, error: 'Moved' }));
			return;
		}
		const forwarded = httpRequest(
			{ host: target.hostname, port: target.port, method: request.method, path: request.path, headers: { ...request.headers, host: target.host } },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		forwarded.on('error', () => sendJson(response, 502, { success: false, error: 'The front could not reach the sandbox' }));
		forwarded.end(request.body);
	});
	return { ...server, rules };
}
