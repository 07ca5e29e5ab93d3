/**
 * Runs tasks that share a key one after another, and tasks with different keys side by side.
 * A read-modify-write of one resource (a group's device list) must not overlap another of the
 * same resource in the same run, or the later write silently drops the earlier one's change.
 */
export class KeyedLock {
	private readonly tails = new Map<string, Promise<unknown>>();

	async run<T>(key: string, task: () => Promise<T>): Promise<T> {
		const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
		// A failed task must not stop the ones queued behind it.
		const tail = result.catch(() => undefined);
		this.tails.set(key, tail);
		try {
			return await result;
		} finally {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		}
	}
}
