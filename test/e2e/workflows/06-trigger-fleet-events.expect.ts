import { ensure, ensureRunSucceeded, isFiniteNumber, nodeItems, type WorkflowExpectation } from '../lib';

const TRIGGER = 'Satellite Tracking Trigger';

// "Fetch Test Event" on version 2 with the fleet events of issue 25: one item of each kind, labelled,
// with the fields the real event carries (a trip summed up as Get Trips and Stops gives it, the idling
// length, the odometer and the service mark it passed).
const expectation: WorkflowExpectation = {
	description: 'polling trigger v2, Fetch Test Event with Trip Ended, Idling and Maintenance Due → NoOp',
	run: { via: 'editor', trigger: TRIGGER },
	check(run) {
		ensureRunSucceeded(run);
		const events = nodeItems(run, TRIGGER);
		const shown = JSON.stringify(events);
		const byKind = new Map(events.map((event) => [event.event, event]));
		ensure(events.length === 3 && byKind.size === 3, `expected one item each of tripEnded, idling, maintenanceDue: ${shown}`);
		const trip = byKind.get('tripEnded')?.trip as Record<string, unknown> | undefined;
		ensure(byKind.get('tripEnded')?.eventLabel === 'Trip Ended', `tripEnded without its label: ${shown}`);
		ensure(trip?.type === 'trip' && isFiniteNumber(trip.distanceKm) && isFiniteNumber(trip.durationMinutes), `tripEnded without a trip summary: ${shown}`);
		const idling = byKind.get('idling');
		ensure(isFiniteNumber(idling?.idleMinutes) && (idling!.idleMinutes as number) >= 10, `idling without idleMinutes of at least 10: ${shown}`);
		const service = byKind.get('maintenanceDue');
		ensure(
			isFiniteNumber(service?.serviceDueKm) && (service!.serviceDueKm as number) % 5000 === 0 && (service!.milleage as number) >= (service!.serviceDueKm as number),
			`maintenanceDue without a mark of the 5,000 km interval it passed: ${shown}`,
		);
		ensure(nodeItems(run, 'Received').length === 3, 'Received: expected the 3 items');
	},
};

export default expectation;
