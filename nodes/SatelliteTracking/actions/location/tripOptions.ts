/** How fixes are cut into trips and stops: the options Get Trips and Stops and Get Daily Summary share. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import { TRIP_DEFAULTS, type TripSettings } from '../../../shared/trips/segment';
import { toNumberInRange } from '../../../shared/validation';

const OPTIONS: Array<{ name: keyof TripSettings; displayName: string; description: string }> = [
	{
		name: 'movingSpeed',
		displayName: 'Moving Speed',
		description: "A fix whose speed is at or above this is moving (the service's Speed, as its app shows it: km/h)",
	},
	{
		name: 'minStopMinutes',
		displayName: 'Min Stop Minutes',
		description: 'Standing still for less than this (a traffic light, a queue) stays part of the trip',
	},
	{
		name: 'minTripDistanceMeters',
		displayName: 'Min Trip Distance (Meters)',
		description: 'A move that takes the device less far than this from where it stood (GPS wander, shunting in a yard) is no trip',
	},
];

export const tripOptionFields: INodeProperties[] = OPTIONS.map(({ name, displayName, description }) => ({
	displayName,
	name,
	type: 'number',
	default: TRIP_DEFAULTS[name],
	typeOptions: { minValue: 0 },
	description,
}));

export function readTripSettings(context: IExecuteFunctions, itemIndex: number): TripSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const read = (name: keyof TripSettings, displayName: string) =>
		options[name] === undefined ? TRIP_DEFAULTS[name] : checked(context, itemIndex, displayName, toNumberInRange(options[name], 0, Number.MAX_SAFE_INTEGER));
	return Object.fromEntries(OPTIONS.map(({ name, displayName }) => [name, read(name, displayName)])) as unknown as TripSettings;
}
