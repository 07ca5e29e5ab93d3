/**
 * No two files import each other: each can be read, tested and moved with what it imports alone.
 * Type-only imports count too: a type lives with the file that owns it, and two files that name each
 * other's types still cannot be read apart. One longer circle is the design: the trigger's event
 * kinds are the registry's keys (detectors/index.ts), which types.ts passes on, and each detector
 * adds its own types to types.ts (docs/architecture.md); no other circle may appear.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { importSpecifiersOf, sourceFiles } from '../support/imports';

const ROOT = resolve(__dirname, '../..');
const FOLDERS = ['nodes', 'credentials', 'sandbox', 'bench', 'scripts', 'test', 'tools'];

/** The repository's own file a relative specifier names, if it is a TypeScript source. */
function resolved(from: string, specifier: string): string | undefined {
	const base = resolve(dirname(from), specifier);
	return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** Every TypeScript file of the folders and the files it imports by a relative path. */
function importGraph(folders: string[]): Map<string, string[]> {
	const files = folders.filter((folder) => existsSync(join(ROOT, folder))).flatMap((folder) => sourceFiles(join(ROOT, folder), /\.ts$/));
	return new Map(
		files.map((file) => [
			relative(ROOT, file),
			importSpecifiersOf(file)
				.filter((specifier) => specifier.startsWith('.'))
				.map((specifier) => resolved(file, specifier))
				.filter((target): target is string => target !== undefined)
				.map((target) => relative(ROOT, target)),
		]),
	);
}

/** The pairs of files that import each other. */
function pairs(graph: Map<string, string[]>): string[][] {
	return [...graph].flatMap(([file, targets]) =>
		targets.filter((target) => target > file && graph.get(target)?.includes(file)).map((target) => [file, target]),
	);
}

/** The circles of a graph: its strongly connected components of more than one file (Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const found: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		onStack.add(file);
		for (const target of graph.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) {
				low.set(file, Math.min(low.get(file)!, index.get(target)!));
			}
		}
		if (low.get(file) === index.get(file)) {
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== file);
			if (component.length > 1) found.push(component.sort());
		}
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return found;
}

const DETECTION = 'nodes/SatelliteTrackingTrigger/detection/';
/** The event registry's circle: files of detection/ only, through types.ts and the registry. */
const isTheRegistryCircle = (circle: string[]) =>
	circle.every((file) => file.startsWith(DETECTION)) && circle.includes(`${DETECTION}types.ts`) && circle.includes(`${DETECTION}detectors/index.ts`);

describe('import circles', () => {
	const graph = importGraph(FOLDERS);

	it.each(FOLDERS)('%s/ has no files that import each other', (folder) => {
		expect(pairs(graph).filter(([file]) => file.startsWith(`${folder}/`))).toEqual([]);
	});

	it("has no circle but the event registry's", () => {
		expect(circles(graph).filter((circle) => !isTheRegistryCircle(circle))).toEqual([]);
	});

	it('finds a pair and a longer circle, and nothing in a tree', () => {
		const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
		expect(pairs(graph({ a: ['b'], b: ['a', 'c'], c: ['a'] }))).toEqual([['a', 'b']]);
		expect(circles(graph({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
		expect(circles(graph({ a: ['b'], b: ['c'], c: ['a'], d: [] }))).toEqual([['a', 'b', 'c']]);
		expect(circles(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
		expect(pairs(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
	});
});
