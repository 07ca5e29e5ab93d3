// The two lint legs of n8n's package scanner (@n8n/scan-community-package), run offline on a local
// package: the source leg over a source checkout (package.json, nodes/ and credentials/) and the
// tarball leg over an extracted tarball (its JavaScript and package.json). The scanner's download,
// provenance and source-fetch steps need the published package and are left out.
//
//   node tools/lint/scan-package.mjs <extracted tarball dir> [<source dir>]
//
// Prints the scanner's own report; exit code 1 when a leg finds a problem.
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const [tarballDir, sourceDir] = process.argv.slice(2);
if (!tarballDir) {
	console.error('usage: node tools/lint/scan-package.mjs <extracted tarball dir> [<source dir>]');
	process.exit(2);
}

const legs = [['tarball', tarballDir, ['**/*.js', 'package.json']]];
if (sourceDir) legs.push(['source', sourceDir, SOURCE_FILE_PATTERNS]);

let passed = true;
for (const [name, dir, patterns] of legs) {
	const result = await analyzePackage(dir, patterns);
	console.log(`scanner, ${name} leg: ${result.passed ? 'passed' : result.message}${result.message && result.passed ? ` (${result.message})` : ''}`);
	if (result.details) console.log(result.details);
	passed &&= result.passed;
}
process.exit(passed ? 0 : 1);
