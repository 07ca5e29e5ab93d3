/** How fixes are cut into trips and stops: the options Get Trips and Stops and Get Daily Summary share. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import { readTripSettings as fromParameters } from '../../../shared/trips/properties';
import { TRIP_DEFAULTS, type TripSettings } from '../../../shared/trips/segment';

export function readTripSettings(context: IExecuteFunctions, itemIndex: number): TripSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return fromParameters((name) => options[name], (label, result) => checked(context, itemIndex, label, result), TRIP_DEFAULTS);
}
