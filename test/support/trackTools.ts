/** Debian's track-file readers as the tests call them (installed by scripts/e2e/install.sh track-tools). */
import { execFileSync } from 'node:child_process';

// stderr is kept with a failure's error, not printed: GDAL warns of every GPX extension it cannot type.
export const runTool = (command: string, args: string[]) =>
	execFileSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

/** The feature count of each layer GDAL finds in the file (GPX: tracks, track_points, waypoints…). */
export const layerCounts = (file: string): Record<string, number> =>
	Object.fromEntries(
		[...runTool('ogrinfo', ['-ro', '-al', '-so', file]).matchAll(/Layer name: (\S+)[\s\S]*?Feature Count: (\d+)/g)].map((match) => [match[1], Number(match[2])]),
	);
