import type { Clock } from './clock';
import { Queue } from './queue';

/**
 * The span Max Requests per Minute counts over; also the longest span a rate is learned over, and how
 * long an account unused is kept in the registry (longer while a rate learned from a 429 is in force:
 * 5 minutes, pushback.ts).
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
