import { importSpecifiers } from '../support/imports';

describe('the import parser of the room and independence checks', () => {
	it('finds every form a module can name another in, whatever the quotes', () => {
		const source = [
			`import { a } from '../single';`,
			`import b from "../double";`,
			`import type { C } from '../typeOnly';`,
			`import '../sideEffect';`,
			`export * from '../reexport';`,
			`export { d } from "../namedReexport";`,
			`const e = require('../required');`,
			`const f = require("../requiredDouble");`,
			`async function g() { return import('../dynamic'); }`,
			`import {`,
			`\th,`,
			`} from '../multiLine';`,
		].join('\n');
		expect(importSpecifiers(source)).toEqual([
			'../single',
			'../double',
			'../typeOnly',
			'../sideEffect',
			'../reexport',
			'../namedReexport',
			'../required',
			'../requiredDouble',
			'../dynamic',
			'../multiLine',
		]);
	});

	it('ignores what only looks like an import: comments and strings', () => {
		const source = [
			`// import x from '../commented';`,
			`/* require('../blockComment') */`,
			`const text = "import y from '../inAString'";`,
		].join('\n');
		expect(importSpecifiers(source)).toEqual([]);
	});
});
