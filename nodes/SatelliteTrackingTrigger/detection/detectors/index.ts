import type { Detector } from '../detector';
import { criticalAlert } from './criticalAlert';
import { dailyLimitNear } from './dailyLimitNear';
import { deviceExpiring } from './deviceExpiring';
import { deviceSilent } from './deviceSilent';
import { geofenceCrossing } from './geofenceCrossing';
import { locationUpdated } from './locationUpdated';

/** Every detector; one runs when any of its events is selected. */
export const DETECTORS: readonly Detector[] = [
	locationUpdated,
	geofenceCrossing,
	criticalAlert,
	deviceSilent,
	deviceExpiring,
	dailyLimitNear,
];
