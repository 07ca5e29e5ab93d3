import { sleep } from 'n8n-workflow';

import { Queue } from './queue';

export interface PacerOptions {
	maxConcurrency: number;
	/** Cap on requests the account is sent in any 60 s window; 0 or undefined for none. */
	requestsPerMinute?: number;
}

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

// Date.now read at each call, so a test's fake timers reach it.
const systemClock: Clock = { now: () => Date.now(), sleep };

const RATE_WINDOW_MS = 60_000;
/** Successes in a row before one more request may run in parallel again after a halving. */
const SUCCESSES_PER_STEP_UP = 20;
/**
 * After a 429, requests are paced a little under the rate the service accepted before it. Sends are
 * evenly spaced, so 2% below leaves room for arrival jitter: at 200/s, 0.95 left 5% of the quota
 * unused and 0.98 drew no more 429s.
 */
const LEARNED_RATE_SHARE = 0.98;
/**
 * A send up to this late for its turn keeps the pace: timers fire late on a busy process, which must
 * not slow it (at 5 ms, turns 6 ms late cut 196/s to 90/s). One later than that, after a stalled
 * event loop or an idle spell, starts the pace afresh from now, so the overdue sends do not go in one
 * burst over the quota (20 under way at 200/s drew a 429 every few seconds that way). Any span of a
 * learned window W then holds fewer than 0.98 × (W + 10 ms) / W of the requests the service
 * accepted in W: 1% under its quota for the shortest window learned (1 s), left for the network's
 * jitter (at 15 ms, one run in four drew a second 429 at 200/s), and far under it for a minute.
 */
const SPACING_LATENESS_KEPT_MS = 10;
/** Retry-After counts whole seconds, rounded up. */
const RETRY_AFTER_ROUNDING_MS = 1000;
/** Too few recent successes say nothing about the quota; fall back to fewer parallel requests. */
const MIN_SUCCESSES_TO_LEARN = 10;
/**
 * A learned rate is dropped this long after the 429 that taught it: the quota may have been
 * raised, or the 429 may have been spent by another client of the account. The run then tries
 * full speed again, and one more 429 teaches the rate anew.
 */
const LEARNED_RATE_LIFETIME_MS = 5 * 60_000;

/**
 * What one account's requests share in this n8n process, whichever run sends them: slots to run
 * requests in, the requests of the last 60 s, a pause after a 429 and the rate learned from it.
 * Several workflows on one account then stay under its quota together.
 */
export class AccountQuota {
	pausedUntil = -Infinity;

	/** Requests to the account under way, from every run. */
	private running = 0;

	/** Runs with requests waiting for a slot, in turn: a run served goes to the back. */
	private readonly turns: RequestPacer[] = [];

	/** Runs with requests waiting or under way: the most any of them allows is the account's limit. */
	private readonly active = new Set<RequestPacer>();

	/** When the answers of the requests counted in the rate window came in, oldest first. */
	private readonly answeredAt = new Queue<number>();

	/** Requests counted in the rate window whose answers are not in yet. */
	private unanswered = 0;

	private readonly waitingForAnswers = new Queue<() => void>();

	/** When recent successful answers came in, oldest first (the last 60 s at most). */
	private readonly succeededAt = new Queue<number>();

	/** Minimum spacing between sends learned from a 429; 0 while none is in force. */
	private spacingMs = 0;

	private learnedAt = -Infinity;

	private nextSendAt = 0;

	/** Requests waiting for a spaced turn, oldest first: one timer wakes the first when it is due. */
	private readonly spacedTurns = new Queue<() => void>();

	private spacedTurnTimerSet = false;

	private lastActivityAt = -Infinity;

	constructor(readonly clock: Clock = systemClock) {}

	touch(now: number): void {
		this.lastActivityAt = Math.max(this.lastActivityAt, now);
	}

	/** Nothing under way or waiting, no pause and nothing in the last 60 s: forgetting it loses nothing. */
	isIdle(now: number): boolean {
		return this.active.size === 0 && this.unanswered === 0 && this.pausedUntil <= now && this.lastActivityAt <= now - RATE_WINDOW_MS;
	}

	/**
	 * A slot for one of `run`'s requests. Free slots go to the waiting runs in turn, one request
	 * each, so a single read from one workflow is not queued behind a poll's hundreds of reads.
	 */
	takeSlot(run: RequestPacer): Promise<void> | undefined {
		this.active.add(run);
		if (this.turns.length === 0 && run.mayStart() && this.running < this.limit()) {
			this.start(run);
			return undefined;
		}
		const turn = new Promise<void>((resolve) => run.waiting.push(resolve));
		if (!this.turns.includes(run)) this.turns.push(run);
		this.dispatch();
		return turn;
	}

	freeSlot(run: RequestPacer): void {
		this.running--;
		run.running--;
		if (run.running === 0 && run.waiting.length === 0) this.active.delete(run);
		this.dispatch();
	}

	/** The account's Max Concurrent Requests: four runs at 8 keep 8 under way together, not 32. */
	private limit(): number {
		let limit = 1;
		for (const run of this.active) limit = Math.max(limit, run.allowed);
		return limit;
	}

	dispatch(): void {
		while (this.running < this.limit()) {
			const index = this.turns.findIndex((run) => run.mayStart());
			if (index < 0) return;
			const [run] = this.turns.splice(index, 1);
			const resolve = run.waiting.shift()!;
			if (run.waiting.length > 0) this.turns.push(run);
			this.start(run);
			resolve();
		}
	}

	private start(run: RequestPacer): void {
		this.running++;
		run.running++;
	}

	/**
	 * The waits below return nothing when there is nothing to wait for, which is most requests: an
	 * async function's promise and a turn of the event loop for each was a share of the node's cost
	 * over n8n's bare request helper (bench P2, P3).
	 */
	waitForPause(): Promise<void> | undefined {
		return this.pausedUntil > this.clock.now() ? this.sleepOutPause() : undefined;
	}

	private async sleepOutPause(): Promise<void> {
		for (let wait = this.pausedUntil - this.clock.now(); wait > 0; wait = this.pausedUntil - this.clock.now()) {
			await this.clock.sleep(wait);
		}
	}

	/**
	 * Nothing when this request may go now under the learned rate, else a wait that ends when it
	 * may, in the order the requests asked (a single read from another run is not overtaken by a
	 * poll's later reads). A turn is taken when its request goes, not booked ahead: requests that a
	 * stalled event loop made late go one spacing apart, not all at once.
	 */
	waitForSpacing(): Promise<void> | undefined {
		const now = this.clock.now();
		if (!this.spacingInForce(now)) return undefined;
		if (this.spacedTurns.length === 0 && this.nextSendAt <= now && this.pausedUntil <= now) {
			this.takeSpacedTurn(now);
			return undefined;
		}
		const turn = new Promise<void>((resolve) => this.spacedTurns.push(resolve));
		this.wakeForNextSpacedTurn();
		return turn;
	}

	private spacingInForce(now: number): boolean {
		if (now - this.learnedAt > LEARNED_RATE_LIFETIME_MS) this.spacingMs = 0;
		return this.spacingMs > 0;
	}

	private takeSpacedTurn(now: number): void {
		this.nextSendAt = (now - this.nextSendAt <= SPACING_LATENESS_KEPT_MS ? this.nextSendAt : now) + this.spacingMs;
	}

	/** One timer for all the waiting requests: waking each of them at every turn cost CPU. */
	private wakeForNextSpacedTurn(): void {
		if (this.spacedTurnTimerSet) return;
		this.spacedTurnTimerSet = true;
		const dueAt = Math.max(this.nextSendAt, this.pausedUntil);
		void this.clock.sleep(Math.max(0, dueAt - this.clock.now())).then(() => {
			this.spacedTurnTimerSet = false;
			const now = this.clock.now();
			while (this.spacedTurns.length > 0 && this.pausedUntil <= now) {
				if (this.spacingInForce(now)) {
					if (this.nextSendAt > now) break;
					this.takeSpacedTurn(now);
				}
				this.spacedTurns.shift()!();
			}
			if (this.spacedTurns.length > 0) this.wakeForNextSpacedTurn();
		});
	}

	/**
	 * Counts one request in the 60 s window, waiting first while `cap` (0: none) is reached. Every
	 * request counts from when it is sent until 60 s after its answer came in, whichever run sent
	 * it: the service counts it when it arrives, somewhere in between, so it never sees more than
	 * the cap in any 60 s, whatever the network delays.
	 */
	countInRateWindow(cap: number): Promise<void> | undefined {
		return this.countIfRoom(cap) ? undefined : this.waitForRoom(cap);
	}

	private countIfRoom(cap: number): boolean {
		const now = this.clock.now();
		this.forgetOlderThan(now - RATE_WINDOW_MS);
		if (cap !== 0 && this.answeredAt.length + this.unanswered >= cap) return false;
		this.unanswered++;
		this.lastActivityAt = now;
		return true;
	}

	/** Called when countIfRoom found none: waits, then counts the request once there is room. */
	private async waitForRoom(cap: number): Promise<void> {
		do {
			const oldest = this.answeredAt.peek();
			if (oldest !== undefined) {
				await this.clock.sleep(oldest + RATE_WINDOW_MS - this.clock.now());
			} else {
				// Every counted request is still under way: room comes with the first answer.
				await new Promise<void>((resolve) => this.waitingForAnswers.push(resolve));
			}
		} while (!this.countIfRoom(cap));
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
	 * spaced just under that rate, instead of bursting into the next refusal. Each 429 measures the
	 * rate afresh, and the rate lapses after a while. Answers false when the span says nothing (too
	 * few answers, or a pause within it), and the caller should run fewer requests at once instead.
	 */
	learn(now: number, retryAfterMs: number): boolean {
		const span = Math.min(Math.max(retryAfterMs, 1000), RATE_WINDOW_MS);
		const acceptedAt = [...this.succeededAt].filter((at) => at > now - span);
		if (acceptedAt.length < MIN_SUCCESSES_TO_LEARN || this.pausedUntil > now - span) return false;
		// A quota spent in a burst much shorter than the wait (600 accepted in 3 s, then 57 s to wait)
		// was counted over the burst and the wait together: 600 per 60 s, not per 57 s. Retry-After
		// comes in whole seconds, rounded up, so up to one of them is no part of the window.
		const burstMs = now - acceptedAt[0];
		const window =
			burstMs < span / 2 ? Math.min(Math.max(span, span - RETRY_AFTER_ROUNDING_MS + burstMs), RATE_WINDOW_MS) : span;
		this.spacingMs = window / (acceptedAt.length * LEARNED_RATE_SHARE);
		this.learnedAt = now;
		return true;
	}

	pause(until: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, until);
	}

	private forgetOlderThan(cutoff: number): void {
		while (this.answeredAt.length > 0 && this.answeredAt.peek()! <= cutoff) this.answeredAt.shift();
		while (this.succeededAt.length > 0 && this.succeededAt.peek()! <= cutoff) this.succeededAt.shift();
	}
}

/**
 * One quota per account in this process; entries no run has used for a minute are dropped, so
 * the map holds only the accounts in use. Each n8n process (main or worker) has its own.
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
 * Paces the requests of one node run on its account. A request first waits out a pause and this
 * run's cap without holding a slot, so a capped run waiting for its window never delays another
 * run; then it takes a slot in its run's turn. A 429 pauses every run on the account and spaces
 * sends under the rate the service accepted (or, with too little to judge by, halves how many
 * this run sends at once), so a batch settles under the quota instead of failing item after item.
 */
export class RequestPacer {
	/** This run's requests waiting for a slot, oldest first. */
	readonly waiting = new Queue<() => void>();

	running = 0;

	allowed: number;

	private readonly maxConcurrency: number;

	private successStreak = 0;

	private readonly requestsPerMinute: number;

	constructor(
		options: PacerOptions,
		private readonly clock: Clock = systemClock,
		private readonly quota: AccountQuota = new AccountQuota(clock),
	) {
		this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
		this.allowed = this.maxConcurrency;
		this.requestsPerMinute = Math.floor(options.requestsPerMinute ?? 0);
	}

	mayStart(): boolean {
		return this.running < this.allowed;
	}

	/** Waits for a pause to end, the rate cap and a slot; returns the function that frees the slot. */
	async acquire(): Promise<() => void> {
		const quota = this.quota;
		// Each wait is awaited only when there is one (see waitForPause).
		let wait = quota.waitForPause();
		if (wait) await wait;
		wait = quota.countInRateWindow(this.requestsPerMinute);
		if (wait) await wait;
		wait = quota.takeSlot(this);
		if (wait) await wait;
		// A pause or a learned rate holds every run alike, so waiting for them in a slot delays no one.
		// A 429 that comes while a request waits for its spaced turn pauses that request too.
		wait = quota.waitForPause();
		if (wait) await wait;
		wait = quota.waitForSpacing();
		if (wait) await wait;
		return () => {
			quota.answered();
			quota.freeSlot(this);
		};
	}

	succeeded(): void {
		this.quota.succeeded();
		if (this.allowed >= this.maxConcurrency) return;
		if (++this.successStreak >= SUCCESSES_PER_STEP_UP) {
			this.successStreak = 0;
			this.allowed++;
			this.quota.dispatch();
		}
	}

	/** The service pushed back: 429 (over the quota, `overQuota` when it said when to return) or 503. */
	throttled(delayMs: number, overQuota: boolean): void {
		const now = this.clock.now();
		// No request is sent during a pause, so a 429 that arrives in one answers a request sent
		// before it: the same overload, already dealt with.
		if (this.quota.pausedUntil <= now && !(overQuota && this.quota.learn(now, delayMs))) {
			this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		}
		this.quota.pause(now + delayMs);
		this.successStreak = 0;
	}
}
