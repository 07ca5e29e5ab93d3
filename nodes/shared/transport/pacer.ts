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

/**
 * Paces every request of one node run. A 429 pauses all of them, not only the one that got it,
 * and halves how many run at once (growing back as requests succeed), so a batch settles under
 * the account's quota instead of failing item after item.
 */
export class RequestPacer {
	private readonly maxConcurrent: number;

	private allowed: number;

	private running = 0;

	private successStreak = 0;

	private pausedUntil = 0;

	private readonly waiting: Array<() => void> = [];

	private readonly sentAt: number[] = [];

	private readonly requestsPerMinute: number;

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
		try {
			await this.waitForPause();
			await this.waitForRateWindow();
			ready = true;
		} finally {
			if (!ready) this.release();
		}
		return () => this.release();
	}

	succeeded(): void {
		if (this.allowed >= this.maxConcurrent) return;
		if (++this.successStreak >= SUCCESSES_PER_STEP_UP) {
			this.successStreak = 0;
			this.allowed++;
			this.wakeOne();
		}
	}

	throttled(delayMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + delayMs);
		this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		this.successStreak = 0;
	}

	private release(): void {
		this.running--;
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

	private async waitForRateWindow(): Promise<void> {
		if (this.requestsPerMinute === 0) return;
		for (;;) {
			const now = this.clock.now();
			while (this.sentAt.length > 0 && this.sentAt[0] <= now - RATE_WINDOW_MS) this.sentAt.shift();
			if (this.sentAt.length < this.requestsPerMinute) {
				this.sentAt.push(now);
				return;
			}
			await this.clock.sleep(this.sentAt[0] + RATE_WINDOW_MS - now);
		}
	}
}
