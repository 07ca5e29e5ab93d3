import {
	sleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type IPollFunctions,
} from 'n8n-workflow';

import { joinUrl } from '../../../credentials/baseUrl';
import { CREDENTIAL_TYPE, ENDPOINTS, TOKEN_PATH, type AnswerOf, type Endpoint, type EndpointName, type PathParam } from '../wire';
import { unwrapEnvelope, usageCounters, type UsageCounters } from './envelope';
import {
	describeFailure,
	describeHttpFailure,
	describeRedirect,
	namingIds,
	redact,
	redactTexts,
	redirectTarget,
	refusedWithFreshToken,
	suppliedSecrets,
	toNodeApiError,
	type RequestFailure,
} from './failure';
import { accountKey, quotaForAccount, RequestPacer, systemClock } from './pacer';
import {
	DEFAULT_TIMEOUT_SECONDS,
	NO_TOKEN,
	TOKEN_TIMEOUT_FIELD,
	TokenExchangeFailure,
	tokenMatchesCredential,
	TokenSession,
	type FullResponse,
	type OutgoingRequest,
	type TokenGeneration,
} from './token';

export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ClientOptions {
	maxConcurrency: number;
	requestsPerMinute?: number;
	timeoutMs?: number;
	/** Retries of one request after 429/503 (any request) or transient failures (reads). */
	maxRetries?: number;
}

export type PathParams = Partial<Record<PathParam, string>>;

export interface RequestOptions {
	/** Fill the endpoint's `{deviceId}`-style placeholders. */
	params?: PathParams;
	body?: object;
	/** The input item the request serves, named in the error it may raise. */
	itemIndex?: number;
	/**
	 * A moment on `systemClock` (a poll's time budget): no send, and no retry wait, past it, and no
	 * wait for an answer (or for the token exchange it needs) beyond it; the last failure stands.
	 */
	deadline?: number;
	/** Called as the request goes out (each attempt), after any wait for the pacer. */
	onSent?: () => void;
	/**
	 * Once aborted, no attempt is sent (a poll that sends no more): the last failure stands, and a
	 * request not sent yet is cut short, as by the deadline.
	 */
	stop?: AbortSignal;
	/**
	 * API calls the caller may still make (a poll's Max Requests per Poll), shared by its requests and
	 * taken by each attempt, retries included: none is sent once it is spent; the last failure stands.
	 */
	budget?: RequestBudget;
}

export interface RequestBudget {
	remaining: number;
}

type Exchange = { answer: unknown } | { failure: RequestFailure; tokenUsed: TokenGeneration };

type Outcome = { ok: true; value: unknown } | { ok: false; failure: RequestFailure };

/** Errors of requests a poll's time budget cut short: not the service's failure, only no time left. */
const cutShort = new WeakSet<object>();

/** Whether `error` says only that the poll's time budget ran out (before the request was sent or answered). */
export function ranOutOfTime(error: unknown): boolean {
	return typeof error === 'object' && error !== null && cutShort.has(error);
}

/**
 * Why an attempt may not go out, or undefined when it may: the poll's deadline passed, the poll
 * stopped sending, or its Max Requests per Poll is spent. A retry refused by the last two fails with
 * what the request met before; a request not sent at all is cut short (`outOfTime`).
 */
function whyNotSent(remainingMs: number, stop: AbortSignal | undefined, budget: RequestBudget | undefined, previous: RequestFailure | undefined): RequestFailure | undefined {
	if (remainingMs <= 0) return { message: "The poll's time budget (Max Poll Time) ran out before this request was sent", outOfTime: true };
	if (stop?.aborted === true) return previous ?? { message: 'The poll stopped sending before this request', outOfTime: true };
	if (budget !== undefined && budget.remaining <= 0) return previous ?? { message: 'Max Requests per Poll was spent before this request was sent', outOfTime: true };
	return undefined;
}

// When a failed request is sent again.

export const MAX_RETRIES = 5;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/**
 * A per-minute quota spent in a burst asks for up to a minute; coming back earlier only meets the
 * same full window again (one 429 per request under way each time). Longer asks are not honoured.
 */
const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses that say "not processed, come back later": safe to resend whatever the method. */
const COME_BACK_LATER = new Set([429, 503]);

/** Failures after which a read may be sent again; a write may have been applied already. */
const TRANSIENT = new Set([500, 502, 504]);

export function isRetryable(failure: Pick<RequestFailure, 'status' | 'networkCode'>, isRead: boolean): boolean {
	if (failure.status !== undefined && COME_BACK_LATER.has(failure.status)) return true;
	if (!isRead) return false;
	return failure.networkCode !== undefined || (failure.status !== undefined && TRANSIENT.has(failure.status));
}

/**
 * Delay before retry number `attempt` (0-based): the server's Retry-After when it sent one,
 * otherwise exponential backoff with full jitter so parallel requests do not return in step.
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, random: () => number): number {
	if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
	const ceiling = Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Fills `{deviceId}`-style placeholders, percent-encoding each value so an id can never reach
 * another route. `.` and `..` survive encoding as dot-segments that URL parsers resolve, so they
 * are refused rather than sent.
 */
export function fillPath(template: string, params: Partial<Record<PathParam, string>>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: PathParam) => {
		const value = params[name];
		if (value === undefined || value === '') {
			throw new RangeError(`${name} is empty`);
		}
		if (value === '.' || value === '..') {
			throw new RangeError(`${name} cannot be "${value}"`);
		}
		return encodeURIComponent(value);
	});
}

/** The service looked past the token: not a refusal of it, nor an overload or outage before any check. */
function answeredPastTheToken(status: number): boolean {
	return status !== 401 && status !== 429 && status < 500;
}

/**
 * The only way node code talks to the tracking API. One client serves one node run: it shares
 * the credential (and so the token) between all its requests, paces them with every other run
 * on the same account in this process, retries what is safe to retry, and turns every failure
 * into a NodeApiError carrying the service's own message, with the key and tokens taken out.
 * Its token is a TokenSession's (token.ts).
 */
export class TrackingApiClient {
	private newestUsage: UsageCounters | undefined;

	private readonly tokens: TokenSession;

	/** The passwords this run has sent, to take out of error texts as the key is: a service may quote any request back. */
	private readonly sentSecrets = new Set<string>();

	private constructor(
		private readonly context: RequestContext,
		private readonly node: INode,
		private readonly credentials: ICredentialsDecrypted,
		private readonly pacer: RequestPacer,
		private readonly timeoutMs: number,
		private readonly maxRetries: number,
		credentialReadAt: number,
	) {
		this.tokens = new TokenSession(
			this.data,
			(request) => this.sendWithToken(request),
			credentialReadAt,
			(retryAfterMs) => retryDelayMs(0, retryAfterMs, Math.random),
		);
	}

	static async create(context: RequestContext, options: ClientOptions): Promise<TrackingApiClient> {
		const node = context.getNode();
		const credentialReadAt = systemClock.now();
		const data = { ...(await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) };
		const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000;
		// A token fetched with another Base URL, user name or key is no token for these (and must
		// not be sent to another host): with the field empty, n8n fetches one for what is entered.
		if (!tokenMatchesCredential(data)) data.token = '';
		const stored = node.credentials?.[CREDENTIAL_TYPE];
		const credentials: ICredentialsDecrypted = {
			id: stored?.id ?? '',
			name: stored?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		};
		const account = accountKey(String(data.baseUrl ?? ''), String(data.userName ?? ''));
		const pacer = new RequestPacer(options, undefined, quotaForAccount(account));
		return new TrackingApiClient(context, node, credentials, pacer, timeoutMs, options.maxRetries ?? MAX_RETRIES, credentialReadAt);
	}

	/** The account's usage counters from the newest answer that carried them. */
	get usage(): UsageCounters | undefined {
		return this.newestUsage;
	}

	async request<Name extends EndpointName>(name: Name, options: RequestOptions = {}): Promise<AnswerOf<Name>> {
		const outcome = await this.call(name, options);
		if (!outcome.ok) throw this.toError(namingIds(outcome.failure, options.params ?? {}), options.itemIndex);
		return outcome.value as AnswerOf<Name>;
	}

	/** Like request, but a 404 answer is `undefined`: for lookups where "not there" is an answer. */
	async find<Name extends EndpointName>(name: Name, options: RequestOptions = {}): Promise<AnswerOf<Name> | undefined> {
		const outcome = await this.call(name, options);
		if (outcome.ok) return outcome.value as AnswerOf<Name>;
		if (outcome.failure.status === 404) return undefined;
		throw this.toError(outcome.failure, options.itemIndex);
	}

	private toError(failure: RequestFailure, itemIndex?: number) {
		const secrets = [...this.tokens.secrets, ...this.sentSecrets];
		const error = toNodeApiError(
			// n8n keeps the node, parameters and all, with the error in its run data and log: a password
			// typed into a parameter is taken out there too.
			this.sentSecrets.size === 0 ? this.node : redactTexts(this.node, [...this.sentSecrets]),
			{
				...failure,
				message: redact(failure.message, secrets),
				description: failure.description === undefined ? undefined : redact(failure.description, secrets),
			},
			itemIndex,
		);
		if (failure.outOfTime === true) cutShort.add(error);
		return error;
	}

	private async call(name: EndpointName, { params = {}, body, deadline = Infinity, onSent, budget, stop }: RequestOptions): Promise<Outcome> {
		const endpoint: Endpoint = ENDPOINTS[name];
		const url = joinUrl(String(this.data.baseUrl ?? ''), fillPath(endpoint.path, params));
		for (const secret of suppliedSecrets(body)) this.sentSecrets.add(secret);
		let previous: RequestFailure | undefined;
		for (let attempt = 0; ; attempt++) {
			const release = await this.pacer.acquire();
			const remainingMs = deadline - systemClock.now();
			const unsent = whyNotSent(remainingMs, stop, budget, previous);
			if (unsent) {
				release(false);
				return { ok: false, failure: unsent };
			}
			if (budget !== undefined) budget.remaining--;
			// n8n's durable scheduler abandons a poll that outlives its timeout: a stalled answer must
			// not hold the poll for the whole Timeout setting once the budget has less left.
			const timeoutMs = Math.min(this.timeoutMs, remainingMs);
			let exchange: Exchange;
			try {
				onSent?.();
				exchange = await this.exchange({ method: endpoint.method, url, body, timeoutMs, sendBy: deadline });
			} finally {
				release();
			}
			if (!('answer' in exchange) && timeoutMs < this.timeoutMs && exchange.failure.networkCode === 'ETIMEDOUT') {
				const failure = exchange.failure;
				return { ok: false, failure: { ...failure, message: `${failure.message}, within what was left of the poll's time budget (Max Poll Time)`, outOfTime: true } };
			}
			if ('answer' in exchange) {
				this.pacer.succeeded();
				try {
					return { ok: true, value: unwrapEnvelope(endpoint, exchange.answer) };
				} catch (error) {
					return { ok: false, failure: describeFailure(error) };
				}
			}
			const { failure } = exchange;
			previous = failure;
			if (failure.tokenExchangeFailed) {
				// Nothing was sent, so any request may wait for the one more exchange allowed.
				if (budget !== undefined) budget.remaining++;
				if (failure.tokenRefused === true || this.tokens.brokenForGood) return { ok: false, failure };
				attempt--;
				continue;
			}
			if (failure.status === 401 && failure.tokenRefused !== true) {
				if (!this.tokens.renewAfterRefusal(exchange.tokenUsed)) return { ok: false, failure: refusedWithFreshToken(failure) };
				attempt--;
				continue;
			}
			if (attempt >= this.maxRetries || !isRetryable(failure, endpoint.read)) return { ok: false, failure };
			const delay = retryDelayMs(attempt, failure.retryAfterMs, Math.random);
			if (systemClock.now() + delay > deadline) return { ok: false, failure };
			if (failure.status === 429 || failure.status === 503) {
				// Only a Retry-After says over what span the quota was spent; a 429 without one (or with 0)
				// is no measure of the accepted rate, and learning from it compounded with each such 429.
				this.pacer.throttled(delay, failure.status === 429 && (failure.retryAfterMs ?? 0) > 0);
			} else {
				await sleep(delay);
			}
		}
	}

	private get data(): ICredentialDataDecryptedObject {
		return this.credentials.data as ICredentialDataDecryptedObject;
	}

	private async exchange(request: OutgoingRequest): Promise<Exchange> {
		try {
			const { response, tokenUsed } = await this.tokens.send(request);
			this.noteUsage(response.body);
			if (answeredPastTheToken(response.statusCode)) this.tokens.accepted(tokenUsed);
			if (response.statusCode >= 200 && response.statusCode < 300) return { answer: response.body };
			const redirectedTo = redirectTarget(response.statusCode, response.headers, request.url);
			if (redirectedTo !== undefined) return { failure: describeRedirect(response.statusCode, redirectedTo), tokenUsed };
			return { failure: describeHttpFailure(response.statusCode, response.body, response.headers), tokenUsed };
		} catch (error) {
			if (error instanceof TokenExchangeFailure) {
				const tokenUrl = joinUrl(String(this.data.baseUrl ?? ''), TOKEN_PATH);
				return { failure: { ...describeFailure(error.reason, tokenUrl), tokenExchangeFailed: true }, tokenUsed: NO_TOKEN };
			}
			return { failure: describeFailure(error, request.url), tokenUsed: NO_TOKEN };
		}
	}

	private noteUsage(body: unknown): void {
		const counters = usageCounters(body);
		if (counters === undefined) return;
		// Answers overtake each other; the account's total only grows, so the largest is the newest.
		if (this.newestUsage === undefined || counters.apiUsage >= this.newestUsage.apiUsage) this.newestUsage = counters;
	}

	private sendWithToken({ method, url, body, timeoutMs }: OutgoingRequest): Promise<FullResponse> {
		// Read by the credential's preAuthentication when this request carries the token exchange.
		this.data[TOKEN_TIMEOUT_FIELD] = timeoutMs;
		return this.context.helpers.httpRequestWithAuthentication.call(
			this.context,
			CREDENTIAL_TYPE,
			{
				method: method as 'GET',
				url,
				body,
				json: true,
				timeout: timeoutMs,
				skipSslCertificateValidation: this.data.allowUnauthorizedCerts === true,
				// n8n would copy the token to any host a redirect names, and a 307/308 resends the body (a
				// user's password) there: a redirect is answered as a failure instead (describeRedirect).
				disableFollowRedirect: true,
				// Statuses are read here rather than thrown, to keep Retry-After and the vendor's body.
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			},
			{ credentialsDecrypted: this.credentials },
		) as Promise<FullResponse>;
	}
}
