/**
 * The docs a user reads cannot drift from the code or from each other: the editor's Docs links and the
 * credential's link open README sections that exist, the README's tables name every operation and
 * every trigger event the registries hold, and every relative link in the README, CONTRIBUTING.md and
 * docs/ reaches a file and, when it names one, a heading of it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { SatelliteTrackingApi } from '../../credentials/SatelliteTrackingApi.credentials';
import { resources } from '../../nodes/SatelliteTracking/actions/router';
import { EVENTS, EVENT_KINDS } from '../../nodes/SatelliteTrackingTrigger/detection/detectors';

const ROOT = join(__dirname, '../..');
const homepage = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string }).homepage.replace(/#.*$/, '');

/** A Markdown text without its fenced code blocks and inline code: what GitHub renders as prose. */
const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

/** The anchors of a Markdown file's headings, as GitHub makes them (a repeated heading gets -1, -2 …). */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
	for (const [, heading] of withoutFences.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');

const codexUrls = ['SatelliteTracking/SatelliteTracking.node.json', 'SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.json'].flatMap((file) => {
	const codex = JSON.parse(read(join('nodes', file))) as { resources: Record<string, Array<{ url: string }>> };
	return Object.values(codex.resources).flat().map(({ url }) => [file, url] as const);
});

// The Docs links in the editor open the package's own README, which links the vendor's API docs.
it.each([...codexUrls, ['credential', new SatelliteTrackingApi().documentationUrl] as const])('%s links a README section: %s', (_, url) => {
	const [page, section] = url.split('#');
	expect(page).toBe(homepage);
	expect(anchorsOf(readme)).toContain(section);
});

/** The rows of the Markdown tables under a README heading, each as its trimmed cells. */
function tableRows(markdown: string, heading: string): string[][] {
	const start = markdown.indexOf(`\n## ${heading}\n`);
	expect(start).toBeGreaterThan(-1);
	const end = markdown.indexOf('\n## ', start + 1);
	return markdown
		.slice(start, end === -1 ? undefined : end)
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
		.map((line) =>
			line
				.slice(1, -1)
				.split('|')
				.map((cell) => cell.trim()),
		);
}

describe("the README's tables name what the registries hold", () => {
	const operationRows = tableRows(readme, 'Operations').map(([resource, operation]) => `${resource} → ${operation}`);
	const operations = Object.values(resources).flatMap((resource) =>
		Object.values(resource.operations).map((operation) => `${resource.option.name} → ${operation.option.name}`),
	);

	it.each(operations)('Operations has a line for %s', (operation) => {
		expect(operationRows).toContain(operation);
	});

	it('Operations has no line for an operation the node does not have', () => {
		expect(operationRows.filter((row) => row !== 'Resource → Operation' && !operations.includes(row))).toEqual([]);
	});

	const eventRows = tableRows(readme, 'Satellite Tracking Trigger').map(([event]) => event);
	const events = EVENT_KINDS.map((kind) => `${EVENTS[kind].name} (\`${kind}\`)`);

	it.each(events)('the trigger has a line for %s', (event) => {
		expect(eventRows).toContain(event);
	});

	it('the trigger has no line for an event the registry does not have', () => {
		expect(eventRows.filter((row) => row !== 'Event' && !events.includes(row))).toEqual([]);
	});
});

/** The Markdown pages the docs consist of: the README, CONTRIBUTING.md and every page in docs/. */
const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The relative links of a page (to a file, a heading, or both), as written. */
const relativeLinks = (markdown: string) =>
	[...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map(([, target]) => target).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));

/** What is wrong with one link of a page, or undefined when it reaches its file and heading. */
function brokenLink(page: string, target: string): string | undefined {
	const [path, anchor] = target.split('#');
	const file = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
	if (file.startsWith('..') || !existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
	if (anchor === undefined) return undefined;
	if (!file.endsWith('.md')) return `${target}: an anchor into a file that has no headings`;
	return anchorsOf(read(file)).has(anchor) ? undefined : `${target}: no heading #${anchor} in ${file}`;
}

describe('every relative link resolves', () => {
	it.each(pages)('%s', (page) => {
		expect(relativeLinks(read(page)).map((target) => brokenLink(page, target)).filter(Boolean)).toEqual([]);
	});

	// The checker itself: a link to a missing file or heading is found, fences and inline code are not links.
	it('finds a missing file, a missing heading, and only links outside code', () => {
		expect(brokenLink('docs/trigger.md', '../README.md#operations')).toBeUndefined();
		expect(brokenLink('docs/trigger.md', '#device-silent')).toBeUndefined();
		expect(brokenLink('docs/trigger.md', 'nowhere.md')).toBe('nowhere.md: no file docs/nowhere.md');
		expect(brokenLink('README.md', 'docs/trigger.md#no-such-event')).toBe('docs/trigger.md#no-such-event: no heading #no-such-event in docs/trigger.md');
		expect(relativeLinks('[a](a.md) `[b](b.md)`\n```\n[c](c.md)\n```\n[d](https://x.example/d.md) [e](#e)')).toEqual(['a.md', '#e']);
		expect([...anchorsOf('# A `b`: c\n## Notes\n## Notes\n```\n# not a heading\n```')]).toEqual(['a-b-c', 'notes', 'notes-1']);
	});
});
