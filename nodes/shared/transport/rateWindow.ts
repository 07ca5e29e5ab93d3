import type { Clock } from './clock';
import { Queue } from './queue';

/**
 * The span Max Requests per Minute counts over; also the longest span a rate is learned over, and how
 * long an account unused is kept in the registry (a learned rate itself lasts 5 minutes: pushback.ts).
 */
export const RATE_WINDOW_MS = 60_000;

/**
 * The account's requests of the last 60 s, whichever run sent them, for Max Requests per Minute.
 * Every request counts from when it is sent until 60 s after its answer came in: the service
 * counts it when it arrives, somewhere in between, so it never sees more than the cap in any
 * 60 s, whatever the network delays.
 */
export class RateWindow {
	/** When the answers of the requests counted in the window came in, oldest first. */
	private readonly answeredAt = new Queue<number>();

	/** Requests counted in the window whose answers are not in yet. */
	private unanswered = 0;

	private readonly waitingForAnswers = new Queue<() => void>();

	/** The last request counted, answer in, or lookup of the account (`touch`). */
	private lastUsedAt = -Infinity;

	constructor(private readonly clock: Clock) {}

	touch(now: number): void {
		this.lastUsedAt = Math.max(this.lastUsedAt, now);
	}

	/** Nothing under way, and no request, answer or lookup of the account in the last 60 s. */
	isEmpty(now: number): boolean {
		return this.unanswered === 0 && this.lastUsedAt <= now - RATE_WINDOW_MS;
	}

	/** Counts one request, waiting first while `cap` (0: none) is reached; nothing when there is room now. */
	count(cap: number): Promise<void> | undefined {
		return this.countIfRoom(cap) ? undefined : this.waitForRoom(cap);
	}

	answered(): void {
		const now = this.clock.now();
		this.unanswered--;
		this.answeredAt.push(now);
		this.lastUsedAt = now;
		this.waitingForAnswers.shift()?.();
	}

	private countIfRoom(cap: number): boolean {
		const now = this.clock.now();
		while (this.answeredAt.length > 0 && this.answeredAt.peek()! <= now - RATE_WINDOW_MS) this.answeredAt.shift();
		if (cap !== 0 && this.answeredAt.length + this.unanswered >= cap) return false;
		this.unanswered++;
		this.lastUsedAt = now;
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
}
