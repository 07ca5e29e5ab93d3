import {
	sleep,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type IPollFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, ENDPOINTS, type AnswerOf, type Endpoint, type EndpointName, type PathParam } from '../wire';
import { unwrapEnvelope } from './envelope';
import { describeFailure, describeHttpFailure, isTokenRefusal, toNodeApiError, type RequestFailure } from './errors';
import { RequestPacer } from './pacer';
import { isRetryable, MAX_RETRIES, retryDelayMs } from './retryPolicy';
import { fillPath, joinUrl } from './url';

export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ClientOptions {
	maxConcurrent: number;
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

type Exchange = { answer: unknown } | { failure: RequestFailure; tokenUsed: string };

type Outcome = { ok: true; value: unknown } | { ok: false; failure: RequestFailure };

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TOKEN_RENEWALS = 3;
/** Fetch a new token this long before the service's `expires`, so no request races the expiry. */
const TOKEN_EXPIRY_MARGIN_MS = 30_000;

/**
 * The only way node code talks to the tracking API. One client serves one node run: it shares
 * the credential (and so the token) between all its requests, paces them, retries what is safe
 * to retry, and turns every failure into a NodeApiError carrying the service's own message.
 *
 * Tokens: n8n runs the credential's preAuthentication whenever the token field is empty and
 * stores the result, so clearing the shared token is how this client asks for a new one — once
 * for all requests in flight, where n8n's own 401 handling would refresh once per request, and
 * it would also hide the answer's headers (Retry-After) that this client needs.
 */
export class TrackingApiClient {
	private tokenFetch: Promise<void> | undefined;

	private tokenRefusal: unknown;

	private constructor(
		private readonly context: RequestContext,
		private readonly node: INode,
		private readonly credentials: ICredentialsDecrypted,
		private readonly pacer: RequestPacer,
		private readonly timeoutMs: number,
		private readonly maxRetries: number,
	) {}

	static async create(context: RequestContext, options: ClientOptions): Promise<TrackingApiClient> {
		const node = context.getNode();
		const data = { ...(await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) };
		const stored = node.credentials?.[CREDENTIAL_TYPE];
		const credentials: ICredentialsDecrypted = {
			id: stored?.id ?? '',
			name: stored?.name ?? '',
			type: CREDENTIAL_TYPE,
			data,
		};
		const pacer = new RequestPacer(options);
		return new TrackingApiClient(
			context,
			node,
			credentials,
			pacer,
			options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			options.maxRetries ?? MAX_RETRIES,
		);
	}

	async request<Name extends EndpointName>(name: Name, options: RequestOptions = {}): Promise<AnswerOf<Name>> {
		const outcome = await this.call(name, options);
		if (!outcome.ok) throw toNodeApiError(this.node, outcome.failure, options.itemIndex);
		return outcome.value as AnswerOf<Name>;
	}

	/** Like request, but a 404 answer is `undefined`: for lookups where "not there" is an answer. */
	async find<Name extends EndpointName>(name: Name, options: RequestOptions = {}): Promise<AnswerOf<Name> | undefined> {
		const outcome = await this.call(name, options);
		if (outcome.ok) return outcome.value as AnswerOf<Name>;
		if (outcome.failure.status === 404) return undefined;
		throw toNodeApiError(this.node, outcome.failure, options.itemIndex);
	}

	private async call(name: EndpointName, { params = {}, body }: RequestOptions): Promise<Outcome> {
		const endpoint: Endpoint = ENDPOINTS[name];
		const url = joinUrl(String(this.data.baseUrl ?? ''), fillPath(endpoint.path, params));
		// One renewal per refused token: a request that meets a second revocation later in its retries
		// renews again, but never loops on fresh tokens the service keeps refusing.
		const refusedTokens = new Set<string>();
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
			if (
				failure.status === 401 &&
				!isTokenRefusal(failure) &&
				!refusedTokens.has(exchange.tokenUsed) &&
				refusedTokens.size < MAX_TOKEN_RENEWALS
			) {
				refusedTokens.add(exchange.tokenUsed);
				this.discardToken(exchange.tokenUsed);
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

	private get data(): ICredentialDataDecryptedObject {
		return this.credentials.data as ICredentialDataDecryptedObject;
	}

	private async exchange(method: string, url: string, body?: object): Promise<Exchange> {
		try {
			const { response, tokenUsed } = await this.send(method, url, body);
			if (response.statusCode >= 200 && response.statusCode < 300) return { answer: response.body };
			return { failure: describeHttpFailure(response.statusCode, response.body, response.headers), tokenUsed };
		} catch (error) {
			return { failure: describeFailure(error), tokenUsed: '' };
		}
	}

	/**
	 * The first request without a token goes alone; the others wait and reuse what it stored in
	 * the shared credential data. A refused key fails the rest at once.
	 */
	private async send(method: string, url: string, body?: object) {
		while (this.needsToken()) {
			if (this.tokenRefusal) throw this.tokenRefusal;
			if (this.tokenFetch === undefined) return await this.sendAlone(method, url, body);
			await this.tokenFetch;
		}
		return await this.sendWithCredential(method, url, body);
	}

	private async sendAlone(method: string, url: string, body?: object) {
		this.data.token = '';
		const solo = this.sendWithCredential(method, url, body);
		this.tokenFetch = solo.then(
			() => undefined,
			(error) => {
				if (isTokenRefusal(describeFailure(error))) this.tokenRefusal = error;
			},
		);
		try {
			return await solo;
		} finally {
			this.tokenFetch = undefined;
		}
	}

	/** Only the request that saw the current token rejected clears it; later 401s of it are stale. */
	private discardToken(tokenUsed: string): void {
		if (tokenUsed !== '' && this.data.token === tokenUsed) this.data.token = '';
	}

	private needsToken(): boolean {
		const { token, tokenExpires } = this.data;
		if (typeof token !== 'string' || token === '') return true;
		const expires = typeof tokenExpires === 'string' ? Date.parse(tokenExpires) : NaN;
		return !Number.isNaN(expires) && expires - TOKEN_EXPIRY_MARGIN_MS <= Date.now();
	}

	private async sendWithCredential(method: string, url: string, body?: object) {
		const tokenBefore = String(this.data.token ?? '');
		const response = (await this.context.helpers.httpRequestWithAuthentication.call(
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
		return { response, tokenUsed: tokenBefore === '' ? String(this.data.token ?? '') : tokenBefore };
	}
}
