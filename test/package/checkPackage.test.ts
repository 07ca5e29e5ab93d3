/**
 * `npm run check:package` run for real (npm pack, extraction, the checks) on this repository, so
 * `npm run test:slow` checks the tarball users get (.ci/run has no separate step for it), and on copies of
 * this package in temp folders with package.json or dist/ changed in the copy only: it fails on each
 * thing n8n or a user must not get. And the lint's tarball leg (tools/lint/scan-package.mjs, run by
 * `npm run lint`) refuses JavaScript n8n's scanner refuses.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '../..');
const repoManifest = () => readFileSync(join(REPO, 'package.json'), 'utf8');
const copies: string[] = [];

type Manifest = { files: string[]; dependencies?: Record<string, string>; n8n: { nodes: string[] } };

beforeAll(() => {
	// Build when the tarball's files are missing (a fresh clone; .ci/run builds once before `npm test`),
	// and install the lint tools here rather than inside a test.
	const tools = spawnSync('bash', [join(REPO, 'scripts/lint-tools.sh')], { encoding: 'utf8' });
	if (tools.status !== 0) throw new Error(`installing the lint tools failed:\n${tools.stdout}${tools.stderr}`);
	const manifest = JSON.parse(repoManifest()) as Manifest;
	if (!manifest.n8n.nodes.every((node) => existsSync(join(REPO, node)))) {
		const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
		if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
	}
}, 300_000);

afterAll(() => {
	for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** A copy of what `npm pack` reads, with package.json changed by `edit`, plus `extraFiles` from the repo. */
function packageCopy(edit: (manifest: Manifest) => void = () => {}, extraFiles: string[] = []): string {
	const dir = mkdtempSync(join(tmpdir(), 'check-package-test-'));
	copies.push(dir);
	const manifest = JSON.parse(repoManifest()) as Manifest;
	edit(manifest);
	writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
	for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md', 'dist/nodes', 'dist/credentials', ...extraFiles]) {
		cpSync(join(REPO, file), join(dir, file), { recursive: true });
	}
	return dir;
}

function checkPackage(dir: string) {
	const result = spawnSync(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'scripts/check-package.ts'), dir], {
		cwd: REPO,
		encoding: 'utf8',
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('the package as it is passes, and its size is reported', () => {
	const { status, output } = checkPackage(REPO);

	expect(output).toContain('check:package: the tarball is fit to publish');
	expect(output).toMatch(/n8n-nodes-satellite-tracking-\d+\.\d+\.\d+\.tgz: \d+ files, [\d.]+ kB packed, [\d.]+ kB unpacked/);
	expect(status).toBe(0);
});

test('a test file added to "files" fails the check', () => {
	const before = repoManifest();
	const testFile = 'test/unit/validation.test.ts';
	const dir = packageCopy((manifest) => manifest.files.push(testFile), [testFile]);

	const { status, output } = checkPackage(dir);

	expect(output).toContain(`${testFile}: only dist/, package.json, README.md, LICENSE, CHANGELOG.md belong in the tarball`);
	expect(status).toBe(1);
	expect(repoManifest()).toBe(before);
});

test('test code built into dist/ fails the check', () => {
	const dir = packageCopy();
	cpSync(join(REPO, 'test/unit/validation.test.ts'), join(dir, 'dist/nodes/validation.test.js'));

	const { status, output } = checkPackage(dir);

	expect(output).toContain('dist/nodes/validation.test.js: test, sandbox, benchmark or source files do not belong in the tarball');
	expect(status).toBe(1);
});

test('a runtime dependency fails the check', () => {
	const dir = packageCopy((manifest) => {
		manifest.dependencies = { axios: '1.7.9' };
	});

	const { status, output } = checkPackage(dir);

	expect(output).toContain('runtime dependencies are not allowed (n8n installs none): axios');
	expect(status).toBe(1);
});

test("the lint's tarball leg (n8n's scanner) refuses the tarball's JavaScript with a restricted global", () => {
	const dir = packageCopy();
	const [node] = (JSON.parse(repoManifest()) as Manifest).n8n.nodes;
	appendFileSync(join(dir, node), '\nsetTimeout(() => {}, 1);\n');

	const scanner = spawnSync('node', [join(REPO, 'tools/lint/scan-package.mjs'), dir], { cwd: REPO, encoding: 'utf8', env: { ...process.env, TMPDIR: dir } });
	const output = `${scanner.stdout}${scanner.stderr}`;

	expect(output).toContain('scanner, tarball leg:');
	expect(output).toContain("Use of restricted global 'setTimeout' is not allowed");
	expect(scanner.status).toBe(1);
}, 300_000);
