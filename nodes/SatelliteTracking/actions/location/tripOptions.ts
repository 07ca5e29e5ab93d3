/** How fixes are cut into trips and stops: the options Get Trips and Stops and Get Daily Summary share. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import { TRIP_DEFAULTS, type TripSettings } from '../../../shared/trips/segment';
import { toNumberInRange } from '../../../shared/validation';

/** The n8n lint reads each default where it is written: the three are spelled out. */
export const tripOptionFields: INodeProperties[] = [
	{
		displayName: 'Moving Speed',
		name: 'movingSpeed',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 0 },
		description: "A fix whose speed is at or above this is moving (the service's Speed, as its app shows it: km/h)",
	},
	{
		displayName: 'Min Stop Minutes',
		name: 'minStopMinutes',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 0 },
		description: 'Standing still for less than this (a traffic light, a queue) stays part of the trip',
	},
	{
		displayName: 'Min Trip Distance (Meters)',
		name: 'minTripDistanceMeters',
		type: 'number',
		default: 200,
		typeOptions: { minValue: 0 },
		description: 'A move that takes the device less far than this from where it stood (GPS wander, shunting in a yard) is no trip',
	},
];

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
