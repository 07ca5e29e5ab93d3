import { sleep } from 'n8n-workflow';

export interface PacerOptions {
	maxConcurrent: number;
	/** Cap on requests sent in any 60 s window; 0 or undefined for none. */
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
/** Too few recent successes say nothing about the quota; fall back to fewer parallel requests. */
const MIN_SUCCESSES_TO_LEARN = 10;

/**
 * Paces every request of one node run. A 429 pauses all of them, not only the one that got it,
 * then spaces sends just under the rate the service accepted before refusing (or, without enough
 * history, halves how many run at once), so a batch settles under the account's quota instead of
 * failing item after item or bursting into the next refusal.
 */
export class RequestPacer {
	private readonly maxConcurrent: number;

	private allowed: number;

	private running = 0;

	private successStreak = 0;

	private pausedUntil = -Infinity;

	private readonly waiting: Array<() => void> = [];

	/** When the answers of the requests counted in the rate window came in, oldest first. */
	private readonly answeredAt: number[] = [];

	/** Requests counted in the rate window whose answers are not in yet. */
	private unanswered = 0;

	/** Requests waiting for an unanswered request to come back before the rate window has room. */
	private readonly waitingForAnswers: Array<() => void> = [];

	private readonly requestsPerMinute: number;

	/** When recent successful answers came in, oldest first (the last 60 s at most). */
	private readonly succeededAt: number[] = [];

	/** Minimum spacing between sends learned from a 429; 0 while the service has not pushed back. */
	private spacingMs = 0;

	private nextSendAt = 0;

	constructor(options: PacerOptions, private readonly clock: Clock = systemClock) {
		this.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent));
		this.allowed = this.maxConcurrent;
		this.requestsPerMinute = Math.max(0, Math.floor(options.requestsPerMinute ?? 0));
	}

	/** Waits for a slot, a pause to end and the rate cap; returns the function that frees the slot. */
	async acquire(): Promise<() => void> {
		while (this.running >= this.allowed) {
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
		this.running++;
		let ready = false;
		let counted = false;
		try {
			await this.waitForPause();
			await this.waitForSpacing();
			counted = await this.waitForRateWindow();
			ready = true;
		} finally {
			if (!ready) this.release(false);
		}
		return () => this.release(counted);
	}

	succeeded(): void {
		const now = this.clock.now();
		this.succeededAt.push(now);
		while (this.succeededAt[0] <= now - RATE_WINDOW_MS) this.succeededAt.shift();
		if (this.allowed >= this.maxConcurrent) return;
		if (++this.successStreak >= SUCCESSES_PER_STEP_UP) {
			this.successStreak = 0;
			this.allowed++;
			this.wakeOne();
		}
	}

	/** The service pushed back: 429 (over the quota) or 503 (unavailable). */
	throttled(delayMs: number, overQuota: boolean): void {
		const now = this.clock.now();
		// No request is sent during a pause, so a 429 that arrives in one answers a request sent
		// before it: the same overload, already dealt with.
		if (this.pausedUntil <= now) {
			if (overQuota) this.learnQuota(now, delayMs);
			else this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		}
		this.pausedUntil = Math.max(this.pausedUntil, now + delayMs);
		this.successStreak = 0;
	}

	/**
	 * The service's quota window is unknown, but Retry-After says when it frees up: the requests it
	 * accepted over that span before refusing are about what it allows per span. Sends are then
	 * spaced to stay just under that rate, instead of bursting into the next refusal. Without
	 * enough recent successes to judge, fewer requests run at once instead.
	 */
	private learnQuota(now: number, retryAfterMs: number): void {
		const span = Math.min(Math.max(retryAfterMs, 1000), RATE_WINDOW_MS);
		const accepted = this.succeededAt.filter((at) => at > now - span).length;
		// After a pause, or with fewer requests at once, fewer were sent in the span, not fewer
		// accepted: learning from it would hold the rest of the run at that depressed rate.
		const heldBack = this.allowed < this.maxConcurrent || this.pausedUntil > now - span;
		if (accepted < MIN_SUCCESSES_TO_LEARN || (heldBack && this.spacingMs === 0)) {
			this.allowed = Math.max(1, Math.floor(this.allowed / 2));
			return;
		}
		const learnedSpacing = heldBack ? 0 : span / (accepted * LEARNED_RATE_SHARE);
		this.spacingMs = Math.max(this.spacingMs * 1.25, learnedSpacing);
	}

	private release(counted: boolean): void {
		this.running--;
		if (counted) {
			this.unanswered--;
			this.answeredAt.push(this.clock.now());
			this.waitingForAnswers.shift()?.();
		}
		this.wakeOne();
	}

	private wakeOne(): void {
		if (this.running < this.allowed) this.waiting.shift()?.();
	}

	private async waitForPause(): Promise<void> {
		for (let wait = this.pausedUntil - this.clock.now(); wait > 0; wait = this.pausedUntil - this.clock.now()) {
			await this.clock.sleep(wait);
		}
	}

	private async waitForSpacing(): Promise<void> {
		if (this.spacingMs === 0) return;
		const now = this.clock.now();
		const slot = Math.max(now, this.nextSendAt);
		this.nextSendAt = slot + this.spacingMs;
		if (slot > now) await this.clock.sleep(slot - now);
	}

	/**
	 * A request counts in the window from when it is sent until 60 s after its answer came in. The
	 * service counts it when it arrives, which is after it was sent and before it was answered, so
	 * the service never sees more than the cap in any 60 s, whatever the network delays; counting
	 * from the send alone lets a request sent late in one burst arrive in the service's window of
	 * the next. Answers true when the request was counted (a cap is set).
	 */
	private async waitForRateWindow(): Promise<boolean> {
		if (this.requestsPerMinute === 0) return false;
		for (;;) {
			const now = this.clock.now();
			while (this.answeredAt.length > 0 && this.answeredAt[0] <= now - RATE_WINDOW_MS) this.answeredAt.shift();
			if (this.answeredAt.length + this.unanswered < this.requestsPerMinute) {
				this.unanswered++;
				return true;
			}
			if (this.answeredAt.length > 0) {
				await this.clock.sleep(this.answeredAt[0] + RATE_WINDOW_MS - now);
			} else {
				// Every counted request is still under way: room comes with the first answer.
				await new Promise<void>((resolve) => this.waitingForAnswers.push(resolve));
			}
		}
	}
}
