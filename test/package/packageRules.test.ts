import { fileListProblems, manifestProblems, sourceMapProblems } from '../../scripts/check-package/rules';

const manifest = {
	license: 'MIT',
	peerDependencies: { 'n8n-workflow': '*' },
	n8n: { nodes: ['dist/nodes/A/A.node.js'], credentials: ['dist/credentials/A.credentials.js'] },
};

describe('manifestProblems', () => {
	test('a manifest as n8n wants it has none', () => {
		expect(manifestProblems(manifest)).toEqual([]);
	});

	test('install and publish scripts, overrides and extra peers are each reported', () => {
		const problems = manifestProblems({
			...manifest,
			scripts: { build: 'tsc', postinstall: 'node setup.js', prepublishOnly: 'npm test' },
			overrides: { xlsx: '0.18.5' },
			peerDependencies: { 'n8n-workflow': '^1.0.0', 'n8n-core': '*' },
		});

		expect(problems).toEqual([
			'lifecycle scripts are not allowed: postinstall, prepublishOnly',
			'"overrides" is not allowed',
			'peerDependencies must be exactly { "n8n-workflow": "*" }, found {"n8n-workflow":"^1.0.0","n8n-core":"*"}',
		]);
	});
});

describe('fileListProblems', () => {
	test('a node listed in "n8n" but missing from the tarball is reported', () => {
		const problems = fileListProblems(['package.json', 'dist/credentials/A.credentials.js'], manifest);

		expect(problems).toEqual(['dist/nodes/A/A.node.js: listed in package.json "n8n" but not in the tarball']);
	});

	test('declarations are fine, TypeScript sources and sandbox code are not', () => {
		const files = ['dist/nodes/A/A.node.js', 'dist/nodes/A/A.node.d.ts', 'dist/credentials/A.credentials.js'];
		const problems = fileListProblems([...files, 'dist/nodes/A/A.node.ts', 'dist/sandbox/server.js'], manifest);

		expect(problems).toEqual([
			'dist/nodes/A/A.node.ts: test, sandbox, benchmark or source files do not belong in the tarball',
			'dist/sandbox/server.js: test, sandbox, benchmark or source files do not belong in the tarball',
		]);
	});
});

describe('sourceMapProblems', () => {
	const js = '"use strict";\n//# sourceMappingURL=A.node.js.map';

	test('a map whose source is not packed is reported, and a comment naming a missing map', () => {
		const contents: Record<string, string> = {
			'dist/nodes/A/A.node.js': js,
			'dist/nodes/A/A.node.js.map': JSON.stringify({ sources: ['../../../nodes/A/A.node.ts'] }),
			'dist/nodes/B.js': '//# sourceMappingURL=B.js.map\n',
		};

		expect(sourceMapProblems(Object.keys(contents), (file) => contents[file])).toEqual([
			'dist/nodes/A/A.node.js.map: maps to nodes/A/A.node.ts, which is not in the tarball',
			'dist/nodes/B.js: its sourceMappingURL points at dist/nodes/B.js.map, which is not in the tarball',
		]);
	});

	test('a map that carries its sources, or points at packed ones, is fine', () => {
		const contents: Record<string, string> = {
			'dist/nodes/A/A.node.js': js,
			'dist/nodes/A/A.node.js.map': JSON.stringify({ sources: ['../../../nodes/A/A.node.ts', 'A.src.js'], sourcesContent: ['export {}', null] }),
			'dist/nodes/A/A.src.js': '',
		};

		expect(sourceMapProblems(Object.keys(contents), (file) => contents[file])).toEqual([]);
	});
});
