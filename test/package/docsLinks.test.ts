import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { SatelliteTrackingApi } from '../../credentials/SatelliteTrackingApi.credentials';

const ROOT = join(__dirname, '../..');
const homepage = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string }).homepage.replace(/#.*$/, '');

/** GitHub's anchor of a README heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
const readmeAnchors = new Set(
	readFileSync(join(ROOT, 'README.md'), 'utf8')
		.split('\n')
		.filter((line) => /^#{1,4} /.test(line))
		.map((line) => anchor(line.replace(/^#+ /, ''))),
);

const codexUrls = ['SatelliteTracking/SatelliteTracking.node.json', 'SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.json'].flatMap((file) => {
	const codex = JSON.parse(readFileSync(join(ROOT, 'nodes', file), 'utf8')) as { resources: Record<string, Array<{ url: string }>> };
	return Object.values(codex.resources).flat().map(({ url }) => [file, url] as const);
});

// The Docs links in the editor open the package's own README, which links the vendor's API docs.
it.each([...codexUrls, ['credential', new SatelliteTrackingApi().documentationUrl] as const])('%s links a README section: %s', (_, url) => {
	const [page, section] = url.split('#');
	expect(page).toBe(homepage);
	expect(readmeAnchors).toContain(section);
});
