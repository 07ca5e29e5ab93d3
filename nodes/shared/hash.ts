/** Stable fingerprints of texts (FNV-1a): compact keys for workflow static data, and ids. */

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const FNV64_OFFSET = 0xcbf29ce484222325n;
const FNV64_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

/** 32 bits, as a number. */
export function hash32(text: string): number {
	let hash = FNV32_OFFSET;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, FNV32_PRIME);
	}
	return hash >>> 0;
}

/** 32 bits in base 36: short, for keys compared among a device's few fixes or a trigger's geofences. */
export function shortHash(text: string): string {
	return hash32(text).toString(36);
}

/** 64 bits in 13 base-36 digits: for ids that must stay apart among millions (a collision becomes likely only past some 4 billion). */
export function longHash(text: string): string {
	let hash = FNV64_OFFSET;
	for (let i = 0; i < text.length; i++) {
		hash ^= BigInt(text.charCodeAt(i));
		hash = (hash * FNV64_PRIME) & MASK64;
	}
	return hash.toString(36).padStart(13, '0');
}
