import { relative } from 'node:path';

import { engineLoaded } from './engineInSuite';
import { ROOT } from './hostZones';
import { suiteZoneGuard } from './zoneGuard';

// n8n-core 2.8 starts a 60 s cleanup interval for SSH clients that keeps jest from exiting. Only a
// suite that loaded the engine can have one: importing n8n-core here for every suite cost each of
// the others about a quarter second (`npm test`'s jest in band: 125 CPU-s with it, 95 without).
afterAll(async () => {
	if (!engineLoaded()) return;
	const { Container } = await import('@n8n/di');
	const { SSHClientsManager } = await import('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
});

// No suite asks the host's time zone (test/support/zoneGuard.ts): what the package computes must not
// depend on where n8n runs.
const guard = suiteZoneGuard();
afterAll(() => {
	const calls = guard.calls();
	if (calls.length === 0) return;
	throw new Error(
		`${relative(ROOT, expect.getState().testPath ?? '')} asks the host's time zone:\n  ${calls.join('\n  ')}\n` +
			'Name the zone meant: UTC getters, a timeZone option, a date-time text with its offset (test/support/hostZones.ts).',
	);
});
