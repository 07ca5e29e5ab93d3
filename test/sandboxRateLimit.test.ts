/** The sandbox's quota shapes (issue 50): the default sliding window, and fixed calendar windows. */
import { RateLimiter } from '../sandbox/rateLimit';

describe('RateLimiter', () => {
	it('fixed windows: counts per calendar second, refuses the rest of it with Retry-After 1, and starts afresh on the next', () => {
		const limiter = new RateLimiter();
		const limit = { requests: 2, windowMs: 1000, shape: 'fixed' as const };
		expect([900, 950, 990].map((at) => limiter.admit('a', limit, at))).toEqual([{ allowed: true }, { allowed: true }, { allowed: false, retryAfterSeconds: 1 }]);
		// A sliding window would still hold 900 and 950 at 1000; the fixed one is a new second.
		expect([1000, 1001, 1002].map((at) => limiter.admit('a', limit, at).allowed)).toEqual([true, true, false]);
		expect(limiter.admit('b', limit, 1003).allowed).toBe(true);
		expect(new RateLimiter().admit('a', { requests: 2, windowMs: 1000 }, 900).allowed).toBe(true);
	});

	it('the sliding window by default: 900 and 950 still count at 1000', () => {
		const limiter = new RateLimiter();
		const limit = { requests: 2, windowMs: 1000 };
		expect([900, 950, 1000].map((at) => limiter.admit('a', limit, at).allowed)).toEqual([true, true, false]);
	});
});
