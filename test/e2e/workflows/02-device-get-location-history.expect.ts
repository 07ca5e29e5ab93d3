import { ensure, ensureRunSucceeded, isFiniteNumber, nodeItems, type WorkflowExpectation } from '../lib';

// A second `n8n execute` process: besides its own checks, it shows that n8n reuses the token it
// stored in the credential during the first workflow (see TOKEN_CALLS_PER_LANE in run-e2e.ts).
const expectation: WorkflowExpectation = {
	description: 'device get (fixed id) → location getAll over the last 6 h (limit 5)',
	check(run) {
		ensureRunSucceeded(run);

		const devices = nodeItems(run, 'Get device');
		ensure(devices.length === 1, `Get device: expected 1 item, got ${devices.length}`);
		ensure(devices[0].id === 'device002', `Get device: expected id device002, got ${JSON.stringify(devices[0].id)}`);

		const fixes = nodeItems(run, 'Location history');
		ensure(fixes.length >= 1 && fixes.length <= 5, `Location history: expected 1–5 fixes (limit 5), got ${fixes.length}`);
		const from = Date.now() - 6 * 3600_000 - 10 * 60_000;
		for (const [i, fix] of fixes.entries()) {
			const shown = JSON.stringify(fix);
			ensure(fix.deviceId === 'device002', `Location history fix ${i} is not for device002: ${shown}`);
			ensure(isFiniteNumber(fix.latitude) && isFiniteNumber(fix.longitude), `Location history fix ${i} has no numeric position: ${shown}`);
			const at = Date.parse(String(fix.dateTime));
			ensure(Number.isFinite(at) && at >= from && at <= Date.now() + 60_000, `Location history fix ${i} is outside the range: ${shown}`);
		}
	},
};

export default expectation;
