import { createHash } from 'node:crypto';

import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { parseServiceTime } from '../validation';
import { TOKEN_PATH, type TokenAnswer, type TokenRequest } from '../wire';
import { describeNetworkFailure } from './network';
import { redact } from './redact';
import { parseRetryAfter } from './retryPolicy';
import { baseUrlHint, baseUrlProblem, joinUrl, redirectHint, redirectTarget } from './url';

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

// n8n rewraps whatever preAuthentication throws in a NodeApiError that keeps the message, the
// `description` and `httpCode` but drops the error's class; those fields carry what the transport
// needs to know.

export const TOKEN_REFUSED = 'The tracking API refused the user name or API key.';

/**
 * The service refused the user name or API key; the message is the vendor's own text, which is
 * what n8n's credential test shows. No `httpCode`: with one, n8n would replace the message with its
 * generic text for the status.
 */
export class TokenRequestError extends Error {
	readonly description = TOKEN_REFUSED;
}

/**
 * A token call the service could not serve now (quota, outage): the transport may retry it. The
 * wait its Retry-After asked for rides in the description, which n8n's rewrap keeps (see above).
 */
export class TokenUnavailableError extends Error {
	readonly httpCode: string;

	readonly description?: string;

	constructor(status: number, retryAfterMs?: number) {
		super(`The token request answered ${status}`);
		this.httpCode = String(status);
		if (retryAfterMs !== undefined) this.description = `The token endpoint asks to be called again in ${retryAfterMs / 1000} s (Retry-After).`;
	}
}

const RETRY_AFTER_TEXT = /asks to be called again in (\d+(?:\.\d+)?) s \(Retry-After\)/;

/** The wait a TokenUnavailableError carries, also after n8n rewrapped it; undefined without one. */
export function tokenRetryAfterMs(error: { description?: unknown }): number | undefined {
	const said = typeof error.description === 'string' ? RETRY_AFTER_TEXT.exec(error.description) : null;
	return said === null ? undefined : Math.round(Number(said[1]) * 1000);
}

/** No answer to the token request (refused connection, unknown host, timeout): says where it went. */
export class TokenUnreachableError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

export const TOKEN_REDIRECTED = redirectHint('the API key');

/**
 * The token request was answered with a redirect, which is not followed: a 307/308 would send the
 * user name and API key to wherever it points. No `httpCode`, as for TokenRequestError.
 */
export class TokenRedirectError extends Error {
	readonly description = TOKEN_REDIRECTED;

	constructor(status: number, target: string) {
		super(`The token request was answered ${status}, redirecting to ${target}: not followed`);
	}
}

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
