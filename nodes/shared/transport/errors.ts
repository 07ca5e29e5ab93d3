import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { EnvelopeError, vendorMessage } from './envelope';
import { declare, declaredFailure, withFailureOption, type RequestFailure } from './failure';
import { describeNetworkFailure, errorTexts } from './network';
import { parseRetryAfter } from './retryPolicy';
import { TOKEN_REDIRECTED, TOKEN_REFUSED, TokenRedirectError, TokenRequestError, tokenRetryAfterMs } from './token';
import { redirectHint } from './url';

/** failure.ts owns the type; callers of describeFailure and toNodeApiError name it from here. */
export type { RequestFailure };

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid.',
	401: 'The token was refused even after a new one was fetched: check the user name and API key.',
	403: 'The account is not allowed to do this.',
	404: 'Nothing exists at this id: check it, or whether it was deleted.',
	408: 'The service timed out waiting for the request.',
	409: 'The request conflicts with what the service holds (for example an e-mail already in use).',
	413: 'The request was too large for the service: shorten the texts sent.',
	414: 'The request address was too long for the service: check the ids sent.',
	415: 'The service did not accept the request format.',
	429: "The account's request quota was exceeded and retries did not get through: lower the node's concurrency or set a requests-per-minute cap.",
	431: 'The request address or headers were too large for the service: check the ids sent.',
	500: 'The service failed to process the request.',
	502: 'A gateway in front of the service got no valid answer from it: try again later.',
	503: 'The service is unavailable: try again later.',
	504: 'A gateway in front of the service gave up waiting for it: try again later.',
};

interface HttpErrorShape {
	code?: string;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	cause?: unknown;
	/** Where n8n's NodeError keeps what it wrapped when that was not recognised as an Error. */
	errorResponse?: unknown;
	message?: string;
}

/** n8n wraps the HTTP client's error in a NodeApiError; the facts live on the innermost one. */
function innermost(error: unknown): HttpErrorShape {
	let current = (error ?? {}) as HttpErrorShape;
	for (;;) {
		if (current.response || current instanceof TokenRequestError || current instanceof TokenRedirectError) return current;
		const wrapped = current.cause ?? current.errorResponse;
		if (typeof wrapped !== 'object' || wrapped === null) return current;
		current = wrapped as HttpErrorShape;
	}
}

function isHtml(data: unknown): boolean {
	return typeof data === 'string' && /^\s*</.test(data);
}

/** The service refused the user name or API key: retrying with the same credential cannot help. */
export function isTokenRefusal(failure: RequestFailure): boolean {
	return failure.tokenRefused === true;
}

/** A non-2xx answer: its status, the vendor's text, and when to come back. */
export function describeHttpFailure(
	status: number,
	body: unknown,
	headers: Record<string, unknown> = {},
	now = Date.now(),
): RequestFailure {
	const text = vendorMessage(body);
	const what = text
		? `: ${text}`
		: isHtml(body)
			? ' with an HTML page instead of JSON (often a proxy or gateway error)'
			: ' without saying why';
	return {
		status,
		vendorText: text,
		retryAfterMs: parseRetryAfter(headers['retry-after'], now),
		message: `The tracking API answered ${status}${what}`,
		description: STATUS_HINTS[status],
	};
}

/** Followed, a redirect would carry the token (n8n copies it to any host) and a 307/308 the body too. */
const REDIRECT_HINT = redirectHint('the token and the request');

/** A redirect answer to an API call, `target` where it pointed: not followed. */
export function describeRedirect(status: number, target: string): RequestFailure {
	return { status, message: `The tracking API answered ${status}, redirecting to ${target}: not followed`, description: REDIRECT_HINT };
}

/**
 * A 404 names the ids the request was for: the vendor says only "Device not found.", and in a run
 * of many items the user cannot tell which id it meant.
 */
export function namingIds(failure: RequestFailure, params: Record<string, string | undefined>): RequestFailure {
	const named = idsNamed(params);
	if (failure.status !== 404 || named === '') return failure;
	return { ...failure, message: `${failure.message} ${named}` };
}

/** The ids a request was for, as an error names them: `(device id "d-1", group id "g-2")`; empty for none. */
export function idsNamed(params: Record<string, string | undefined>): string {
	const ids = Object.entries(params)
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => `${name.replace(/Id$/, '')} id "${value}"`);
	return ids.length === 0 ? '' : `(${ids.join(', ')})`;
}

const CERTIFICATE_TEXT = /certificate|CERT_|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i;

/** A request to `url` that threw: no answer came (network, TLS, timeout) or the token exchange failed. */
export function describeFailure(error: unknown, url?: string): RequestFailure {
	if (error instanceof EnvelopeError) {
		return { message: error.message, vendorText: error.vendorMessage };
	}
	const inner = innermost(error);
	// Requests are sent with HTTP errors returned, not thrown, so a thrown status comes from the
	// credential's token exchange.
	const thrownStatus = Number((inner as { httpCode?: unknown }).httpCode ?? (error as { httpCode?: unknown })?.httpCode);
	if (inner instanceof TokenRequestError || (inner as { description?: unknown }).description === TOKEN_REFUSED) {
		return { status: 401, tokenRefused: true, message: `Authentication failed: ${inner.message}` };
	}
	if (inner instanceof TokenRedirectError || (inner as { description?: unknown }).description === TOKEN_REDIRECTED) {
		return { message: inner.message ?? 'The token request was redirected', description: TOKEN_REDIRECTED };
	}
	if (Number.isInteger(thrownStatus) && thrownStatus >= 400) {
		const retryAfterMs = tokenRetryAfterMs(inner as { description?: unknown });
		return {
			status: thrownStatus,
			message: `The token request answered ${thrownStatus}`,
			description: STATUS_HINTS[thrownStatus],
			...(retryAfterMs === undefined ? {} : { retryAfterMs }),
		};
	}
	if (inner.response?.status !== undefined) {
		return describeHttpFailure(inner.response.status, inner.response.data, inner.response.headers ?? {});
	}
	if (CERTIFICATE_TEXT.test(errorTexts(error))) {
		return {
			message: "The server's TLS certificate could not be verified",
			description:
				'If this is a test server with a self-signed certificate, turn on "Allow Unauthorized Certificates" in the credential.',
		};
	}
	const network = describeNetworkFailure(error, url);
	if (network) return network;
	return { message: `The request to the tracking API failed: ${inner.message ?? 'unknown error'}` };
}

/** A 401 that a freshly fetched token did not cure: the service refuses the call, not the token. */
export function refusedWithFreshToken(failure: RequestFailure): RequestFailure {
	return {
		status: 401,
		message: `The tracking API refuses this call with a fresh token${failure.vendorText ? `: ${failure.vendorText}` : ''}`,
		description:
			'The user name and API key were accepted and a new token was fetched, but the service refused it again for this call: the account may not be allowed it (check its API access in the web app), or the service is failing.',
	};
}

/**
 * A NodeApiError built only from the sanitized failure, so no header or token rides along; it
 * declares its cause (failure.ts) for n8n's scheduler.
 */
export function toNodeApiError(node: INode, failure: RequestFailure, itemIndex?: number): NodeApiError {
	const httpCode = failure.status === undefined ? undefined : String(failure.status);
	const declared = declaredFailure(failure);
	const error = new NodeApiError(node, { message: failure.message, httpCode: httpCode ?? null } as JsonObject, {
		message: failure.message,
		description: failure.description,
		httpCode,
		itemIndex,
		...withFailureOption(declared),
	});
	return declare(error, declared);
}
