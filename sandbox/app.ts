/**
 * The request pipeline: control routes aside, every API request is logged, may meet an injected
 * fault, is authenticated and rate-limited, handled, wrapped in the envelope and delayed by latencyMs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Envelope, TokenAnswer, TokenRequest } from './vendorApi';
import { ApiError, badRequest } from './apiError';
import { TokenIssuer, UsageCounters, type Usage } from './auth';
import { handleControl, locateControl, type ControlledApp } from './control';
import { FaultInjector, faultOutcome, strikesAfterProcessing, type Fault } from './faults';
import { RESET, bodyForLog, jsonAnswer, parseJson, readBody, send, type Answer, type Outcome } from './http';
import { RUNTIME_DEFAULTS, runtimePart, type RuntimeOptions, type StartOptions } from './options';
import { RateLimiter } from './rateLimit';
import { Recorder, type LoggedRequest } from './recorder';
import {
	basePathSegments,
	decodeSegments,
	matchRoute,
	splitTarget,
	withoutBasePath,
	type RequestTarget,
	type RouteMatch,
} from './router';
import { HANDLERS } from './routes';
import { SandboxStore } from './store';
import { isRecord } from './validation';

interface ApiRequest {
	request: IncomingMessage;
	method: string;
	target: RequestTarget;
	/** Decoded path without the base path; the raw path when it could not be decoded or is outside the base. */
	path: string;
	match?: RouteMatch;
	rawBody: Buffer;
	/** Set when the request cannot be served at all (bad escape, outside the base path, body too large). */
	rejection?: ApiError;
}

export class SandboxApp implements ControlledApp {
	readonly options: RuntimeOptions;
	readonly store: SandboxStore;
	readonly faults: FaultInjector;
	readonly recorder: Recorder;
	readonly tokens: TokenIssuer;
	private readonly usage: UsageCounters;
	private readonly limiter = new RateLimiter();
	private readonly base: string[];
	private readonly timers = new Set<NodeJS.Timeout>();

	constructor(
		private readonly start: StartOptions,
		runtime: Partial<RuntimeOptions>,
	) {
		this.options = { ...RUNTIME_DEFAULTS, ...runtimePart(runtime) };
		this.base = basePathSegments(start.basePath);
		this.store = new SandboxStore({
			seed: start.seed,
			deviceCount: start.deviceCount,
			userCount: start.userCount,
			now: this.now,
		});
		this.faults = new FaultInjector(start.seed);
		this.recorder = new Recorder(() => this.options.requestLogLimit);
		this.tokens = new TokenIssuer(() => this.options, this.now);
		this.usage = new UsageCounters(this.now);
	}

	readonly now = (): number => this.options.clock().getTime();

	setOptions(partial: Partial<RuntimeOptions>): void {
		Object.assign(this.options, runtimePart(partial));
		if ('rateLimit' in partial) this.limiter.reset();
	}

	resetStats(): void {
		this.recorder.reset();
	}

	async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		try {
			await this.route(request, response);
		} catch (error) {
			if (!response.headersSent && !response.destroyed) {
				send(response, jsonAnswer(500, { success: false, error: `Sandbox failure: ${error.message}` }));
			}
		}
	}

	/** Pending latency and slow-fault timers; cleared on close so test runners can exit. */
	cancelTimers(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const target = splitTarget(request.url ?? '/');
		const decoded = decodePath(target.rawPath);
		const control = decoded.segments && locateControl(decoded.segments, this.base);
		if (control) return handleControl(this, control, request, response, target.query);
		await this.serveApi(response, await this.readApiRequest(request, target, decoded));
	}

	private async readApiRequest(request: IncomingMessage, target: RequestTarget, decoded: DecodedPath): Promise<ApiRequest> {
		const method = request.method ?? 'GET';
		const routeSegments = decoded.segments && withoutBasePath(decoded.segments, this.base);
		let rejection = decoded.rejection;
		let rawBody: Buffer = Buffer.alloc(0);
		try {
			rawBody = await readBody(request, this.start.maxBodyBytes);
		} catch (error) {
			rejection ??= error instanceof ApiError ? error : badRequest('The request body could not be read.');
		}
		if (!routeSegments) rejection ??= new ApiError(404, 'Not found: outside the API base path.');
		return {
			request,
			method,
			target,
			path: routeSegments ? `/${routeSegments.join('/')}` : target.rawPath,
			match: routeSegments && matchRoute(method, routeSegments),
			rawBody,
			rejection,
		};
	}

	private async serveApi(response: ServerResponse, api: ApiRequest): Promise<void> {
		const entry = this.logArrival(api);
		const fault = this.faults.take({ method: api.method, path: api.path, routePath: api.match?.route.path });
		if (fault) this.recorder.faultApplied(entry, fault.kind);
		if (fault?.kind === 'slow') await this.delay(fault.delayMs ?? 5000);
		const outcome = this.outcome(api, fault);
		await this.delay(this.options.latencyMs);
		this.deliver(api.request, response, outcome, entry);
	}

	private outcome(api: ApiRequest, fault: Fault | undefined): Outcome {
		if (!fault || fault.kind === 'slow') return this.process(api);
		const echoed = { authorization: api.request.headers.authorization, body: api.rawBody.toString('utf8') };
		if (!strikesAfterProcessing(fault)) return faultOutcome(fault, undefined, echoed);
		return faultOutcome(fault, this.process(api), echoed);
	}

	private logArrival(api: ApiRequest): LoggedRequest {
		return this.recorder.arrival(
			{
				method: api.method,
				rawPath: api.target.rawPath,
				path: api.path,
				route: api.match?.route.key ?? null,
				...api.match?.params,
				status: 0,
				at: Date.now(),
				body: bodyForLog(api.rawBody),
				headers: api.request.headers,
			},
			api.match?.route.name === 'token',
		);
	}

	private process(api: ApiRequest): Answer {
		if (api.rejection) return failure(api.rejection);
		const { match } = api;
		if (!match) return failure(new ApiError(404, `Not found: no API route for ${api.method} ${api.path}.`));
		if (match.route.name === 'token') return this.issueToken(api);
		const userName = this.tokens.verify(api.request.headers.authorization);
		if (!userName) return failure(new ApiError(401, 'Invalid or expired token.'));
		const throttled = this.throttle(userName);
		if (throttled) return throttled;
		const usage = this.usage.count(userName);
		try {
			const fields = HANDLERS[match.route.name]({
				params: match.params,
				body: parseJson(api.rawBody, api.request.headers['content-type']),
				store: this.store,
				recorder: this.recorder,
				now: this.now,
			});
			return jsonAnswer(200, { ...envelope(true, null, usage), ...fields });
		} catch (error) {
			if (error instanceof ApiError) return failure(error, usage);
			return failure(new ApiError(500, `Sandbox failure: ${error.message}`), usage);
		}
	}

	private issueToken(api: ApiRequest): Answer {
		let body: unknown;
		try {
			body = parseJson(api.rawBody, api.request.headers['content-type']);
		} catch (error) {
			return failure(error);
		}
		if (!isRecord(body)) return failure(badRequest('The request body must be a JSON object: { "userName", "apiKey" }.'));
		const credentials: Partial<Record<keyof TokenRequest, unknown>> = body;
		const account = this.tokens.findAccount(credentials.userName, credentials.apiKey);
		if (!account) return failure(new ApiError(this.options.tokenFailureStatus, 'Invalid API key or username.'));
		const throttled = this.options.rateLimit?.includeTokenCalls ? this.throttle(account.userName) : undefined;
		if (throttled) return throttled;
		const answer: TokenAnswer = { ...envelope(true, null, this.usage.count(account.userName)), ...this.tokens.issue(account) };
		return jsonAnswer(200, answer);
	}

	private throttle(userName: string): Answer | undefined {
		const limit = this.options.rateLimit;
		if (!limit) return undefined;
		const decision = this.limiter.admit(userName, limit, Date.now());
		if (decision.allowed) return undefined;
		const headers: Record<string, string> = this.options.retryAfterHeader
			? { 'retry-after': String(decision.retryAfterSeconds) }
			: {};
		return jsonAnswer(429, envelope(false, 'Too many requests.'), headers);
	}

	private deliver(request: IncomingMessage, response: ServerResponse, outcome: Outcome, entry: LoggedRequest): void {
		if (outcome === RESET) {
			this.recorder.answered(entry, 'reset');
			dropConnection(request.socket);
			return;
		}
		this.recorder.answered(entry, outcome.status);
		// The Date header tells the sandbox's clock, as a real server's tells its own (Node's is the host's).
		const dated = { ...outcome, headers: { date: new Date(this.now()).toUTCString(), ...outcome.headers } };
		if (!response.destroyed) send(response, dated);
	}

	private delay(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			this.timers.add(timer);
		});
	}
}

interface DecodedPath {
	segments?: string[];
	rejection?: ApiError;
}

function decodePath(rawPath: string): DecodedPath {
	try {
		return { segments: decodeSegments(rawPath) };
	} catch (error) {
		return { rejection: error };
	}
}

/** A TCP reset where possible; TLS sockets cannot reset, so they just close. */
function dropConnection(socket: Socket): void {
	try {
		socket.resetAndDestroy();
	} catch {
		socket.destroy();
	}
}

function envelope(success: boolean, error: string | null, usage?: Usage): Envelope {
	return { success, error, ...usage };
}

function failure(error: ApiError, usage?: Usage): Answer {
	return jsonAnswer(error.status, envelope(false, error.message, usage));
}
