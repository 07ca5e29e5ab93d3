/** Stable fingerprints of texts (FNV-1a): compact keys for workflow static data, and ids. */

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
/** 0xcbf29ce484222325, least significant 16 bits first. */
const FNV64_OFFSET_LIMBS = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
/** The FNV-64 prime is 2^40 + this. */
const FNV64_PRIME_LOW = 0x1b3;

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

/**
 * 64 bits in 13 base-36 digits: for ids that must stay apart among millions (a collision becomes
 * likely only past some 4 billion). FNV-1a 64 on four 16-bit limbs: the same digits as BigInt
 * arithmetic, at a fraction of its cost (an id per trigger event).
 */
export function longHash(text: string): string {
	let [h0, h1, h2, h3] = FNV64_OFFSET_LIMBS;
	for (let i = 0; i < text.length; i++) {
		h0 ^= text.charCodeAt(i);
		// × the prime 2^40 + 0x1b3, modulo 2^64: × 0x1b3 limb by limb, plus the value shifted 40 bits.
		const r0 = h0 * FNV64_PRIME_LOW;
		const r1 = h1 * FNV64_PRIME_LOW + (r0 >>> 16);
		const r2 = h2 * FNV64_PRIME_LOW + (h0 << 8) + (r1 >>> 16);
		const r3 = h3 * FNV64_PRIME_LOW + (h1 << 8) + (r2 >>> 16);
		h0 = r0 & 0xffff;
		h1 = r1 & 0xffff;
		h2 = r2 & 0xffff;
		h3 = r3 & 0xffff;
	}
	const value = (BigInt(h3 * 0x10000 + h2) << 32n) | BigInt(h1 * 0x10000 + h0);
	return value.toString(36).padStart(13, '0');
}
