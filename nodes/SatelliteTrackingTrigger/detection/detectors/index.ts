import type { Detector } from '../detector';
import type { EventKind } from '../types';
import { criticalAlert } from './criticalAlert';
import { dailyLimitNear } from './dailyLimitNear';
import { deviceExpiring } from './deviceExpiring';
import { deviceSilent } from './deviceSilent';
import { fuelDropped } from './fuelDropped';
import { geofenceCrossing } from './geofenceCrossing';
import { geofenceDwell } from './geofenceDwell';
import { inputChanged } from './inputChanged';
import { locationUpdated } from './locationUpdated';
import { valueCrossed } from './valueCrossed';

export interface EventDefinition {
	/** The Events option users pick. */
	name: string;
	description: string;
	/** Rank among events of one fix: the move, leaving a geofence before entering the next, then what it raised. */
	order: number;
	detector: Detector;
}

/** Every event the trigger reports: a kind without an entry here does not compile. */
export const EVENTS: Record<EventKind, EventDefinition> = {
	locationUpdated: { name: 'Location Updated', description: 'A device sends a newer fix', order: 0, detector: locationUpdated },
	geofenceExited: {
		name: 'Geofence Exited',
		description: 'A device moves out of one of the geofences below',
		order: 1,
		detector: geofenceCrossing,
	},
	geofenceEntered: {
		name: 'Geofence Entered',
		description: 'A device moves into one of the geofences below',
		order: 2,
		detector: geofenceCrossing,
	},
	criticalAlert: { name: 'Critical Alert', description: 'A new fix carries an alert', order: 3, detector: criticalAlert },
	deviceSilent: {
		name: 'Device Silent',
		description: 'A device has sent no fix for the set number of minutes',
		order: 4,
		detector: deviceSilent,
	},
	deviceExpiring: {
		name: 'Device Expiring',
		description: "A device's license expires within the set number of days",
		order: 5,
		detector: deviceExpiring,
	},
	dailyLimitNear: {
		name: 'Daily Limit Near',
		description: "A device's e-mails or SMS of the day near its daily limit",
		order: 6,
		detector: dailyLimitNear,
	},
	deviceBackOnline: { name: 'Device Back Online', description: 'A device reported silent sends a fix again', order: 7, detector: deviceSilent },
	geofenceDwell: { name: 'Geofence Dwell', description: 'A device stays in a geofence below for the set time', order: 8, detector: geofenceDwell },
	inputChanged: { name: 'Input Changed', description: 'A digital input (or output) of a device switches on or off', order: 9, detector: inputChanged },
	valueCrossed: { name: 'Telemetry Threshold', description: 'A value such as temperature or fuel crosses a rule below', order: 10, detector: valueCrossed },
	fuelDropped: { name: 'Fuel Dropped', description: 'Fuel falls sharply between two fixes of a standing vehicle', order: 11, detector: fuelDropped },
};

/** Each detector once, with the events it reports: it runs when one of them is selected. */
export const DETECTORS: ReadonlyArray<{ detector: Detector; events: EventKind[] }> = [
	...new Set(Object.values(EVENTS).map((definition) => definition.detector)),
].map((detector) => ({
	detector,
	events: (Object.keys(EVENTS) as EventKind[]).filter((kind) => EVENTS[kind].detector === detector),
}));
