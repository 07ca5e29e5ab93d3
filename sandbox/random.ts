/**
 * A small seeded PRNG: the sandbox's data, tracks and fault probabilities must be the same on every
 * run with the same seed, so tests can rely on them.
 */

/** FNV-1a, to turn a seed and a label (a device id, a purpose) into an independent stream. */
export function hashSeed(...parts: Array<string | number>): number {
	let hash = 0x811c9dc5;
	for (const char of parts.join('|')) {
		hash ^= char.codePointAt(0) ?? 0;
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** mulberry32: uniform in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	between(min: number, max: number): number {
		return min + (max - min) * this.next();
	}

	int(min: number, max: number): number {
		return Math.floor(this.between(min, max + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}
}
