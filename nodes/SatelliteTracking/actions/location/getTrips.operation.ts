import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getDateRange } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { segmentItem } from '../../../shared/trips/items';
import type { Device } from '../../../shared/wire';
import { collection } from '../../../shared/descriptions';
import { dateRange } from '../common.descriptions';
import { deviceSelectionProperties, listDevices } from '../deviceSelection';
import { zonelessDateReading } from '../versions';
import type { OperationOption } from '../operation';
import { tripOptionFields } from '../../../shared/trips/properties';
import { readRangeTracks, readTripSettings } from './tripOptions';

export const option: OperationOption = {
	name: 'Get Trips and Stops',
	description: "A device's trips and stops within a date range",
	action: 'Get trips and stops of a device',
};

export const properties: INodeProperties[] = [
	...deviceSelectionProperties('devices', {
		perItem: 'Each input item gives one output item per trip and per stop, device by device',
		device: 'The device whose trips and stops to get',
	}),
	...dateRange,
	collection('options', 'Options', 'Add Option', tripOptionFields),
	{
		displayName:
			'Units: distanceKm in km; durationMinutes and idleMinutes in minutes; maxSpeed (the fastest fix of the trip) in km/h, as the service reports speed; averageSpeed in km/h (distanceKm over the whole trip); milleageDifference in the odometer\'s unit',
		name: 'tripUnitsNotice',
		type: 'notice',
		default: '',
	},
];

export const prepareBatch = listDevices;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const range = getDateRange(this, itemIndex, zonelessDateReading(this));
	const tracks = await readRangeTracks(this, itemIndex, api, listing, range, readTripSettings(this, itemIndex), (track) => track.segments);
	return tracks.flatMap(({ deviceId, deviceName, result }) => result.map((segment) => segmentItem(segment, deviceId, deviceName)));
}
