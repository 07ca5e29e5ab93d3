import { systemClock, type Clock } from './clock';
import { FairSlots, type SlotHolder } from './fairSlots';
import { Pushback } from './pushback';
import { Queue } from './queue';
import { RateWindow } from './rateWindow';

export interface PacerOptions {
	maxConcurrency: number;
	/** Cap on requests the account is sent in any 60 s window; 0 or undefined for none. */
	requestsPerMinute?: number;
}

/** Successes in a row before one more request may run in parallel again after a halving. */
const SUCCESSES_PER_STEP_UP = 20;

/**
 * What one account's requests share in this n8n process, whichever run sends them: slots to run
 * requests in (fairSlots.ts), the requests of the last 60 s (rateWindow.ts), and a pause after a
 * 429 with the rate learned from it (pushback.ts). Several workflows on one account then stay under
 * its quota together.
 */
export class AccountQuota {
	readonly slots = new FairSlots();

	readonly window: RateWindow;

	readonly pushback: Pushback;

	constructor(clock: Clock = systemClock) {
		this.window = new RateWindow(clock);
		this.pushback = new Pushback(clock);
	}

	/**
	 * Nothing under way or waiting, nothing in the last 60 s, and no pause or learned rate in force:
	 * forgetting it loses nothing. A learned rate outlives a minute's idleness: a workflow run every
	 * few minutes would otherwise meet a 429 and its pause at every run.
	 */
	isIdle(now: number): boolean {
		return !this.slots.inUse && this.window.isEmpty(now) && this.pushback.holdsNothing(now);
	}
}

/**
 * One quota per account in this process; entries no run has used for a minute, and with no rate
 * learned from a 429 still in force, are dropped, so the map holds only the accounts in use. Each
 * n8n process (main or worker) has its own.
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
	quota.window.touch(now);
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
export class RequestPacer implements SlotHolder {
	readonly waiting = new Queue<() => void>();

	running = 0;

	allowed: number;

	private readonly maxConcurrency: number;

	private successStreak = 0;

	private readonly requestsPerMinute: number;

	/** When the request whose answer came in last was sent: a 429's round trip places it in its calendar second. */
	private lastAnsweredSentAt: number | undefined;

	constructor(
		options: PacerOptions,
		private readonly clock: Clock = systemClock,
		private readonly quota: AccountQuota = new AccountQuota(clock),
	) {
		this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency));
		this.allowed = this.maxConcurrency;
		this.requestsPerMinute = Math.floor(options.requestsPerMinute ?? 0);
	}

	/**
	 * Waits for a pause to end, the rate cap and a slot; returns the function that frees the slot,
	 * told `false` when the request was not sent after all.
	 */
	async acquire(): Promise<(sent?: boolean) => void> {
		const { pushback, window, slots } = this.quota;
		// Each wait is awaited only when there is one (see Pushback.waitForPause).
		let wait = pushback.waitForPause();
		if (wait) await wait;
		wait = window.count(this.requestsPerMinute);
		if (wait) await wait;
		wait = slots.take(this);
		if (wait) await wait;
		// A pause or a learned rate holds every run alike, so waiting for them in a slot delays no one.
		// A 429 that comes while a request waits for its spaced turn pauses that request too.
		wait = pushback.waitForPause();
		if (wait) await wait;
		wait = pushback.waitForSpacing();
		if (wait) await wait;
		const sentAt = this.clock.now();
		return (sent = true) => {
			if (sent) {
				window.answered();
				this.lastAnsweredSentAt = sentAt;
			} else {
				window.notSent();
			}
			slots.free(this);
		};
	}

	succeeded(): void {
		this.quota.pushback.succeeded();
		if (this.allowed >= this.maxConcurrency) return;
		if (++this.successStreak >= SUCCESSES_PER_STEP_UP) {
			this.successStreak = 0;
			this.allowed++;
			this.quota.slots.dispatch();
		}
	}

	/** The service pushed back: 429 (over the quota, `overQuota` when it said when to return) or 503. */
	throttled(delayMs: number, overQuota: boolean): void {
		const now = this.clock.now();
		const pushback = this.quota.pushback;
		// No request is sent during a pause, so a 429 that arrives in one answers a request sent
		// before it: the same overload, already dealt with.
		if (pushback.pausedUntil <= now && !(overQuota && pushback.learn(now, delayMs, this.lastAnsweredSentAt))) {
			this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		}
		pushback.pause(now + delayMs);
		this.successStreak = 0;
	}
}
