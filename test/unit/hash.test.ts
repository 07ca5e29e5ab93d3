import { hash32, longHash, shortHash } from '../../nodes/shared/hash';

/** FNV-1a 64 over UTF-16 code units in BigInt arithmetic: what longHash computed before it used 16-bit limbs. */
function fnv1a64(text: string): bigint {
	let hash = 0xcbf29ce484222325n;
	for (let i = 0; i < text.length; i++) {
		hash ^= BigInt(text.charCodeAt(i));
		hash = (hash * 0x100000001b3n) & ((1n << 64n) - 1n);
	}
	return hash;
}

const fromBase36 = (digits: string) => [...digits].reduce((value, digit) => value * 36n + BigInt(parseInt(digit, 36)), 0n);

describe('longHash', () => {
	it('is FNV-1a 64: the published test vectors', () => {
		expect(fromBase36(longHash(''))).toBe(0xcbf29ce484222325n);
		expect(fromBase36(longHash('a'))).toBe(0xaf63dc4c8601ec8cn);
		expect(fromBase36(longHash('foobar'))).toBe(0x85944171f73967e8n);
	});

	it('gives the ids it gave before (13 base-36 digits), for any text, non-Latin and surrogates included', () => {
		const texts = ['["dev-1","locationUpdated","2024-03-10T10:00:00Z"]', 'Zürich – 東京 🚚', '\u0000\uffff\ud800', 'x'.repeat(10_000)];
		let seed = 7;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		for (let index = 0; index < 2_000; index++) {
			texts.push(Array.from({ length: Math.floor(random() * 60) }, () => String.fromCharCode(Math.floor(random() * (random() < 0.8 ? 128 : 65536)))).join(''));
		}
		for (const text of texts) {
			const id = longHash(text);
			expect(id).toMatch(/^[0-9a-z]{13}$/);
			expect(fromBase36(id)).toBe(fnv1a64(text));
		}
	});
});

describe('shortHash', () => {
	it('is FNV-1a 32 in base 36', () => {
		expect(hash32('')).toBe(0x811c9dc5);
		expect(hash32('a')).toBe(0xe40c292c);
		expect(shortHash('foobar')).toBe((0xbf9cf968).toString(36));
	});
});
