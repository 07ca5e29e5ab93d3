/**
 * Why a request failed, declared the way n8n reads it: a plain `failure` object on the thrown error
 * (n8n-workflow's `Failure`, read by the durable scheduler's poll backoff since n8n 2.41). Written
 * out here rather than imported, so that n8n 2.8, which has no such type, loads the package too;
 * older n8n versions ignore the property. Pure.
 */
import type { FailureFacts } from './retryPolicy';

/** What went wrong with one request, stripped of everything that could carry a secret. */
export interface RequestFailure extends FailureFacts {
	message: string;
	/** The token exchange itself was refused (bad user name or API key). */
	tokenRefused?: boolean;
	description?: string;
	retryAfterMs?: number;
	/** The token exchange failed, so the request was never sent. */
	tokenExchangeFailed?: boolean;
	/** A poll's time budget ran out before the request was sent or answered. */
	outOfTime?: boolean;
	/** The service's own `error` text, when the answer had one. */
	vendorText?: string;
}

export type DeclaredFailure =
	| { cause: 'rate-limited' | 'temporarily-unavailable'; retryAfterMs?: number }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/**
 * The HTTP reason phrases the vendor's envelope carries as its `error` text, whatever the status it
 * came with (`{success: false, error: "Internal Server Error"}` at HTTP 200), for the causes they declare.
 */
const STATUS_BY_REASON: Record<string, number> = {
	'too many requests': 429,
	'internal server error': 500,
	'bad gateway': 502,
	'service unavailable': 503,
	'gateway timeout': 504,
};

/** The status the failure is: the answer's HTTP status, else the one its envelope's text names. */
function statusOf(failure: RequestFailure): number | undefined {
	if (failure.status !== undefined) return failure.status;
	const reason = failure.vendorText?.trim().replace(/\.$/, '').toLowerCase();
	return reason === undefined ? undefined : STATUS_BY_REASON[reason];
}

/** The cause of a failed request, when it is one a scheduler can act on; undefined otherwise. */
export function declaredFailure(failure: RequestFailure): DeclaredFailure | undefined {
	if (failure.tokenRefused === true) return { cause: 'credential-invalid' };
	// What the service asked, not the client's own capped wait: the scheduler waits as asked.
	const wait = failure.retryAfterMs !== undefined && failure.retryAfterMs > 0 ? { retryAfterMs: failure.retryAfterMs } : {};
	const status = statusOf(failure);
	if (status === 429) return { cause: 'rate-limited', ...wait };
	if ((status !== undefined && status >= 500) || failure.networkCode !== undefined || failure.outOfTime === true) {
		return { cause: 'temporarily-unavailable', ...wait };
	}
	return undefined;
}

/**
 * The `failure` option of n8n's NodeApiError and NodeOperationError (n8n-workflow 2.37+), for their
 * options object; hosts whose errors know no such option ignore it, and {@link declare} sets the
 * plain property there. Typed loosely: the n8n-workflow this package builds against predates it.
 */
export function withFailureOption(failure: DeclaredFailure | undefined): object {
	return failure === undefined ? {} : { failure };
}

/**
 * `error` with `failure` set as a plain, enumerable property (what n8n looks for along the error's
 * chain): on hosts whose errors took the `failure` option this is the value they hold already.
 */
export function declare<E extends object>(error: E, failure: DeclaredFailure | undefined): E {
	if (failure !== undefined) Object.assign(error, { failure });
	return error;
}

/** The failure an error declares, if any. */
export function failureOf(error: unknown): DeclaredFailure | undefined {
	const failure = (error as { failure?: unknown } | null)?.failure;
	return typeof failure === 'object' && failure !== null && typeof (failure as { cause?: unknown }).cause === 'string'
		? (failure as DeclaredFailure)
		: undefined;
}
