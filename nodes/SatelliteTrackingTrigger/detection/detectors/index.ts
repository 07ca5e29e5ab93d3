import type { Detector } from '../detector';
import { criticalAlert } from './criticalAlert';
import { dailyLimitNear } from './dailyLimitNear';
import { deviceExpiring } from './deviceExpiring';
import { deviceSilent } from './deviceSilent';
import { fuelDropped } from './fuelDropped';
import { geofenceCrossing } from './geofenceCrossing';
import { geofenceDwell } from './geofenceDwell';
import { inputChanged } from './inputChanged';
import { locationUpdated } from './locationUpdated';
import { maintenanceDue } from './maintenanceDue';
import { trips } from './trips';
import { valueCrossed } from './valueCrossed';

export interface EventDefinition {
	/** The Events option users pick. */
	name: string;
	description: string;
	detector: Detector;
}

/**
 * Every event the trigger reports, one line each: the key is the name saved workflows store (add,
 * never rename), and `EventKind` is derived from these keys. The lines' order is the rank among
 * events of one fix: the move, leaving a geofence before entering the next, then what it raised.
 */
export const EVENTS = {
	locationUpdated: { name: 'Location Updated', description: 'A device sends a newer fix', detector: locationUpdated },
	geofenceExited: {
		name: 'Geofence Exited',
		description: 'A device moves out of one of the geofences below',
		detector: geofenceCrossing,
	},
	geofenceEntered: {
		name: 'Geofence Entered',
		description: 'A device moves into one of the geofences below',
		detector: geofenceCrossing,
	},
	criticalAlert: { name: 'Critical Alert', description: 'A new fix carries an alert', detector: criticalAlert },
	deviceSilent: {
		name: 'Device Silent',
		description: 'A device has sent no fix for the set number of minutes',
		detector: deviceSilent,
	},
	deviceExpiring: {
		name: 'Device Expiring',
		description: "A device's license expires within the set number of days",
		detector: deviceExpiring,
	},
	dailyLimitNear: {
		name: 'Daily Limit Near',
		description: "A device's e-mails or SMS of the day near its daily limit",
		detector: dailyLimitNear,
	},
	deviceBackOnline: { name: 'Device Back Online', description: 'A device reported silent sends a fix again', detector: deviceSilent },
	geofenceDwell: { name: 'Geofence Dwell', description: 'A device stays in a geofence below for the set time', detector: geofenceDwell },
	inputChanged: { name: 'Input Changed', description: 'A digital input (or output) of a device switches on or off', detector: inputChanged },
	valueCrossed: { name: 'Telemetry Threshold', description: 'A value such as temperature or fuel crosses a rule below', detector: valueCrossed },
	fuelDropped: { name: 'Fuel Dropped', description: 'Fuel falls sharply between two fixes of a standing vehicle', detector: fuelDropped },
	tripEnded: { name: 'Trip Ended', description: 'A device stops for Min Stop Minutes after a trip', detector: trips },
	tripStarted: { name: 'Trip Started', description: 'A device has moved Min Trip Distance from where it stood', detector: trips },
	idling: { name: 'Idling', description: 'An engine has run below Moving Speed for Idle Minutes', detector: trips },
	maintenanceDue: { name: 'Maintenance Due', description: "A device's odometer passes another service interval", detector: maintenanceDue },
} satisfies Record<string, EventDefinition>;

/**
 * The events the trigger reports, as users' workflows store them: the keys of the registry. Add,
 * never rename: test/unit/registries.test.ts pins the saved names. types.ts passes it on.
 */
export type EventKind = keyof typeof EVENTS;

/** Every kind, in rank order. */
export const EVENT_KINDS = Object.keys(EVENTS) as EventKind[];

/** Rank among the events of one fix: the kind's line in `EVENTS`. */
export const RANK: Readonly<Record<EventKind, number>> = Object.fromEntries(EVENT_KINDS.map((kind, index) => [kind, index])) as Record<EventKind, number>;

/** Each detector once, with the events it reports: it runs when one of them is selected. */
export const DETECTORS: ReadonlyArray<{ detector: Detector; events: EventKind[] }> = [
	...new Set(Object.values<EventDefinition>(EVENTS).map((definition) => definition.detector)),
].map((detector) => ({
	detector,
	events: EVENT_KINDS.filter((kind) => EVENTS[kind].detector === detector),
}));
