/**
 * The one import parser of the room and independence checks. TypeScript's own pre-processor reads
 * every form a module can name another in (import and `import type`, side-effect imports,
 * `export … from`, `require()`, dynamic `import()`), whatever the quotes, and skips comments and
 * strings: hand-written regexes here once missed double quotes and `require()`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { preProcessFile } from 'typescript';

/** Every module specifier the source names, in order of appearance. */
export function importSpecifiers(source: string): string[] {
	return preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

export function importSpecifiersOf(file: string): string[] {
	return importSpecifiers(readFileSync(file, 'utf8'));
}

/** The source files below `dir`, recursively. */
export function sourceFiles(dir: string, pattern = /\.(ts|js|mjs|cjs)$/): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path, pattern);
		return pattern.test(entry.name) ? [path] : [];
	});
}
