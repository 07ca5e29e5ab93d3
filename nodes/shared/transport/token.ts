/** The token: the exchange the credential's preAuthentication makes, and a node run's use of what it stored. */
import { createHash } from 'node:crypto';

import { sleep, type ICredentialDataDecryptedObject, type IHttpRequestHelper } from 'n8n-workflow';

import { baseUrlHint, baseUrlProblem, joinUrl } from '../../../credentials/baseUrl';
import { parseServiceTime } from '../validation';
import { TOKEN_PATH, type TokenAnswer, type TokenRequest } from '../wire';
import {
	describeFailure,
	describeNetworkFailure,
	parseRetryAfter,
	redact,
	redirectTarget,
	TokenRedirectError,
	TokenRequestError,
	TokenUnavailableError,
	TokenUnreachableError,
} from './failure';
import { systemClock } from './pacer';

export interface IssuedToken {
	token: string;
	/**
	 * When the token expires on this host's clock (ISO), or '' when the answer does not say
	 * how long it lives: then the token is trusted until the service refuses it.
	 */
	expires: string;
	/** Which Base URL, user name and API key the token was obtained with (a hash: never the key). */
	fingerprint: string;
}

/**
 * How long the token exchange may take. The client that asks for a token sets it on the
 * credential data it hands n8n, so the exchange honours the node's Timeout; n8n's HTTP Request
 * node, which knows no such setting, gets the default.
 */
export const TOKEN_TIMEOUT_FIELD = 'tokenRequestTimeoutMs';
export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * Thrown by the credential's `authenticate` for a token fetched with other values than those entered
 * now. Shaped as n8n's request helpers see a 401 (`response.status`), so they run preAuthentication
 * at once and authenticate again, instead of sending the request.
 */
export class StoredTokenMismatch extends Error {
	readonly response = { status: 401 };

	constructor() {
		super('The stored token was fetched with another Base URL, user name or API key');
	}
}

/**
 * The values a token is obtained with, hashed: stored beside the token, never the key itself.
 */
export function credentialFingerprint(credentials: ICredentialDataDecryptedObject): string {
	const [baseUrl, userName, apiKey] = [credentials.baseUrl, credentials.userName, credentials.apiKey].map((value) => String(value ?? ''));
	const newest = newestFingerprint;
	if (newest?.baseUrl === baseUrl && newest.userName === userName && newest.apiKey === apiKey) return newest.digest;
	const digest = createHash('sha256').update([baseUrl, userName, apiKey].join('\n')).digest('hex');
	newestFingerprint = { baseUrl, userName, apiKey, digest };
	return digest;
}

/**
 * The newest fingerprint computed: the credential's `authenticate` checks it before every request,
 * and a SHA-256 each time was a fifth of the package's own CPU in a profile of bench P3.
 */
let newestFingerprint: { baseUrl: string; userName: string; apiKey: string; digest: string } | undefined;

/** A stored token may be used only with the values it was obtained with. */
export function tokenMatchesCredential(credentials: ICredentialDataDecryptedObject): boolean {
	const { token, tokenFingerprint } = credentials;
	return typeof token === 'string' && token !== '' && tokenFingerprint === credentialFingerprint(credentials);
}

/** A `Date` header has whole seconds: the service's now may be up to a second past what it says. */
const DATE_HEADER_RESOLUTION_MS = 1000;
/** Renew this much before the end of the lifetime, so no request races the expiry (a tenth of short lifetimes). */
const RENEWAL_MARGIN_MS = 30_000;
const RENEWAL_MARGIN_SHARE = 0.1;

/**
 * When to fetch a new token, on this host's clock. The service's `expires` and its `Date` header
 * are both on the service's clock, so their difference is the token's lifetime whatever either
 * clock says; a missing or unreadable one, or an `expires` not after `Date` (the vendor's own
 * example carries a date long past), says nothing, and the token is then trusted until refused.
 */
export function localExpiry(expires: unknown, dateHeader: unknown, receivedAt: number): string {
	// The spec calls `expires` a UTC timestamp: one without a zone must not be read in the host's.
	const serverExpires = typeof expires === 'string' ? parseServiceTime(expires) : NaN;
	const serverNow = typeof dateHeader === 'string' ? Date.parse(dateHeader) : NaN;
	const lifetimeMs = serverExpires - serverNow - DATE_HEADER_RESOLUTION_MS;
	if (!Number.isFinite(lifetimeMs) || lifetimeMs <= 0) return '';
	const margin = Math.min(RENEWAL_MARGIN_MS, lifetimeMs * RENEWAL_MARGIN_SHARE);
	return new Date(receivedAt + lifetimeMs - margin).toISOString();
}

/**
 * Exchanges the user name and API key for a bearer token. The service may refuse with any HTTP
 * status (200 included), so the body's `success` decides, and its `error` text is what users see,
 * with the key (which the service may quote back) taken out.
 */
export async function requestToken(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
): Promise<IssuedToken> {
	const body: TokenRequest = {
		userName: String(credentials.userName ?? '').trim(),
		apiKey: String(credentials.apiKey ?? '').trim(),
	};
	const problem = baseUrlProblem(String(credentials.baseUrl ?? ''));
	if (problem) throw new Error(problem);
	const url = joinUrl(String(credentials.baseUrl ?? ''), TOKEN_PATH);
	const timeoutMs = Number(credentials[TOKEN_TIMEOUT_FIELD]);
	let failure: unknown;
	const response = (await helpers
		.httpRequest({
			method: 'POST',
			url,
			body,
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			skipSslCertificateValidation: credentials.allowUnauthorizedCerts === true,
			// Followed, a 307/308 would send the key wherever it points.
			disableFollowRedirect: true,
			timeout: timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_SECONDS * 1000,
		})
		.catch((error: unknown) => {
			failure = error;
		})) as { statusCode: number; body: unknown; headers?: Record<string, unknown> } | undefined;
	if (response === undefined) {
		const network = describeNetworkFailure(failure, url);
		throw network ? new TokenUnreachableError(network.message, network.description) : failure;
	}
	const receivedAt = Date.now();

	const { statusCode } = response;
	const redirectedTo = redirectTarget(statusCode, response.headers, url);
	// The Location is the service's text: it may quote the key (the credential's Test shows it as is).
	if (redirectedTo !== undefined) throw new TokenRedirectError(statusCode, redact(redirectedTo, [body.apiKey]));
	if (statusCode === 429 || statusCode >= 500) {
		throw new TokenUnavailableError(statusCode, parseRetryAfter(response.headers?.['retry-after'], receivedAt));
	}
	const answer = response.body as Partial<TokenAnswer> | null;
	if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
		throw new TokenRequestError(`The token endpoint answered ${statusCode} without JSON: check the Base URL`);
	}
	if (answer.success !== true || typeof answer.token !== 'string' || answer.token === '') {
		const reason =
			typeof answer.error === 'string' && answer.error !== '' ? answer.error : 'The token request was refused without a reason';
		const hint = statusCode === 404 ? baseUrlHint(String(credentials.baseUrl ?? '')) : undefined;
		throw new TokenRequestError(redact(hint ? `${reason} ${hint}` : reason, [body.apiKey, answer.token]));
	}
	return {
		token: answer.token,
		expires: localExpiry(answer.expires, response.headers?.date, receivedAt),
		fingerprint: credentialFingerprint(credentials),
	};
}

// A node run's use of the token: shared by its requests, renewed once for all of them.

export interface FullResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** One request as sent: `timeoutMs` bounds it and, when it carries the token exchange, that exchange too. */
export interface OutgoingRequest {
	method: string;
	url: string;
	body?: object;
	timeoutMs: number;
	/** A poll's deadline on `systemClock` (Infinity outside a poll): waits for a token end there, and nothing is sent after it. */
	sendBy: number;
}

type SendWithToken = (request: OutgoingRequest) => Promise<FullResponse>;

/** How long to wait before the exchange is tried again, given the wait its last answer asked for (the client's retry policy). */
type ExchangeBackoff = (retryAfterMs: number | undefined) => number;

/**
 * Which token a request went with: the number of the exchange that fetched it (0 for the token
 * stored before this run). Not its text: a service may hand out the same text again, and each
 * exchange is still a fresh token.
 */
export type TokenGeneration = number;

/** The request failed before it was sent with any token. */
export const NO_TOKEN: TokenGeneration = -1;

/**
 * Fresh tokens (fetched by this client) the service may refuse before any call accepted them,
 * before the client concludes that it refuses the call itself, not the token: the first may meet
 * a revocation, the second not.
 */
const UNPROVEN_TOKEN_REFUSALS_TOLERATED = 1;
/** Renewals one run may make in all, however the refusals fall: revocations are rare. */
const MAX_RENEWALS_PER_RUN = 5;

/** The credential fields n8n fills from preAuthentication. */
type StoredToken = Pick<ICredentialDataDecryptedObject, 'tokenExpires' | 'tokenFingerprint'> & { token: string };

/**
 * A token exchange under way, or done at `doneAt` with the token n8n stored (none if it failed).
 * `doneAt` is on `systemClock`: on the system clock, one set back during the exchange made it look
 * done before the runs waiting for it had read the credential, and each fetched a token of its own.
 */
interface SharedExchange {
	token: Promise<StoredToken | undefined>;
	doneAt: number;
}

/**
 * The newest token exchange in this process by the exact Base URL, user name and key it was made
 * with: executions that start together on one account take its token instead of each fetching
 * their own, also those that read the credential before n8n stored the token and send after. Only
 * values that would fetch the same token share one. A run that read the credential after the
 * exchange has the token n8n stored: this is no second token store.
 */
const newestExchanges = new Map<string, SharedExchange>();

/** No token, or one past the expiry the service gave it. */
function stale({ token, tokenExpires }: ICredentialDataDecryptedObject): boolean {
	if (typeof token !== 'string' || token === '') return true;
	// Read before every request: parseServiceTime remembers the text, where Date.parse parsed it each time.
	const expires = parseServiceTime(tokenExpires);
	return !Number.isNaN(expires) && expires <= Date.now();
}

/** A poll's deadline passed while its request waited for a token: not sent, and no sign the token endpoint is down. */
class NoTimeLeftForToken extends Error {
	readonly code = 'ETIMEDOUT';

	constructor() {
		super("No token came within what was left of the poll's time budget");
	}
}

/** `request` with its Timeout cut to what is left before its `sendBy`, after waiting for a token. */
function inTime(request: OutgoingRequest): OutgoingRequest {
	const left = request.sendBy - systemClock.now();
	if (left <= 0) throw new NoTimeLeftForToken();
	return left < request.timeoutMs ? { ...request, timeoutMs: left } : request;
}

/** The token exchange failed, so the request it was made for was never sent. */
export class TokenExchangeFailure extends Error {
	constructor(readonly reason: unknown) {
		super('The token exchange failed');
	}
}

/**
 * The token of one node run's requests. n8n runs the credential's preAuthentication whenever the
 * token field is empty and stores the result, so clearing the shared token is how a run asks for a
 * new one — once for all requests in flight, where n8n's own 401 handling would refresh once per
 * request, and it would also hide the answer's headers (Retry-After) that the client needs.
 */
export class TokenSession {
	private tokenFetch: Promise<void> | undefined;

	/** The service refused the user name or API key: every request fails with this. */
	private tokenRefusal: unknown;

	/** The token endpoint failed twice, or hung: every request waiting for a token fails with this. */
	private tokenOutage: unknown;

	private exchangeFailures = 0;

	/** The last failed exchange's error, and the wait its answer asked for (Retry-After), if any. */
	private lastExchangeFailure: { error: unknown; retryAfterMs?: number } | undefined;

	/** The token in the credential data now: the exchanges this client made so far. */
	private tokenGeneration: TokenGeneration = 0;

	/** Tokens some call was answered with other than 401: a later 401 to one is a revocation. */
	private readonly acceptedTokens = new Set<TokenGeneration>();

	/** Tokens this client fetched that the service refused before accepting any call with them. */
	private readonly refusedUnprovenTokens = new Set<TokenGeneration>();

	private renewals = 0;

	/** Every token seen, to take out of error texts that quote the request back. */
	private readonly seenTokens = new Set<string>();

	/** `credentialReadAt`: when the run read `data` from n8n, on `systemClock` like every exchange's `doneAt`. */
	constructor(
		private readonly data: ICredentialDataDecryptedObject,
		private readonly sendWithToken: SendWithToken,
		private readonly credentialReadAt: number,
		private readonly backoffMs: ExchangeBackoff,
	) {
		this.noteToken(data.token);
	}

	/** What an error text must not show: the key and every token seen. */
	get secrets(): unknown[] {
		return [this.data.apiKey, ...this.seenTokens];
	}

	/** The token endpoint failed twice, or hung: no exchange is tried again in this run. */
	get brokenForGood(): boolean {
		return this.tokenOutage !== undefined;
	}

	/** A call was answered with this token other than 401: a later 401 to it is a revocation. */
	accepted(tokenUsed: TokenGeneration): void {
		this.acceptedTokens.add(tokenUsed);
	}

	/**
	 * A 401 to a token: renew it, unless the service has now refused fresh tokens more often than a
	 * revocation explains. Then it refuses the call, not the token, and renewing again would only
	 * spend the quota: the budget is the client's, so a hundred items cost two renewals, not one each.
	 */
	renewAfterRefusal(tokenUsed: TokenGeneration): boolean {
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

	/**
	 * The first request without a token goes alone; the others wait and reuse what it stored in
	 * the shared credential data. A refused key, or a token endpoint that failed twice or hung,
	 * fails the rest at once.
	 */
	async send(request: OutgoingRequest) {
		let waited = false;
		while (stale(this.data)) {
			const fatal = this.tokenRefusal ?? this.tokenOutage;
			if (fatal !== undefined) throw new TokenExchangeFailure(fatal);
			if (this.tokenFetch === undefined) return await this.sendAlone(request);
			await this.tokenFetch;
			waited = true;
		}
		return await this.sendWithCredential(waited ? inTime(request) : request);
	}

	private async sendAlone(request: OutgoingRequest) {
		this.data.token = '';
		const solo = this.sendAfterBackoff(request);
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
	 * A second exchange, on behalf of every request waiting, comes after a short backoff. The token
	 * another run of this process fetched, or is fetching, with the same values is taken instead of
	 * a new one, unless this run has already had it (then it was refused, or has expired).
	 */
	private async sendAfterBackoff(request: OutgoingRequest) {
		if (this.exchangeFailures > 0 && this.lastExchangeFailure !== undefined) {
			const { error, retryAfterMs } = this.lastExchangeFailure;
			const delay = this.backoffMs(retryAfterMs);
			// A poll whose deadline comes before the wait the endpoint asked for ends now, with that wait declared.
			if (systemClock.now() + delay > request.sendBy) throw error;
			await sleep(delay);
		}
		const key = credentialFingerprint(this.data);
		// No await between finding no exchange to share and starting one: two runs would start two.
		for (let newest = newestExchanges.get(key); newest && newest.doneAt >= this.credentialReadAt; newest = newestExchanges.get(key)) {
			const shared = await newest.token;
			if (shared !== undefined && !this.seenTokens.has(shared.token) && !stale(shared)) {
				Object.assign(this.data, shared);
				this.tokenGeneration++;
				this.noteToken(shared.token);
				return await this.sendWithCredential(inTime(request));
			}
			if (newestExchanges.get(key) === newest) break;
		}
		const leftInTime = inTime(request);
		let settle: (token: StoredToken | undefined) => void = () => undefined;
		const exchange: SharedExchange = { token: new Promise((resolve) => (settle = resolve)), doneAt: Infinity };
		newestExchanges.set(key, exchange);
		try {
			return await this.sendWithCredential(leftInTime);
		} finally {
			const { token, tokenExpires, tokenFingerprint } = this.data;
			exchange.doneAt = systemClock.now();
			settle(typeof token === 'string' && token !== '' ? { token, tokenExpires, tokenFingerprint } : undefined);
		}
	}

	private noteExchangeFailure(error: unknown): void {
		if (this.data.token !== '' || error instanceof NoTimeLeftForToken) return;
		const failure = describeFailure(error);
		this.lastExchangeFailure = { error, retryAfterMs: failure.retryAfterMs };
		if (failure.tokenRefused === true) {
			this.tokenRefusal = error;
		} else if (failure.networkCode === 'ETIMEDOUT' || ++this.exchangeFailures > 1) {
			// A hung endpoint would hang again: waiting a second Timeout would double what users set.
			this.tokenOutage = error;
		}
	}

	private noteToken(token: unknown): void {
		if (typeof token === 'string' && token !== '') this.seenTokens.add(token);
	}

	private async sendWithCredential(request: OutgoingRequest) {
		// With the token field empty, n8n runs the exchange before sending: a new token, whatever its text.
		const fetching = String(this.data.token ?? '') === '';
		const tokenUsed = fetching ? ++this.tokenGeneration : this.tokenGeneration;
		try {
			return { response: await this.sendWithToken(request), tokenUsed };
		} finally {
			if (fetching) this.noteToken(this.data.token);
		}
	}
}
