/**
 * The sandbox is the judge of the nodes: it must be written from the vendor's docs, not from the
 * code it judges. An import from nodes/ would let a wrong path, method or key in wire.ts pass every
 * test, copied by the sandbox.
 */
import { join, relative } from 'node:path';
import { importSpecifiersOf, sourceFiles } from '../support/imports';

const ROOT = join(__dirname, '..', '..');
const SANDBOX = join(ROOT, 'sandbox');

describe('sandbox independence', () => {
	it('imports nothing from nodes/ (or credentials/)', () => {
		const offending = sourceFiles(SANDBOX).flatMap((file) =>
			importSpecifiersOf(file)
				.filter((specifier) => /(^|\/)(nodes|credentials)(\/|$)/.test(specifier))
				.map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
		);
		expect(offending).toEqual([]);
	});
});
