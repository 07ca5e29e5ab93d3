/**
 * `npm run dev`'s sandbox answers where the examples post (issue 47's first hour, found again in the
 * real editor): it took a random port, so an example imported into that editor and run with its
 * Sandbox credential failed at its chat post to http://127.0.0.1:8787 unless `npm run sandbox` ran too.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { portIfFree } from '../../scripts/n8n/local';
import { REPO, SHIPPED_SANDBOX_ORIGIN, SHIPPED_SANDBOX_PORT } from '../../scripts/n8n/setup';

describe("npm run dev's sandbox and the examples", () => {
	it('every example posts to the sink at the origin npm run dev prefers for its sandbox', () => {
		expect(SHIPPED_SANDBOX_ORIGIN).toBe(`http://127.0.0.1:${SHIPPED_SANDBOX_PORT}`);
		const devSource = fs.readFileSync(path.join(REPO, 'scripts', 'dev.ts'), 'utf8');
		expect(devSource).toMatch(/portIfFree\(SHIPPED_SANDBOX_PORT\)/);
		const urls = fs
			.readdirSync(path.join(REPO, 'examples'))
			.filter((file) => file.endsWith('.json'))
			.flatMap((file) => (JSON.parse(fs.readFileSync(path.join(REPO, 'examples', file), 'utf8')).nodes as Array<{ type: string; parameters: { url?: string } }>)
				.filter((node) => node.type === 'n8n-nodes-base.httpRequest')
				.map((node) => node.parameters.url));
		expect(urls.length).toBeGreaterThan(0);
		for (const url of urls) expect(url).toMatch(new RegExp(`^${SHIPPED_SANDBOX_ORIGIN.replace(/[.]/g, '\\.')}/__sink/`));
	});

	it('takes a port only while nothing listens there', async () => {
		const server = net.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as net.AddressInfo;
		expect(await portIfFree(port)).toBeUndefined();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		expect(await portIfFree(port)).toBe(port);
	});
});
