/**
 * The sandbox is the judge of the nodes: it must be written from the vendor's docs, not from the
 * code it judges. An import from nodes/ would let a wrong path, method or key in wire.ts pass every
 * test, copied by the sandbox.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SANDBOX = join(ROOT, 'sandbox');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
	});
}

/** Every module specifier of an import, export … from, require() or import(). */
function specifiers(source: string): string[] {
	const pattern = /(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;
	return [...source.matchAll(pattern)].map((match) => match[1]);
}

describe('sandbox independence', () => {
	it('imports nothing from nodes/ (or credentials/)', () => {
		const offending = sourceFiles(SANDBOX).flatMap((file) =>
			specifiers(readFileSync(file, 'utf8'))
				.filter((specifier) => /(^|\/)(nodes|credentials)(\/|$)/.test(specifier))
				.map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
		);
		expect(offending).toEqual([]);
	});

	it('finds imports where they are (the check itself can fail)', () => {
		expect(specifiers(`import { x } from '../nodes/shared/wire';\nconst y = require("../nodes/a");\nexport * from '../nodes/b';`)).toEqual([
			'../nodes/shared/wire',
			'../nodes/a',
			'../nodes/b',
		]);
	});
});
