/**
 * The pacer, from the top: the account's quota (AccountQuota) and the registry of them, a run's
 * pacer over it (RequestPacer), the pacer's clock, then the parts of a quota: the slots (FairSlots,
 * Max Concurrent Requests), the last 60 s (RateWindow, Max Requests per Minute), what a 429 taught
 * (Pushback), and the queue they wait in.
 */
import { sleep } from 'n8n-workflow';

export interface PacerOptions {
	maxConcurrency: number;
	/** Cap on requests the account is sent in any 60 s window; 0 or undefined for none. */
	requestsPerMinute?: number;
}

/** Successes in a row before one more request may run in parallel again after a halving. */
const SUCCESSES_PER_STEP_UP = 20;

/**
 * What one account's requests share in this n8n process, whichever run sends them: slots to run
 * requests in (FairSlots), the requests of the last 60 s (RateWindow), and a pause after a 429
 * with the rate learned from it (Pushback). Several workflows on one account then stay under
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
 * Which account a Base URL and user name reach, the way the service sees them: host case, a
 * default port, a trailing slash or space make no other account.
 */
export function accountKey(baseUrl: string, userName: string): string {
	let origin = baseUrl.trim();
	try {
		const url = new URL(origin);
		origin = `${url.protocol}//${url.host}${url.pathname}`;
	} catch {
		// Not a URL: no request will reach it either; key it as entered.
	}
	return `${origin.replace(/\/+$/, '')}\n${userName.trim().toLowerCase()}`;
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

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	/**
	 * The calendar's time (ms since the epoch), read only for where a calendar second begins: a
	 * service that counts requests per calendar second starts its count there. Without it, `now`.
	 */
	calendarNow?(): number;
}

/**
 * The pacer's time: milliseconds that pass whatever the system clock does. Pauses, the rate window
 * and the learned rate are spans from a moment; measured on the wall clock, one set back an hour
 * (NTP, a manual fix, a restored VM) held every request on the account for that hour, and one that
 * flipped back and forth let each forward flip empty the Max Requests per Minute window. Read at each
 * call, so tests' fake timers (which fake `performance` too) move it on.
 */
export const systemClock: Clock = { now: () => performance.now(), sleep, calendarNow: () => Date.now() };

/** What the account's slots see of one run: how many requests it may have under way, and those waiting. */
export interface SlotHolder {
	/** The run's requests waiting for a slot, oldest first. */
	readonly waiting: Queue<() => void>;
	running: number;
	allowed: number;
}

const mayStart = (run: SlotHolder): boolean => run.running < run.allowed;

/**
 * The account's slots to run requests in, shared by every run on it. Free slots go to the waiting
 * runs in turn, one request each, so a single read from one workflow is not queued behind a poll's
 * hundreds of reads.
 */
export class FairSlots {
	/** Requests to the account under way, from every run. */
	private running = 0;

	/** Runs with requests waiting for a slot, in turn: a run served goes to the back. */
	private readonly turns: SlotHolder[] = [];

	/** Runs with requests waiting or under way: the most any of them allows is the account's limit. */
	private readonly active = new Set<SlotHolder>();

	get inUse(): boolean {
		return this.active.size > 0;
	}

	/** Nothing when `run` may start a request now (the slot is then taken), else a wait for its turn. */
	take(run: SlotHolder): Promise<void> | undefined {
		this.active.add(run);
		if (this.turns.length === 0 && mayStart(run) && this.running < this.limit()) {
			this.start(run);
			return undefined;
		}
		const turn = new Promise<void>((resolve) => run.waiting.push(resolve));
		if (!this.turns.includes(run)) this.turns.push(run);
		this.dispatch();
		return turn;
	}

	free(run: SlotHolder): void {
		this.running--;
		run.running--;
		if (run.running === 0 && run.waiting.length === 0) this.active.delete(run);
		this.dispatch();
	}

	/** Hands free slots to the waiting runs in turn; called too when a run may have more under way. */
	dispatch(): void {
		while (this.running < this.limit()) {
			const index = this.turns.findIndex(mayStart);
			if (index < 0) return;
			const [run] = this.turns.splice(index, 1);
			const resolve = run.waiting.shift()!;
			if (run.waiting.length > 0) this.turns.push(run);
			this.start(run);
			resolve();
		}
	}

	/** The account's Max Concurrent Requests: four runs at 8 keep 8 under way together, not 32. */
	private limit(): number {
		let limit = 1;
		for (const run of this.active) limit = Math.max(limit, run.allowed);
		return limit;
	}

	private start(run: SlotHolder): void {
		this.running++;
		run.running++;
	}
}

/**
 * The span Max Requests per Minute counts over; also the longest span a rate is learned over, and how
 * long an account unused is kept in the registry (longer while a rate learned from a 429 is in force:
 * 5 minutes, Pushback).
 */
export const RATE_WINDOW_MS = 60_000;

/** A request waiting for room under its run's Max Requests per Minute. */
interface RoomWaiter {
	cap: number;
	admit: () => void;
}

/**
 * The account's requests of the last 60 s, whichever run sent them, for Max Requests per Minute.
 * Every request counts from when it is sent until 60 s after its answer came in: the service
 * counts it when it arrives, somewhere in between, so it never sees more than the cap in any
 * 60 s, whatever the network delays. A request counted but then not sent (a poll's budget ran out)
 * leaves the window at once.
 */
export class RateWindow {
	/** When the answers of the requests counted in the window came in, oldest first. */
	private readonly answeredAt = new Queue<number>();

	/** Requests counted in the window whose answers are not in yet. */
	private unanswered = 0;

	/** Requests waiting for room, oldest first; each run's cap is its own, so any of them may fit first. */
	private waiting: RoomWaiter[] = [];

	/** One timer for all the waiting requests, set for when the oldest answer leaves the window. */
	private roomTimerSet = false;

	/** The last request counted, answer in, or lookup of the account (`touch`). */
	private lastUsedAt = -Infinity;

	constructor(private readonly clock: Clock) {}

	touch(now: number): void {
		this.lastUsedAt = Math.max(this.lastUsedAt, now);
	}

	/** Nothing under way or waiting for room, and no request, answer or lookup of the account in the last 60 s. */
	isEmpty(now: number): boolean {
		return this.unanswered === 0 && this.waiting.length === 0 && this.lastUsedAt <= now - RATE_WINDOW_MS;
	}

	/** Counts one request, waiting first while `cap` (0: none) is reached; nothing when there is room now. */
	count(cap: number): Promise<void> | undefined {
		const now = this.clock.now();
		if (this.hasRoom(cap, now) && (cap === 0 || !this.takesAWaitersRoom())) {
			this.countOne(now);
			return undefined;
		}
		return new Promise<void>((admit) => {
			this.waiting.push({ cap, admit });
			this.admitWaiting();
		});
	}

	answered(): void {
		const now = this.clock.now();
		this.unanswered--;
		this.answeredAt.push(now);
		this.lastUsedAt = now;
		// With the whole window under way, the first answer is when the wait for room can be known.
		if (this.waiting.length > 0) this.admitWaiting();
	}

	/** A request counted but not sent after all: its place is free at once. */
	notSent(): void {
		this.unanswered--;
		if (this.waiting.length > 0) this.admitWaiting();
	}

	private hasRoom(cap: number, now: number): boolean {
		while (this.answeredAt.length > 0 && this.answeredAt.peek()! <= now - RATE_WINDOW_MS) this.answeredAt.shift();
		return cap === 0 || this.counted < cap;
	}

	/** Requests in the window: under way, and answered within the last 60 s as of the last `hasRoom`. */
	private get counted(): number {
		return this.answeredAt.length + this.unanswered;
	}

	/**
	 * Whether one more request now would leave a waiting request without the room it has. Room appears
	 * when the oldest answer leaves the window, but the waiting are let in by a timer, which a busy
	 * process runs late: a later request taking that room sent an earlier one under the same cap to
	 * the back of another whole minute. One under a lower cap than the waiting may still go first when
	 * both fit (call after `hasRoom`, which drops the answers that left the window).
	 */
	private takesAWaitersRoom(): boolean {
		const counted = this.counted;
		return this.waiting.some((waiter) => counted < waiter.cap && counted + 1 >= waiter.cap);
	}

	private countOne(now: number): void {
		this.unanswered++;
		this.lastUsedAt = now;
	}

	/** Lets in the waiting requests there is room for now; the rest wait for the oldest answer to leave, or for a place freed. */
	private admitWaiting(): void {
		const now = this.clock.now();
		const stillWaiting: RoomWaiter[] = [];
		for (const waiter of this.waiting) {
			if (this.hasRoom(waiter.cap, now)) {
				this.countOne(now);
				waiter.admit();
			} else {
				stillWaiting.push(waiter);
			}
		}
		this.waiting = stillWaiting;
		const oldest = this.answeredAt.peek();
		// Without an answer in the window, every counted request is under way: answered() calls again.
		if (this.waiting.length === 0 || this.roomTimerSet || oldest === undefined) return;
		this.roomTimerSet = true;
		void this.clock.sleep(oldest + RATE_WINDOW_MS - now).then(() => {
			this.roomTimerSet = false;
			this.admitWaiting();
		});
	}
}

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
 * jitter (at 15 ms, one run in four drew a second 429 at 200/s; restarting 10 ms behind now instead
 * of at now drew a second 429 in two runs of three), and far under it for a minute.
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
 * A calendar second's count taken at a first 429, unconfirmed by a second one, is tried this long:
 * long enough that a quota really counted per calendar second costs one more 429 in a while (P2q's
 * 2,000 reads take 11 s), short enough that a sliding window mistaken for one loses little.
 */
const UNCONFIRMED_CALENDAR_RATE_LIFETIME_MS = 15_000;
/** A gap between answers longer than this share of a span is a break in the sending (Pushback.answeredThroughout). */
const ANSWER_GAP_SHARE = 0.1;
/** A quota counted per calendar window is recognised for one-second windows (Retry-After: 1). */
const CALENDAR_SECOND_MS = 1000;

/**
 * What the service's pushback taught about the account: a pause until its Retry-After, and the
 * rate it accepted before refusing, which later sends are spaced under.
 */
export class Pushback {
	pausedUntil = -Infinity;

	/** When the last pause began: one of a second or more emptied a one-second window (see `learnSincePause`). */
	private pauseBeganAt = -Infinity;

	/** When recent successful answers came in, oldest first: the 60 s before the latest at most. */
	private readonly succeededAt = new Queue<number>();

	/** Minimum spacing between sends learned from a 429; 0 while none is in force. */
	private spacingMs = 0;

	/**
	 * The spacing of a quota counted per calendar second, found at a 429 under a learned pace: taken
	 * when the pause ends, unless a request answered during it (see `learn`).
	 */
	private calendarSpacingMs: number | undefined;

	private learnedAt = -Infinity;

	/** The span's spacing, restored at `calendarLapsesAt` when a calendar second's count was taken at a first 429 (see `learn`). */
	private spanSpacingMs: number | undefined;

	private calendarLapsesAt = Infinity;

	/** When the next spaced send may go. Not 0: the pacer's clock starts near 0, so a first turn would be booked from 0. */
	private nextSendAt = -Infinity;

	/** Requests waiting for a spaced turn, oldest first: one timer wakes the first when it is due. */
	private readonly spacedTurns = new Queue<() => void>();

	private spacedTurnTimerSet = false;

	constructor(private readonly clock: Clock) {}

	/**
	 * This wait, like the pacer's others (RateWindow.count, FairSlots.take), returns nothing when
	 * there is nothing to wait for, which is most requests: an async function's promise and a turn of
	 * the event loop for each was a share of the node's cost over n8n's bare request helper (bench P2, P3).
	 */
	waitForPause(): Promise<void> | undefined {
		return this.pausedUntil > this.clock.now() ? this.sleepOutPause() : undefined;
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

	succeeded(): void {
		const now = this.clock.now();
		if (this.pausedUntil > now) this.calendarSpacingMs = undefined;
		this.succeededAt.push(now);
		while (this.succeededAt.length > 0 && this.succeededAt.peek()! <= now - RATE_WINDOW_MS) this.succeededAt.shift();
	}

	/**
	 * The service's quota window is unknown, but Retry-After says when it frees up: the requests it
	 * accepted over that span before refusing are about what it allows per span. Sends are then
	 * spaced just under that rate, instead of bursting into the next refusal. Each 429 measures the
	 * rate afresh, and the rate lapses after a while. Answers false when the span says nothing (too
	 * few answers, or a pause within it), and the caller should run fewer requests at once instead.
	 */
	learn(now: number, retryAfterMs: number, refusedSentAt = now): boolean {
		const span = Math.min(Math.max(retryAfterMs, 1000), RATE_WINDOW_MS);
		const acceptedAt = [...this.succeededAt].filter((at) => at > now - span);
		const pauseEmptiedTheWindow = this.pausedUntil - this.pauseBeganAt >= span;
		if (span === CALENDAR_SECOND_MS && this.pausedUntil > now - span && this.pausedUntil <= now && pauseEmptiedTheWindow) {
			return this.learnSincePause(now, acceptedAt, span);
		}
		if (acceptedAt.length < MIN_SUCCESSES_TO_LEARN || this.pausedUntil > now - span) return false;
		// A quota spent in a burst much shorter than the wait (600 accepted in 3 s, then 57 s to wait)
		// was counted over the burst and the wait together: 600 per 60 s, not per 57 s. Retry-After
		// comes in whole seconds, rounded up, so up to one of them is no part of the window.
		const burstMs = now - acceptedAt[0];
		const window =
			burstMs < span / 2 ? Math.min(Math.max(span, span - RETRY_AFTER_ROUNDING_MS + burstMs), RATE_WINDOW_MS) : span;
		const pacedBefore = this.spacingInForce(now);
		const perCalendarSecond = this.acceptedPerCalendarSecond(acceptedAt, now, span, refusedSentAt, pacedBefore);
		// A sliding window refuses a learned pace too when its requests arrive bunched (network, late
		// timers), but frees a place again within a send or two: a request under way at the 429 is
		// answered during the pause. A calendar second stays full to its end and refuses them all. So
		// under a learned pace the calendar second's count waits for the pause to end without one.
		// At a first 429 both windows can show the same answers: a sliding window whose rate rose (a
		// second workflow joined the account) refuses as the calendar second's count reaches what one
		// counted per calendar second would hold, and pacing at that count halved the rate for the
		// learned rate's whole life. So that count, too, waits for the pause to end without an answer,
		// and with no 429 under a learned pace to confirm it, the span's count is tried again later.
		this.spacingMs = window / (acceptedAt.length * LEARNED_RATE_SHARE);
		this.calendarSpacingMs = perCalendarSecond !== undefined ? window / (perCalendarSecond * LEARNED_RATE_SHARE) : undefined;
		this.spanSpacingMs = pacedBefore ? undefined : this.spacingMs;
		this.calendarLapsesAt = Infinity;
		this.learnedAt = now;
		return true;
	}

	/**
	 * A 429 within a second of a pause of a second or more, with Retry-After: 1: a one-second window,
	 * sliding or calendar, was empty when the pause ended, so what it accepted since is its quota. A
	 * pace learned from a span that held a calendar second's tail went over the quota again within
	 * each second after its pause, and the span, holding that pause, taught nothing: a 429 every 2 s
	 * for the whole run (20 under way from 750 ms). A shorter pause (a 503's) left the window full.
	 */
	private learnSincePause(now: number, acceptedAt: number[], span: number): boolean {
		const sincePause = acceptedAt.filter((at) => at > this.pausedUntil).length;
		// Under half the pace in force is no quota: another client (a queue-mode worker paces on its
		// own) filled the window during the pause, and that count held the run at it for 5 minutes.
		if (sincePause < MIN_SUCCESSES_TO_LEARN || !this.spacingInForce(now) || sincePause * 2 < span / this.spacingMs) return false;
		this.spacingMs = span / (sincePause * LEARNED_RATE_SHARE);
		this.calendarSpacingMs = undefined;
		this.spanSpacingMs = undefined;
		this.calendarLapsesAt = Infinity;
		this.learnedAt = now;
		return true;
	}

	/**
	 * How many requests a quota counted per calendar second holds, from the answers of the span before
	 * a 429; undefined when the answers do not show one. A sliding window refuses once its span holds
	 * the quota, within a span of the client going over it: the span's answers are the quota. One
	 * counted per calendar second refuses once that second holds the quota, and the span holds the
	 * second before's tail too, up to twice the quota (264 of 200 at 8 under way: pacing at that drew
	 * a 429 every other second). Answers that kept coming across the whole span are what only such a
	 * window lets through before refusing; the quota is then what came in since the refused request's
	 * calendar second began, counting answers from a round trip after it (the requests answered earlier
	 * were counted in the second before). Under half the span's answers is no calendar second's count.
	 */
	private acceptedPerCalendarSecond(acceptedAt: number[], now: number, span: number, refusedSentAt: number, pacedBefore: boolean): number | undefined {
		if (span > CALENDAR_SECOND_MS || !this.answeredThroughout(now, span, pacedBefore)) return undefined;
		const calendarOffset = (this.clock.calendarNow?.() ?? this.clock.now()) - this.clock.now();
		const secondBegan = refusedSentAt - ((refusedSentAt + calendarOffset) % CALENDAR_SECOND_MS);
		const countedFrom = secondBegan + (now - refusedSentAt);
		const sinceSecondBegan = acceptedAt.filter((at) => at >= countedFrom).length;
		return sinceSecondBegan * 2 >= acceptedAt.length ? sinceSecondBegan : undefined;
	}

	/**
	 * Answers with no gap longer than a tenth of the span up to `now`, from before the span began; or,
	 * paced at a rate learned before, from its first tenth on: a sliding window refuses the pace
	 * learned from it only when requests arrive bunched (see `learn`), and the first answers after a
	 * pause come a round trip after it ends.
	 */
	private answeredThroughout(now: number, span: number, pacedBefore: boolean): boolean {
		const gapMs = span * ANSWER_GAP_SHARE;
		const firstBy = pacedBefore ? now - span + gapMs : now - span;
		let previous: number | undefined;
		for (const at of this.succeededAt) {
			if (at <= now - span - gapMs) continue;
			if (previous === undefined ? at > firstBy : at - previous > gapMs) return false;
			previous = at;
		}
		return previous !== undefined && now - previous <= gapMs;
	}

	/** No pause and no learned rate in force: forgetting the account loses nothing. */
	holdsNothing(now: number): boolean {
		return this.pausedUntil <= now && !this.spacingInForce(now);
	}

	pause(until: number): void {
		if (this.pausedUntil <= this.clock.now()) this.pauseBeganAt = this.clock.now();
		this.pausedUntil = Math.max(this.pausedUntil, until);
	}

	private async sleepOutPause(): Promise<void> {
		for (let wait = this.pausedUntil - this.clock.now(); wait > 0; wait = this.pausedUntil - this.clock.now()) {
			await this.clock.sleep(wait);
		}
	}

	private spacingInForce(now: number): boolean {
		if (this.calendarSpacingMs !== undefined && this.pausedUntil <= now) {
			this.spacingMs = this.calendarSpacingMs;
			this.calendarSpacingMs = undefined;
			if (this.spanSpacingMs !== undefined) this.calendarLapsesAt = now + UNCONFIRMED_CALENDAR_RATE_LIFETIME_MS;
		}
		if (this.calendarLapsesAt <= now) {
			this.spacingMs = this.spanSpacingMs ?? this.spacingMs;
			this.calendarLapsesAt = Infinity;
		}
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
}

/**
 * First in, first out, each step O(1). Array.prototype.shift copies the whole array once it is
 * large (V8 moves arrays over some 16,000 entries out of the space where it can trim them in
 * place): a poll queuing 20,000 device reads spent 0.6 s of CPU in the pacer's shift() alone.
 */
export class Queue<T> {
	private items: Array<T | undefined> = [];

	private head = 0;

	get length(): number {
		return this.items.length - this.head;
	}

	/** The oldest entry, left in place. */
	peek(): T | undefined {
		return this.items[this.head];
	}

	push(item: T): void {
		this.items.push(item);
	}

	shift(): T | undefined {
		if (this.head >= this.items.length) return undefined;
		const item = this.items[this.head];
		this.items[this.head++] = undefined;
		// Taken entries are dropped once they are half the array: each entry is copied once at most.
		if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
			this.items = this.items.slice(this.head);
			this.head = 0;
		}
		return item;
	}

	/** The entries, oldest first. */
	*[Symbol.iterator](): IterableIterator<T> {
		for (let index = this.head; index < this.items.length; index++) yield this.items[index] as T;
	}
}

const COMPACT_AFTER = 1024;
