/**
 * `npm run check:package [-- <package dir>]`: packs the package as npm would publish it and checks
 * what a user gets (scripts/check-package/rules.ts). Reports the tarball's size. The tarball's
 * JavaScript is linted by `npm run lint` (n8n's scanner, tarball leg), not here.
 *
 * The package dir defaults to this repository; test/package/checkPackage.test.ts runs it on this
 * repository (so `npm test` checks the real tarball) and on modified copies. It must hold a built
 * dist/ (`npm run check:package` builds first). Exit code 1 when any check fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { fileListProblems, manifestProblems, sourceMapProblems, type PackageManifest } from './check-package/rules';

const REPO = resolve(__dirname, '..');

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

function kB(bytes: number): string {
	return `${(bytes / 1000).toFixed(1)} kB`;
}

function checkPackage(packageDir: string): boolean {
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

const [packageDir] = process.argv.slice(2);
process.exitCode = checkPackage(resolve(packageDir ?? REPO)) ? 0 : 1;
