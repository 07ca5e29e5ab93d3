import { sleep } from 'n8n-workflow';

export interface PacerOptions {
	maxConcurrency: number;
	/** Cap on requests the account is sent in any 60 s window; 0 or undefined for none. */
	requestsPerMinute?: number;
}

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const systemClock: Clock = { now: Date.now, sleep };

const RATE_WINDOW_MS = 60_000;
/** Successes in a row before one more request may run in parallel again after a 429. */
const SUCCESSES_PER_STEP_UP = 20;
/** After a 429, requests are paced a little under the rate the service accepted before it. */
const LEARNED_RATE_SHARE = 0.95;
/** Retry-After counts whole seconds, rounded up. */
const RETRY_AFTER_ROUNDING_MS = 1000;
/** Too few recent successes say nothing about the quota; fall back to fewer parallel requests. */
const MIN_SUCCESSES_TO_LEARN = 10;

/**
 * What the service knows of one account's quota, shared by every node run in this n8n process
 * that uses the account: the requests of the last 60 s, a pause after a 429, and the sending rate
 * learned from it. Several workflows at once then stay under one quota together, instead of
 * each pacing itself alone and overrunning it between them.
 */
export class AccountQuota {
	pausedUntil = -Infinity;

	/** Requests to the account under way, from every run. */
	private running = 0;

	/** Runs' requests waiting for fewer to be under way than their run allows. */
	private readonly waiting: Array<{ limit: number; resolve: () => void }> = [];

	/** When the answers of the requests counted in the rate window came in, oldest first. */
	private readonly answeredAt: number[] = [];

	/** Requests counted in the rate window whose answers are not in yet. */
	private unanswered = 0;

	/** Requests waiting for an unanswered request to come back before the rate window has room. */
	private readonly waitingForAnswers: Array<() => void> = [];

	/** When recent successful answers came in, oldest first (the last 60 s at most). */
	private readonly succeededAt: number[] = [];

	/** Minimum spacing between sends learned from a 429; 0 while the service has not pushed back. */
	private spacingMs = 0;

	private nextSendAt = 0;

	private lastActivityAt = -Infinity;

	constructor(readonly clock: Clock = systemClock) {}

	/** A run took this quota: keep it for at least the next minute. */
	touch(now: number): void {
		this.lastActivityAt = Math.max(this.lastActivityAt, now);
	}

	/** Nothing under way, no pause and nothing in the last 60 s: forgetting it loses nothing. */
	isIdle(now: number): boolean {
		return this.running === 0 && this.unanswered === 0 && this.pausedUntil <= now && this.lastActivityAt <= now - RATE_WINDOW_MS;
	}

	/**
	 * Waits until fewer than `limit` requests to the account are under way, counting other runs':
	 * a run's Max Concurrent Requests holds for the account, so four runs at 8 keep 8 under way, not
	 * 32, and meet a quota's first refusal with a few requests in flight instead of dozens.
	 */
	async takeSlot(limit: () => number): Promise<void> {
		while (this.running >= limit()) {
			await new Promise<void>((resolve) => this.waiting.push({ limit: limit(), resolve }));
		}
		this.running++;
	}

	freeSlot(): void {
		this.running--;
		this.wake();
	}

	/** Wakes the longest-waiting request whose run allows one more under way now. */
	wake(): void {
		const index = this.waiting.findIndex((waiter) => this.running < waiter.limit);
		if (index >= 0) this.waiting.splice(index, 1)[0].resolve();
	}

	async waitForPause(): Promise<void> {
		for (let wait = this.pausedUntil - this.clock.now(); wait > 0; wait = this.pausedUntil - this.clock.now()) {
			await this.clock.sleep(wait);
		}
	}

	async waitForSpacing(): Promise<void> {
		if (this.spacingMs === 0) return;
		const now = this.clock.now();
		const slot = Math.max(now, this.nextSendAt);
		this.nextSendAt = slot + this.spacingMs;
		if (slot > now) await this.clock.sleep(slot - now);
	}

	/**
	 * Every request counts in the window from when it is sent until 60 s after its answer came in,
	 * whichever run sent it and whether or not that run has a cap. The service counts it when it
	 * arrives, which is after it was sent and before it was answered, so the service never sees
	 * more than the cap in any 60 s, whatever the network delays; counting from the send alone
	 * lets a request sent late in one burst arrive in the service's window of the next.
	 */
	async waitForRateWindow(cap: number): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			this.forgetOlderThan(now - RATE_WINDOW_MS);
			if (cap === 0 || this.answeredAt.length + this.unanswered < cap) {
				this.unanswered++;
				this.lastActivityAt = now;
				return;
			}
			if (this.answeredAt.length > 0) {
				await this.clock.sleep(this.answeredAt[0] + RATE_WINDOW_MS - now);
			} else {
				// Every counted request is still under way: room comes with the first answer.
				await new Promise<void>((resolve) => this.waitingForAnswers.push(resolve));
			}
		}
	}

	answered(): void {
		const now = this.clock.now();
		this.unanswered--;
		this.answeredAt.push(now);
		this.lastActivityAt = now;
		this.waitingForAnswers.shift()?.();
	}

	succeeded(): void {
		const now = this.clock.now();
		this.succeededAt.push(now);
		this.forgetOlderThan(now - RATE_WINDOW_MS);
	}

	/**
	 * The service's quota window is unknown, but Retry-After says when it frees up: the requests it
	 * accepted over that span before refusing are about what it allows per span. Sends are then
	 * spaced to stay just under that rate, instead of bursting into the next refusal. Answers false
	 * when there is too little to judge by, and the caller should run fewer requests at once instead.
	 * `heldBack`: the caller ran fewer requests at once than it may.
	 */
	learn(now: number, retryAfterMs: number, heldBack: boolean): boolean {
		const span = Math.min(Math.max(retryAfterMs, 1000), RATE_WINDOW_MS);
		const acceptedAt = this.succeededAt.filter((at) => at > now - span);
		const accepted = acceptedAt.length;
		// After a pause, or with fewer requests at once, fewer were sent in the span, not fewer
		// accepted: learning from it would hold the rest of the run at that depressed rate.
		const wasHeldBack = heldBack || this.pausedUntil > now - span;
		if (accepted < MIN_SUCCESSES_TO_LEARN || (wasHeldBack && this.spacingMs === 0)) return false;
		// A quota spent in a burst much shorter than the wait (600 accepted in 3 s, then 57 s to wait)
		// was counted over the burst and the wait together: 600 per 60 s, not per 57 s, which would
		// pace right at the quota and meet it again. Retry-After comes in whole seconds, rounded up,
		// so up to one of them is no part of the window (a 1 s window spent in 0.3 s says 1, not 0.7).
		const burstMs = now - acceptedAt[0];
		const window =
			burstMs < span / 2 ? Math.min(Math.max(span, span - RETRY_AFTER_ROUNDING_MS + burstMs), RATE_WINDOW_MS) : span;
		const learnedSpacing = wasHeldBack ? 0 : window / (accepted * LEARNED_RATE_SHARE);
		this.spacingMs = Math.max(this.spacingMs * 1.25, learnedSpacing);
		return true;
	}

	pause(until: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, until);
	}

	private forgetOlderThan(cutoff: number): void {
		while (this.answeredAt.length > 0 && this.answeredAt[0] <= cutoff) this.answeredAt.shift();
		while (this.succeededAt.length > 0 && this.succeededAt[0] <= cutoff) this.succeededAt.shift();
	}
}

/**
 * One quota per account in this process; entries no run has used for a minute are dropped, so
 * the map holds only the accounts in use. Module state, not a global: each n8n process (main or
 * worker) has its own, which is as far as a node's memory reaches.
 */
const accountQuotas = new Map<string, AccountQuota>();

export function quotaForAccount(account: string, clock: Clock = systemClock): AccountQuota {
	const now = clock.now();
	for (const [key, quota] of accountQuotas) {
		if (quota.isIdle(now)) accountQuotas.delete(key);
	}
	let quota = accountQuotas.get(account);
	if (!quota) {
		quota = new AccountQuota(clock);
		accountQuotas.set(account, quota);
	}
	quota.touch(now);
	return quota;
}

/** How many accounts the process keeps a quota for (for tests of the registry's memory). */
export function trackedAccounts(): number {
	return accountQuotas.size;
}

/**
 * Paces every request of one node run against its account's quota. A 429 pauses all requests to
 * the account, not only the one that got it, then spaces sends just under the rate the service
 * accepted before refusing (or, without enough history, halves how many this run sends at once),
 * so a batch settles under the account's quota instead of failing item after item or bursting
 * into the next refusal.
 */
export class RequestPacer {
	private readonly maxConcurrency: number;

	private allowed: number;

	private successStreak = 0;

	private readonly requestsPerMinute: number;

	private readonly clock: Clock;

	constructor(
		options: PacerOptions,
		clock: Clock = systemClock,
		private readonly quota: AccountQuota = new AccountQuota(clock),
	) {
		this.clock = clock;
		this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
		this.allowed = this.maxConcurrency;
		this.requestsPerMinute = Math.max(0, Math.floor(options.requestsPerMinute ?? 0));
	}

	/** Waits for a slot, a pause to end and the rate cap; returns the function that frees the slot. */
	async acquire(): Promise<() => void> {
		await this.quota.takeSlot(() => this.allowed);
		let counted = false;
		try {
			await this.quota.waitForPause();
			await this.quota.waitForSpacing();
			await this.quota.waitForRateWindow(this.requestsPerMinute);
			counted = true;
		} finally {
			if (!counted) this.release(false);
		}
		return () => this.release(true);
	}

	succeeded(): void {
		this.quota.succeeded();
		if (this.allowed >= this.maxConcurrency) return;
		if (++this.successStreak >= SUCCESSES_PER_STEP_UP) {
			this.successStreak = 0;
			this.allowed++;
			this.quota.wake();
		}
	}

	/** The service pushed back: 429 (over the quota) or 503 (unavailable). */
	throttled(delayMs: number, overQuota: boolean): void {
		const now = this.clock.now();
		// No request is sent during a pause, so a 429 that arrives in one answers a request sent
		// before it: the same overload, already dealt with.
		if (this.quota.pausedUntil <= now) {
			const learned = overQuota && this.quota.learn(now, delayMs, this.allowed < this.maxConcurrency);
			if (!learned) this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		}
		this.quota.pause(now + delayMs);
		this.successStreak = 0;
	}

	private release(counted: boolean): void {
		if (counted) this.quota.answered();
		this.quota.freeSlot();
	}
}
