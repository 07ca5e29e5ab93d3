/** A sliding-window request limit per account, as the vendor's "requests per minute" limit. */

export interface RateLimit {
	requests: number;
	windowMs: number;
	/** Count token calls against the account too (default false: only bearer calls count). */
	includeTokenCalls?: boolean;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
	private readonly hits = new Map<string, number[]>();

	/** Only admitted requests enter the window, so a client that honours Retry-After gets through then. */
	admit(userName: string, limit: RateLimit, now: number): RateDecision {
		const key = userName.toLowerCase();
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

	reset(): void {
		this.hits.clear();
	}
}
