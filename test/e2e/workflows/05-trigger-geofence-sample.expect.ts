import { ensure, ensureRunSucceeded, isFiniteNumber, nodeItems, type WorkflowExpectation } from '../lib';

const TRIGGER = 'Satellite Tracking Trigger';

// "Fetch Test Event" with only Geofence Exited selected: no device has just left the geofence, so
// the trigger shows a sample of that kind, built from a real device and its newest fix, with the
// fields the real event carries, so that the user can map them.
const expectation: WorkflowExpectation = {
	description: 'polling trigger, Fetch Test Event with only Geofence Exited selected (a geofenceExited sample) → NoOp',
	run: { via: 'editor', trigger: TRIGGER },
	check(run) {
		ensureRunSucceeded(run);
		ensure(run.mode === 'manual', `expected a manual execution, got mode ${JSON.stringify(run.mode)}`);

		const events = nodeItems(run, TRIGGER);
		ensure(events.length === 1, `trigger: expected 1 sample event, got ${events.length}`);
		const [e] = events;
		const shown = JSON.stringify(e);
		ensure(e.event === 'geofenceExited', `expected event geofenceExited: ${shown}`);
		ensure(e.geofence === 'Depot', `expected the geofence field naming "Depot": ${shown}`);
		ensure(e.sample === true, `expected sample: true (the exit did not really happen): ${shown}`);
		ensure(typeof e.eventId === 'string' && e.eventId !== '', `no eventId: ${shown}`);
		ensure(typeof e.deviceId === 'string' && e.deviceId !== '', `no deviceId: ${shown}`);
		const location = e.location as Record<string, unknown> | undefined;
		ensure(
			location !== undefined && isFiniteNumber(location.latitude) && isFiniteNumber(location.longitude),
			`no location with numeric latitude/longitude: ${shown}`,
		);

		const received = nodeItems(run, 'Received');
		ensure(received.length === 1, `Received: expected 1 item, got ${received.length}`);
	},
};

export default expectation;
