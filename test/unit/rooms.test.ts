/** Each node owns its folder: neither imports from the other's, and shared code imports from neither. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const NODES = resolve(__dirname, '../../nodes');
const ROOMS = ['SatelliteTracking', 'SatelliteTrackingTrigger', 'shared'];

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The room of every module a file imports by a relative path. */
function importedRooms(file: string): string[] {
	const specifiers = [...readFileSync(file, 'utf8').matchAll(/(?:from|import) '(\.[^']+)'/g)].map((match) => match[1]);
	return specifiers.map((specifier) => relative(NODES, resolve(dirname(file), specifier)).split('/')[0]);
}

describe('rooms', () => {
	it.each(ROOMS)('nodes/%s imports from no other node folder', (room) => {
		const crossings = sources(join(NODES, room)).flatMap((file) =>
			importedRooms(file)
				.filter((target) => target !== room && target !== 'shared' && ROOMS.includes(target))
				.map((target) => `${relative(NODES, file)} → ${target}`),
		);
		expect(crossings).toEqual([]);
	});
});
