// n8n's community-node lint as n8n's package scanner (@n8n/scan-community-package) applies it, run
// offline on a local package: the scanner's own ESLint config (buildScanConfig) over its two legs, the
// source leg (its SOURCE_FILE_PATTERNS: package.json, nodes/ and credentials/) and the tarball leg (the
// extracted tarball's JavaScript and package.json, as the scanner scopes it). Stricter than the
// scanner in one way: a warning fails too (the scanner only fails on errors). The scanner's download,
// provenance and source-fetch steps need the published package and are left out.
//
//   node tools/lint/scan-package.mjs <extracted tarball dir> [<source dir>]
//
// Prints ESLint's report per leg; exit code 1 when a leg has a problem. Used by scripts/lint.sh.
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { buildScanConfig, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const [tarballDir, sourceDir] = process.argv.slice(2);
if (!tarballDir) {
	console.error('usage: node tools/lint/scan-package.mjs <extracted tarball dir> [<source dir>]');
	process.exit(2);
}

const legs = [['tarball', tarballDir, ['**/*.js', 'package.json']]];
if (sourceDir) legs.push(['source', sourceDir, SOURCE_FILE_PATTERNS]);

let passed = true;
for (const [name, dir, patterns] of legs) {
	// As the scanner's analyzePackage: its config only, no inline disabling, same files.
	const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await buildScanConfig() });
	const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
	if (files.length === 0) {
		console.log(`scanner, ${name} leg: no files to lint in ${dir}`);
		passed = false;
		continue;
	}
	const results = await eslint.lintFiles(files);
	const problems = results.reduce((sum, r) => sum + r.errorCount + r.warningCount, 0);
	console.log(`scanner, ${name} leg: ${files.length} files, ${problems === 0 ? 'no problems' : `${problems} problem(s)`}`);
	if (problems > 0) console.log(await (await eslint.loadFormatter('stylish')).format(results));
	passed &&= problems === 0;
}
process.exit(passed ? 0 : 1);
