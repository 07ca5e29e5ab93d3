import type { Clock } from './clock';
import { Queue } from './queue';
import { RATE_WINDOW_MS } from './rateWindow';

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
		const perWindowNow = pacedBefore ? acceptedAt.length : (perCalendarSecond ?? acceptedAt.length);
		this.spacingMs = window / (perWindowNow * LEARNED_RATE_SHARE);
		this.calendarSpacingMs =
			pacedBefore && perCalendarSecond !== undefined ? window / (perCalendarSecond * LEARNED_RATE_SHARE) : undefined;
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
