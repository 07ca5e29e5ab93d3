import {
	sleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type IPollFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, ENDPOINTS, TOKEN_PATH, type AnswerOf, type Endpoint, type EndpointName, type PathParam } from '../wire';
import { unwrapEnvelope, usageCounters, type UsageCounters } from './envelope';
import { describeFailure, describeHttpFailure, isTokenRefusal, refusedWithFreshToken, toNodeApiError, type RequestFailure } from './errors';
import { quotaForAccount, RequestPacer } from './pacer';
import { redact } from './redact';
import { isRetryable, MAX_RETRIES, retryDelayMs } from './retryPolicy';
import { credentialFingerprint, DEFAULT_TIMEOUT_SECONDS, TOKEN_TIMEOUT_FIELD, tokenMatchesCredential } from './token';
import { accountKey, fillPath, joinUrl } from './url';

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
}

interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/**
 * Which token a request went with: the number of the exchange that fetched it (0 for the token
 * stored before this run). Not its text: a service may hand out the same text again, and each
 * exchange is still a fresh token.
 */
type TokenGeneration = number;

/** The request failed before it was sent with any token. */
const NO_TOKEN: TokenGeneration = -1;

type Exchange = { answer: unknown } | { failure: RequestFailure; tokenUsed: TokenGeneration };

type Outcome = { ok: true; value: unknown } | { ok: false; failure: RequestFailure };

/**
 * Fresh tokens (fetched by this client) the service may refuse before any call accepted them,
 * before the client concludes that it refuses the call itself, not the token: the first may meet
 * a revocation, the second not.
 */
const UNPROVEN_TOKEN_REFUSALS_TOLERATED = 1;
/** Renewals one run may make in all, however the refusals fall: revocations are rare. */
const MAX_RENEWALS_PER_RUN = 5;

/** The credential fields n8n fills from preAuthentication. */
type StoredToken = Pick<ICredentialDataDecryptedObject, 'token' | 'tokenExpires' | 'tokenFingerprint'>;

/**
 * Token exchanges under way in this process, by the exact Base URL, user name and key they were
 * made with: executions that start together on one account wait for the first one's token
 * instead of each fetching its own. Only values that would fetch the same token share one.
 */
const exchangesUnderWay = new Map<string, Promise<StoredToken | undefined>>();

/** The service looked past the token: not a refusal of it, nor an overload or outage before any check. */
function answeredPastTheToken(status: number): boolean {
	return status !== 401 && status !== 429 && status < 500;
}

/** The token exchange failed, so the request it was made for was never sent. */
class TokenExchangeFailure extends Error {
	constructor(readonly reason: unknown) {
		super('The token exchange failed');
	}
}

/**
 * The only way node code talks to the tracking API. One client serves one node run: it shares
 * the credential (and so the token) between all its requests, paces them with every other run
 * on the same account in this process, retries what is safe to retry, and turns every failure
 * into a NodeApiError carrying the service's own message, with the key and tokens taken out.
 *
 * Tokens: n8n runs the credential's preAuthentication whenever the token field is empty and
 * stores the result, so clearing the shared token is how this client asks for a new one — once
 * for all requests in flight, where n8n's own 401 handling would refresh once per request, and
 * it would also hide the answer's headers (Retry-After) that this client needs.
 */
export class TrackingApiClient {
	private tokenFetch: Promise<void> | undefined;

	/** The service refused the user name or API key: every request fails with this. */
	private tokenRefusal: unknown;

	/** The token endpoint failed twice, or hung: every request waiting for a token fails with this. */
	private tokenOutage: unknown;

	private exchangeFailures = 0;

	/** The token in the credential data now: the exchanges this client made so far. */
	private tokenGeneration: TokenGeneration = 0;

	/** Tokens some call was answered with other than 401: a later 401 to one is a revocation. */
	private readonly acceptedTokens = new Set<TokenGeneration>();

	/** Tokens this client fetched that the service refused before accepting any call with them. */
	private readonly refusedUnprovenTokens = new Set<TokenGeneration>();

	private renewals = 0;

	/** Every token seen, to take out of error texts that quote the request back. */
	private readonly seenTokens = new Set<string>();

	private newestUsage: UsageCounters | undefined;

	private constructor(
		private readonly context: RequestContext,
		private readonly node: INode,
		private readonly credentials: ICredentialsDecrypted,
		private readonly pacer: RequestPacer,
		private readonly timeoutMs: number,
		private readonly maxRetries: number,
	) {
		this.noteToken(this.data.token);
	}

	static async create(context: RequestContext, options: ClientOptions): Promise<TrackingApiClient> {
		const node = context.getNode();
		const data = { ...(await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) };
		const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000;
		// A token fetched with another Base URL, user name or key is no token for these (and must
		// not be sent to another host): with the field empty, n8n fetches one for what is entered.
		if (!tokenMatchesCredential(data)) data.token = '';
		data[TOKEN_TIMEOUT_FIELD] = timeoutMs;
		const stored = node.credentials?.[CREDENTIAL_TYPE];
		const credentials: ICredentialsDecrypted = {
			id: stored?.id ?? '',
			name: stored?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		};
		const account = accountKey(String(data.baseUrl ?? ''), String(data.userName ?? ''));
		const pacer = new RequestPacer(options, undefined, quotaForAccount(account));
		return new TrackingApiClient(context, node, credentials, pacer, timeoutMs, options.maxRetries ?? MAX_RETRIES);
	}

	/** The account's usage counters from the newest answer that carried them. */
	get usage(): UsageCounters | undefined {
		return this.newestUsage;
	}

	async request<Name extends EndpointName>(name: Name, options: RequestOptions = {}): Promise<AnswerOf<Name>> {
		const outcome = await this.call(name, options);
		if (!outcome.ok) throw this.toError(outcome.failure, options.itemIndex);
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
		const secrets = [this.data.apiKey, ...this.seenTokens];
		return toNodeApiError(
			this.node,
			{
				...failure,
				message: redact(failure.message, secrets),
				description: failure.description === undefined ? undefined : redact(failure.description, secrets),
			},
			itemIndex,
		);
	}

	private async call(name: EndpointName, { params = {}, body }: RequestOptions): Promise<Outcome> {
		const endpoint: Endpoint = ENDPOINTS[name];
		const url = joinUrl(String(this.data.baseUrl ?? ''), fillPath(endpoint.path, params));
		for (let attempt = 0; ; attempt++) {
			const release = await this.pacer.acquire();
			let exchange: Exchange;
			try {
				exchange = await this.exchange(endpoint.method, url, body);
			} finally {
				release();
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
			if (failure.tokenExchangeFailed) {
				// Nothing was sent, so any request may wait for the one more exchange allowed.
				if (isTokenRefusal(failure) || this.tokenOutage !== undefined) return { ok: false, failure };
				attempt--;
				continue;
			}
			if (failure.status === 401 && !isTokenRefusal(failure)) {
				if (!this.renewAfterRefusal(exchange.tokenUsed)) return { ok: false, failure: refusedWithFreshToken(failure) };
				attempt--;
				continue;
			}
			if (attempt >= this.maxRetries || !isRetryable(failure, endpoint.read)) return { ok: false, failure };
			const delay = retryDelayMs(attempt, failure.retryAfterMs, Math.random);
			if (failure.status === 429 || failure.status === 503) {
				// Only a Retry-After says over what span the quota was spent; a 429 without one (or with 0)
				// is no measure of the accepted rate, and learning from it compounded with each such 429.
				this.pacer.throttled(delay, failure.status === 429 && (failure.retryAfterMs ?? 0) > 0);
			} else {
				await sleep(delay);
			}
		}
	}

	/**
	 * A 401 to a token: renew it, unless the service has now refused fresh tokens more often than a
	 * revocation explains. Then it refuses the call, not the token, and renewing again would only
	 * spend the quota: the budget is the client's, so a hundred items cost two renewals, not one each.
	 */
	private renewAfterRefusal(tokenUsed: TokenGeneration): boolean {
		const fetchedHere = tokenUsed > 0;
		if (fetchedHere && !this.acceptedTokens.has(tokenUsed)) this.refusedUnprovenTokens.add(tokenUsed);
		if (this.refusedUnprovenTokens.size > UNPROVEN_TOKEN_REFUSALS_TOLERATED) return false;
		// Only the request that saw the current token rejected clears it; later 401s of it are stale.
		if (tokenUsed !== NO_TOKEN && tokenUsed === this.tokenGeneration && this.data.token !== '') {
			if (this.renewals >= MAX_RENEWALS_PER_RUN) return false;
			this.renewals++;
			this.data.token = '';
		}
		return true;
	}

	private get data(): ICredentialDataDecryptedObject {
		return this.credentials.data as ICredentialDataDecryptedObject;
	}

	private async exchange(method: string, url: string, body?: object): Promise<Exchange> {
		try {
			const { response, tokenUsed } = await this.send(method, url, body);
			this.noteUsage(response.body);
			if (answeredPastTheToken(response.statusCode)) this.acceptedTokens.add(tokenUsed);
			if (response.statusCode >= 200 && response.statusCode < 300) return { answer: response.body };
			return { failure: describeHttpFailure(response.statusCode, response.body, response.headers), tokenUsed };
		} catch (error) {
			if (error instanceof TokenExchangeFailure) {
				const tokenUrl = joinUrl(String(this.data.baseUrl ?? ''), TOKEN_PATH);
				return { failure: { ...describeFailure(error.reason, tokenUrl), tokenExchangeFailed: true }, tokenUsed: NO_TOKEN };
			}
			return { failure: describeFailure(error, url), tokenUsed: NO_TOKEN };
		}
	}

	/**
	 * The first request without a token goes alone; the others wait and reuse what it stored in
	 * the shared credential data. A refused key, or a token endpoint that failed twice or hung,
	 * fails the rest at once.
	 */
	private async send(method: string, url: string, body?: object) {
		while (this.needsToken()) {
			const fatal = this.tokenRefusal ?? this.tokenOutage;
			if (fatal !== undefined) throw new TokenExchangeFailure(fatal);
			if (this.tokenFetch === undefined) return await this.sendAlone(method, url, body);
			await this.tokenFetch;
		}
		return await this.sendWithCredential(method, url, body);
	}

	private async sendAlone(method: string, url: string, body?: object) {
		this.data.token = '';
		const solo = this.sendAfterBackoff(method, url, body);
		this.tokenFetch = solo.then(
			() => undefined,
			(error) => this.noteExchangeFailure(error),
		);
		const outcome = await solo.then(
			(sent) => ({ sent }),
			(error: unknown) => ({ error }),
		);
		this.tokenFetch = undefined;
		if ('sent' in outcome) return outcome.sent;
		// n8n stores the token in the data before it sends the request; none means no exchange.
		throw this.data.token === '' ? new TokenExchangeFailure(outcome.error) : outcome.error;
	}

	/**
	 * A second exchange, on behalf of every request waiting, comes after a short backoff. A token
	 * another run of this process is fetching with the same values is taken instead of a new one.
	 */
	private async sendAfterBackoff(method: string, url: string, body?: object) {
		if (this.exchangeFailures > 0) await sleep(retryDelayMs(0, undefined, Math.random));
		const key = credentialFingerprint(this.data);
		const underWay = exchangesUnderWay.get(key);
		const shared = underWay && (await underWay);
		if (shared !== undefined) {
			Object.assign(this.data, shared);
			this.tokenGeneration++;
			this.noteToken(shared.token);
			return await this.sendWithCredential(method, url, body);
		}
		let settle: (token: StoredToken | undefined) => void = () => undefined;
		const exchange = new Promise<StoredToken | undefined>((resolve) => (settle = resolve));
		exchangesUnderWay.set(key, exchange);
		try {
			return await this.sendWithCredential(method, url, body);
		} finally {
			const { token, tokenExpires, tokenFingerprint } = this.data;
			settle(typeof token === 'string' && token !== '' ? { token, tokenExpires, tokenFingerprint } : undefined);
			if (exchangesUnderWay.get(key) === exchange) exchangesUnderWay.delete(key);
		}
	}

	private noteExchangeFailure(error: unknown): void {
		if (this.data.token !== '') return;
		const failure = describeFailure(error);
		if (isTokenRefusal(failure)) {
			this.tokenRefusal = error;
		} else if (failure.networkCode === 'ETIMEDOUT' || ++this.exchangeFailures > 1) {
			// A hung endpoint would hang again: waiting a second Timeout would double what users set.
			this.tokenOutage = error;
		}
	}

	private needsToken(): boolean {
		const { token, tokenExpires } = this.data;
		if (typeof token !== 'string' || token === '') return true;
		const expires = typeof tokenExpires === 'string' ? Date.parse(tokenExpires) : NaN;
		return !Number.isNaN(expires) && expires <= Date.now();
	}

	private noteToken(token: unknown): void {
		if (typeof token === 'string' && token !== '') this.seenTokens.add(token);
	}

	private noteUsage(body: unknown): void {
		const counters = usageCounters(body);
		if (counters === undefined) return;
		// Answers overtake each other; the account's total only grows, so the largest is the newest.
		if (this.newestUsage === undefined || counters.apiUsage >= this.newestUsage.apiUsage) this.newestUsage = counters;
	}

	private async sendWithCredential(method: string, url: string, body?: object) {
		// With the token field empty, n8n runs the exchange before sending: a new token, whatever its text.
		const fetching = String(this.data.token ?? '') === '';
		const tokenUsed = fetching ? ++this.tokenGeneration : this.tokenGeneration;
		try {
			return { response: await this.sendWithToken(method, url, body), tokenUsed };
		} finally {
			if (fetching) this.noteToken(this.data.token);
		}
	}

	private async sendWithToken(method: string, url: string, body?: object): Promise<FullResponse> {
		return (await this.context.helpers.httpRequestWithAuthentication.call(
			this.context,
			CREDENTIAL_TYPE,
			{
				method: method as 'GET',
				url,
				body,
				json: true,
				timeout: this.timeoutMs,
				skipSslCertificateValidation: this.data.allowUnauthorizedCerts === true,
				// Statuses are read here rather than thrown, to keep Retry-After and the vendor's body.
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			},
			{ credentialsDecrypted: this.credentials },
		)) as FullResponse;
	}
}
