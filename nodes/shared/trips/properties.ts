/** How fixes are cut into trips and stops, as users set it: Get Trips and Stops, Get Daily Summary and the trigger's trip events. */
import type { INodeProperties } from 'n8n-workflow';

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
