import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getDateRange } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { segmentItem } from '../../../shared/trips/items';
import { segmentTrack } from '../../../shared/trips/segment';
import type { Device } from '../../../shared/wire';
import { collection } from '../../../shared/descriptions';
import { dateRange } from '../common.descriptions';
import { deviceSelectionProperties, listDevices, perDevice, selectedDeviceIds } from '../deviceSelection';
import type { OperationOption } from '../operation';
import { tripOptionFields } from '../../../shared/trips/properties';
import { readTripSettings } from './tripOptions';

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
];

export const prepareBatch = listDevices;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const range = getDateRange(this, itemIndex);
	const settings = readTripSettings(this, itemIndex);
	// The endpoint answers a whole range in one call (no paging is documented): one call per device.
	// Only the segments are kept, so a month of fixes per device is let go once it is cut.
	const tracks = await perDevice(api, itemIndex, await selectedDeviceIds(this, itemIndex, api, listing, 'devices'), listing, async (deviceId) =>
		segmentTrack(await api.request('getLocations', { params: { deviceId }, body: range, itemIndex }), settings).segments,
	);
	return tracks.flatMap(({ deviceId, deviceName, result }) => result.map((segment) => segmentItem(segment, deviceId, deviceName)));
}
