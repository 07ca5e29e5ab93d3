import { ensure, ensureRunSucceeded, isFiniteNumber, nodeItems, type WorkflowExpectation } from '../lib';

const TRIGGER = 'Satellite Tracking Trigger';

// The editor's "Fetch Test Event": n8n calls the trigger's poll() in manual mode, which reads the
// last fix of a few devices and returns real sample events (the poll state is left alone).
const expectation: WorkflowExpectation = {
	description: 'polling trigger, manual run from the trigger (locationUpdated sample events) → NoOp',
	run: { via: 'editor', trigger: TRIGGER },
	check(run) {
		ensureRunSucceeded(run);
		ensure(run.mode === 'manual', `expected a manual execution, got mode ${JSON.stringify(run.mode)}`);

		const events = nodeItems(run, TRIGGER);
		ensure(events.length >= 1 && events.length <= 5, `trigger: expected 1–5 sample events, got ${events.length}`);
		for (const [i, e] of events.entries()) {
			const shown = JSON.stringify(e);
			ensure(e.event === 'locationUpdated', `event ${i}: expected event locationUpdated: ${shown}`);
			ensure(typeof e.eventId === 'string' && e.eventId !== '', `event ${i}: no eventId: ${shown}`);
			ensure(typeof e.deviceId === 'string' && e.deviceId !== '', `event ${i}: no deviceId: ${shown}`);
			ensure(typeof e.deviceName === 'string', `event ${i}: no deviceName: ${shown}`);
			const location = e.location as Record<string, unknown> | undefined;
			ensure(
				location !== undefined && isFiniteNumber(location.latitude) && isFiniteNumber(location.longitude),
				`event ${i}: no location with numeric latitude/longitude: ${shown}`,
			);
		}

		const received = nodeItems(run, 'Received');
		ensure(received.length === events.length, `Received: expected ${events.length} items, got ${received.length}`);
	},
};

export default expectation;
