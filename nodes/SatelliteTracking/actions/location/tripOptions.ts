/** How fixes are cut into trips and stops: the options Get Trips and Stops and Get Daily Summary share. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import { TRIP_DEFAULTS, type TripSettings } from '../../../shared/trips/segment';
import { toNumberInRange } from '../../../shared/validation';

export function readTripSettings(context: IExecuteFunctions, itemIndex: number): TripSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const read = (name: keyof TripSettings, displayName: string) =>
		options[name] === undefined ? TRIP_DEFAULTS[name] : checked(context, itemIndex, displayName, toNumberInRange(options[name], 0, Number.MAX_SAFE_INTEGER));
	return {
		movingSpeed: read('movingSpeed', 'Moving Speed'),
		minStopMinutes: read('minStopMinutes', 'Min Stop Minutes'),
		minTripDistanceMeters: read('minTripDistanceMeters', 'Min Trip Distance (Meters)'),
	};
}
