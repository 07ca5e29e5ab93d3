/**
 * One share of the time-zone matrix (scripts/test-zones.sh) as a single jest file: the suites named
 * in ZONE_MATRIX_SUITES (one path per line), each inside a describe of its own path, so its hooks
 * stay its own and a failure names it. jest loads n8n's engine once per test file; run as ~50 files
 * under each zone, loading it was most of the matrix's CPU.
 */
import { join } from 'node:path';

import { ROOT } from './hostZones';

const suites = (process.env.ZONE_MATRIX_SUITES ?? '').split('\n').filter((suite) => suite !== '');
if (suites.length === 0) throw new Error('ZONE_MATRIX_SUITES names no suite: run this through scripts/test-zones.sh');

for (const suite of suites) {
	describe(suite, () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		require(join(ROOT, suite));
	});
}
