/**
 * A request limit per account, as the vendor's "requests per minute" limit, whose shape the vendor
 * does not publish: a sliding window by default, or `fixed` windows (requests counted per calendar
 * window, e.g. per second on the clock, `Retry-After` the rest of the window rounded up).
 */

export interface RateLimit {
	requests: number;
	windowMs: number;
	/** Count token calls against the account too (default false: only bearer calls count). */
	includeTokenCalls?: boolean;
	/** `sliding` (default) or `fixed`. */
	shape?: 'sliding' | 'fixed';
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
	private readonly hits = new Map<string, number[]>();
	private readonly windows = new Map<string, { start: number; count: number }>();

	/** Only admitted requests enter the window, so a client that honours Retry-After gets through then. */
	admit(userName: string, limit: RateLimit, now: number): RateDecision {
		const key = userName.toLowerCase();
		if (limit.shape === 'fixed') return this.admitFixed(key, limit, now);
		const windowStart = now - limit.windowMs;
		const recent = (this.hits.get(key) ?? []).filter((at) => at > windowStart);
		this.hits.set(key, recent);
		if (recent.length < limit.requests) {
			recent.push(now);
			return { allowed: true };
		}
		const freedAt = recent[recent.length - limit.requests] + limit.windowMs;
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now) / 1000)) };
	}

	private admitFixed(key: string, limit: RateLimit, now: number): RateDecision {
		const windowStart = now - (now % limit.windowMs);
		const window = this.windows.get(key);
		const counted = window?.start === windowStart ? window.count : 0;
		if (counted < limit.requests) {
			this.windows.set(key, { start: windowStart, count: counted + 1 });
			return { allowed: true };
		}
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + limit.windowMs - now) / 1000)) };
	}

	reset(): void {
		this.hits.clear();
		this.windows.clear();
	}
}
