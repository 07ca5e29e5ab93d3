/** How fixes are cut into trips and stops, as users set it: Get Trips and Stops, Get Daily Summary and the trigger's trip events. */
import type { INodeProperties } from 'n8n-workflow';

import { toNumberInRange, type Check } from '../validation';
import type { TripSettings } from './segment';

/** The n8n lint reads each default where it is written: the four are spelled out. */
export const tripOptionFields: INodeProperties[] = [
	{
		displayName: 'Moving Speed (Km/h)',
		name: 'movingSpeed',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 0 },
		description: "A fix whose speed is at or above this is moving (the service's Speed, taken as km/h, the unit its app shows)",
	},
	{
		displayName: 'Min Stop Minutes',
		name: 'minStopMinutes',
		type: 'number',
		default: 5,
		typeOptions: { minValue: 0 },
		description:
			'Standing still for less than this (a traffic light, a queue) stays part of the trip; a trip whose last fix stood still ends once the device has been silent this long',
	},
	{
		displayName: 'Min Trip Distance (Meters)',
		name: 'minTripDistanceMeters',
		type: 'number',
		default: 200,
		typeOptions: { minValue: 0 },
		description: 'A move that takes the device less far than this from where it stood (GPS wander, shunting in a yard) is no trip',
	},
	{
		displayName: 'Silence Ends Trip (Minutes)',
		name: 'silenceEndsTripMinutes',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1 },
		description:
			'A trip whose last fix was moving (a tunnel, no coverage) ends at that fix after this long without a fix; a device found elsewhere after such a silence made no trip that can be measured',
	},
];

/** The least each setting may be: what its field allows. */
const MINIMUM: Record<keyof TripSettings, number> = { movingSpeed: 0, minStopMinutes: 0, minTripDistanceMeters: 0, silenceEndsTripMinutes: 1 };

/**
 * The settings from where a node keeps them: `value` gives the parameter (undefined when not set),
 * `check` stops the run naming the field by its label when it is no number in range.
 */
export function readTripSettings(
	value: (name: keyof TripSettings) => unknown,
	check: (label: string, result: Check<number>) => number,
	defaults: TripSettings,
): TripSettings {
	const settings = { ...defaults };
	for (const field of tripOptionFields) {
		const name = field.name as keyof TripSettings;
		const given = value(name);
		if (given !== undefined) settings[name] = check(field.displayName, toNumberInRange(given, MINIMUM[name], Number.MAX_SAFE_INTEGER));
	}
	return settings;
}
