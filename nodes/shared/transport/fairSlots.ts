import type { Queue } from './queue';

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
