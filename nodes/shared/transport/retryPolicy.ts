/** How the transport decides whether, and when, to send a failed request again. Pure. */

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

export interface FailureFacts {
	status?: number;
	/** A transport-level failure: reset, refused, timeout. */
	networkCode?: string;
}

export function isRetryable(failure: FailureFacts, isRead: boolean): boolean {
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

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: unknown, now: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
