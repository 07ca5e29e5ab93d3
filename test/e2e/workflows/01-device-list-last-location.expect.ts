import {
	ensure,
	ensureRunSucceeded,
	isFiniteNumber,
	nodeItems,
	nodeRunItems,
	type WorkflowExpectation,
} from '../lib';

const expectation: WorkflowExpectation = {
	description: 'device getAll (limit 3) → getLastLocation per device',
	// The lane's one CLI run: the others run in its `n8n start`, which must reuse the token stored here.
	run: { via: 'execute' },
	check(run) {
		ensureRunSucceeded(run);

		const devices = nodeItems(run, 'List devices');
		ensure(devices.length === 3, `List devices: expected 3 items (limit 3), got ${devices.length}`);
		for (const [i, d] of devices.entries()) {
			ensure(d.id !== undefined && d.id !== '', `List devices item ${i} has no id: ${JSON.stringify(d)}`);
		}

		const locations = nodeRunItems(run, 'Last location');
		ensure(locations.length === 3, `Last location: expected 3 items (one per device), got ${locations.length}`);
		for (const [i, item] of locations.entries()) {
			const loc = item.json;
			const shown = JSON.stringify(loc);
			ensure(loc.deviceId !== undefined && loc.deviceId !== '', `Last location item ${i} has no deviceId: ${shown}`);
			ensure(
				String(loc.deviceId) === String(devices[i].id),
				`Last location item ${i} is for device ${String(loc.deviceId)}, expected ${String(devices[i].id)}`,
			);
			ensure(
				loc.neverReported === true || (isFiniteNumber(loc.latitude) && isFiniteNumber(loc.longitude)),
				`Last location item ${i}: expected numeric latitude/longitude or neverReported: true, got ${shown}`,
			);
			ensure(item.pairedItem !== undefined, `Last location item ${i} has no pairedItem`);
		}
	},
};

export default expectation;
