/** Each node owns its folder: neither imports from the other's, and shared code imports from neither. */
import { dirname, join, relative, resolve } from 'node:path';
import { importSpecifiersOf, sourceFiles } from '../support/imports';

const NODES = resolve(__dirname, '../../nodes');
const ROOMS = ['SatelliteTracking', 'SatelliteTrackingTrigger', 'shared'];

/** The room of every module a file imports by a relative path. */
function importedRooms(file: string): string[] {
	return importSpecifiersOf(file)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => relative(NODES, resolve(dirname(file), specifier)).split('/')[0]);
}

describe('rooms', () => {
	it.each(ROOMS)('nodes/%s imports from no other node folder', (room) => {
		const crossings = sourceFiles(join(NODES, room), /\.ts$/).flatMap((file) =>
			importedRooms(file)
				.filter((target) => target !== room && target !== 'shared' && ROOMS.includes(target))
				.map((target) => `${relative(NODES, file)} → ${target}`),
		);
		expect(crossings).toEqual([]);
	});
});
