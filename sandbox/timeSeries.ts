/** Items kept in dateTime order, with range reads by binary search (histories reach 100k+ fixes in benches). */
export class TimeSeries<T extends { dateTime: string }> {
	private readonly items: T[] = [];
	private readonly times: number[] = [];

	constructor(items: T[] = []) {
		for (const item of items) this.insert(item);
	}

	get size(): number {
		return this.items.length;
	}

	all(): T[] {
		return [...this.items];
	}

	newest(): T | undefined {
		return this.items[this.items.length - 1];
	}

	/** Equal timestamps keep arrival order: a fix sent twice is stored twice, as the tests expect to see. */
	insert(item: T): void {
		const at = Date.parse(item.dateTime);
		const index = this.firstIndexAfter(at);
		this.items.splice(index, 0, item);
		this.times.splice(index, 0, at);
	}

	/** Inclusive at both ends, as the contract states `from <= dateTime <= to`. */
	between(from: number, to: number): T[] {
		return this.items.slice(this.firstIndexAtOrAfter(from), this.firstIndexAfter(to));
	}

	private firstIndexAtOrAfter(at: number): number {
		return this.search((time) => time >= at);
	}

	private firstIndexAfter(at: number): number {
		return this.search((time) => time > at);
	}

	private search(isPast: (time: number) => boolean): number {
		let low = 0;
		let high = this.times.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (isPast(this.times[middle])) high = middle;
			else low = middle + 1;
		}
		return low;
	}
}
