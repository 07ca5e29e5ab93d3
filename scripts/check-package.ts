/**
 * `npm run check:package [-- <package dir>]`: packs the package as npm would publish it and checks
 * what a user gets (scripts/check-package/rules.ts), then lints the tarball's JavaScript and
 * package.json with n8n's community-node lint (tools/lint/eslint.config.mjs, as `npm run lint`) and
 * the lint legs of n8n's package scanner (tools/lint/scan-package.mjs). Reports the tarball's size.
 *
 * The package dir defaults to this repository; the tests point it at modified copies. It must hold a
 * built dist/ (`npm run check:package` builds first). `--no-lint` skips the two lints, for the tests
 * of what goes into the tarball, which the lints do not look at. Exit code 1 when any check fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { fileListProblems, manifestProblems, sourceMapProblems, type PackageManifest } from './check-package/rules';

const REPO = resolve(__dirname, '..');
const LINT_TOOLS = join(REPO, 'tools/lint');

interface PackResult {
	filename: string;
	size: number;
	unpackedSize: number;
	files: Array<{ path: string }>;
}

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
	const result = spawnSync(command, args, { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (result.error) throw result.error;
	return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.trim(), stdout: result.stdout };
}

/** `npm pack` without lifecycle scripts (any would be reported, never run) into `destination`. */
function pack(packageDir: string, destination: string): PackResult {
	const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: packageDir });
	if (!packed.ok) throw new Error(`npm pack failed:\n${packed.output}`);
	return (JSON.parse(packed.stdout) as PackResult[])[0];
}

function lintProblems(extracted: string, sourceDir: string, scratch: string): string[] {
	const problems: string[] = [];
	const communityLint = run(
		join(LINT_TOOLS, 'node_modules/.bin/eslint'),
		['--config', join(LINT_TOOLS, 'eslint.config.mjs'), '--no-config-lookup', '--max-warnings=0', 'package.json', 'dist/**/*.js'],
		{ cwd: extracted },
	);
	console.log(communityLint.ok ? 'community-node lint on the tarball: no problems' : communityLint.output);
	if (!communityLint.ok) problems.push("n8n's community-node lint fails on the tarball (above)");

	// The scanner makes a temp folder when loaded; keep it in our scratch folder, removed at the end.
	const scanner = run('node', [join(LINT_TOOLS, 'scan-package.mjs'), extracted, sourceDir], {
		cwd: REPO,
		env: { ...process.env, TMPDIR: scratch },
	});
	console.log(scanner.output);
	if (!scanner.ok) problems.push("n8n's package scanner fails on the tarball or the source (above)");
	return problems;
}

function kB(bytes: number): string {
	return `${(bytes / 1000).toFixed(1)} kB`;
}

function checkPackage(packageDir: string, lint: boolean): boolean {
	if (lint) {
		const ensureTools = run('bash', [join(REPO, 'scripts/lint-tools.sh')], { cwd: REPO });
		if (!ensureTools.ok) throw new Error(`installing the lint tools failed:\n${ensureTools.output}`);
	}

	const scratch = mkdtempSync(join(tmpdir(), 'check-package-'));
	try {
		const tarball = pack(packageDir, scratch);
		const extracted = join(scratch, 'package');
		mkdirSync(extracted);
		const untar = run('tar', ['-xzf', join(scratch, tarball.filename), '-C', extracted, '--strip-components=1'], { cwd: scratch });
		if (!untar.ok) throw new Error(`extracting ${tarball.filename} failed:\n${untar.output}`);

		const files = tarball.files.map((file) => file.path).sort();
		const manifest = JSON.parse(readFileSync(join(extracted, 'package.json'), 'utf8')) as PackageManifest;
		const problems = [
			...manifestProblems(manifest),
			...fileListProblems(files, manifest),
			...sourceMapProblems(files, (file) => readFileSync(join(extracted, file), 'utf8')),
			...(lint ? lintProblems(extracted, packageDir, scratch) : []),
		];

		console.log(
			`${tarball.filename}: ${files.length} files, ${kB(tarball.size)} packed, ${kB(tarball.unpackedSize)} unpacked`,
		);
		if (problems.length === 0) {
			console.log('check:package: the tarball is fit to publish');
			return true;
		}
		console.log(`check:package: ${problems.length} problem(s):`);
		for (const problem of problems) console.log(`  - ${problem}`);
		return false;
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

const args = process.argv.slice(2);
const packageDir = args.find((arg) => !arg.startsWith('--'));
process.exitCode = checkPackage(resolve(packageDir ?? REPO), !args.includes('--no-lint')) ? 0 : 1;
