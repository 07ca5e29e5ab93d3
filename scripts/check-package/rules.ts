/**
 * What a user installing the package must get, as plain checks over package.json and the packed
 * file list (n8n's verification rules plus what a tarball must not carry). Each returns the problems
 * found, as sentences; none means the check passed. scripts/check-package.ts applies them to the
 * tarball `npm pack` makes.
 */
import { posix } from 'node:path';

export interface PackageManifest {
	name?: string;
	license?: string;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	overrides?: unknown;
	scripts?: Record<string, string>;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** npm runs these on install, pack or publish; n8n refuses packages that have any. */
const LIFECYCLE_SCRIPTS = [
	'preinstall',
	'install',
	'postinstall',
	'preuninstall',
	'uninstall',
	'postuninstall',
	'prepublish',
	'preprepare',
	'prepare',
	'postprepare',
	'prepack',
	'postpack',
	'prepublishOnly',
	'publish',
	'postpublish',
];

export function manifestProblems(pkg: PackageManifest): string[] {
	const problems: string[] = [];
	const runtimeDependencies = Object.keys(pkg.dependencies ?? {});
	if (runtimeDependencies.length > 0) {
		problems.push(`runtime dependencies are not allowed (n8n installs none): ${runtimeDependencies.join(', ')}`);
	}
	const lifecycle = Object.keys(pkg.scripts ?? {}).filter((name) => LIFECYCLE_SCRIPTS.includes(name));
	if (lifecycle.length > 0) problems.push(`lifecycle scripts are not allowed: ${lifecycle.join(', ')}`);
	if (pkg.overrides !== undefined) problems.push('"overrides" is not allowed');
	const peers = pkg.peerDependencies ?? {};
	if (Object.keys(peers).length !== 1 || peers['n8n-workflow'] !== '*') {
		problems.push(`peerDependencies must be exactly { "n8n-workflow": "*" }, found ${JSON.stringify(peers)}`);
	}
	if (pkg.license !== 'MIT') problems.push(`license must be MIT, found ${JSON.stringify(pkg.license)}`);
	if (n8nEntryFiles(pkg).length === 0) problems.push('package.json "n8n" lists no nodes');
	return problems;
}

/** The files n8n loads: every node and credential listed in package.json's `n8n` section. */
export function n8nEntryFiles(pkg: PackageManifest): string[] {
	return [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
}

/** Top-level files a published package may carry besides dist/ (npm adds package.json, README, LICENSE itself). */
const ALLOWED_TOP_LEVEL = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];

/** Test, sandbox, benchmark and fixture code, wherever it sits, and TypeScript sources (declarations aside). */
const NOT_FOR_USERS = [
	/(^|\/)(test|tests|__tests__|__mocks__|sandbox|bench|fixtures?|e2e)\//,
	/\.(test|spec)\.[cm]?[jt]sx?$/,
	/(?<!\.d)\.[cm]?tsx?$/,
	/(^|\/)tsconfig[^/]*\.json$/,
	/\.tsbuildinfo$/,
];

export function fileListProblems(files: string[], pkg: PackageManifest): string[] {
	const problems: string[] = [];
	for (const file of files) {
		if (!file.startsWith('dist/') && !ALLOWED_TOP_LEVEL.includes(file)) {
			problems.push(`${file}: only dist/, ${ALLOWED_TOP_LEVEL.join(', ')} belong in the tarball`);
		} else if (NOT_FOR_USERS.some((pattern) => pattern.test(file))) {
			problems.push(`${file}: test, sandbox, benchmark or source files do not belong in the tarball`);
		}
	}
	const packed = new Set(files);
	for (const entry of n8nEntryFiles(pkg)) {
		if (!packed.has(posix.normalize(entry))) problems.push(`${entry}: listed in package.json "n8n" but not in the tarball`);
	}
	return problems;
}

const SOURCE_MAPPING_URL = /^\/\/# sourceMappingURL=(\S+)\s*$/m;

/**
 * Source maps must not point at files the tarball lacks: a `sourceMappingURL` comment needs its map,
 * and a map needs its sources, unless it carries their text in `sourcesContent`.
 */
export function sourceMapProblems(files: string[], read: (file: string) => string): string[] {
	const problems: string[] = [];
	const packed = new Set(files);
	for (const file of files) {
		if (/\.[cm]?js$/.test(file)) {
			const url = SOURCE_MAPPING_URL.exec(read(file))?.[1];
			if (url && !url.startsWith('data:')) {
				const map = posix.join(posix.dirname(file), url);
				if (!packed.has(map)) problems.push(`${file}: its sourceMappingURL points at ${map}, which is not in the tarball`);
			}
		}
		if (file.endsWith('.map')) {
			const map = JSON.parse(read(file)) as { sourceRoot?: string; sources?: string[]; sourcesContent?: Array<string | null> };
			(map.sources ?? []).forEach((source, index) => {
				if (typeof map.sourcesContent?.[index] === 'string') return;
				const target = posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? '', source));
				if (!packed.has(target)) problems.push(`${file}: maps to ${target}, which is not in the tarball`);
			});
		}
	}
	return problems;
}
