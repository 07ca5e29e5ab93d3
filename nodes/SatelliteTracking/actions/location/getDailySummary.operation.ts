import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { summarizeDay } from '../../../shared/trips/dailySummary';
import { segmentTrack } from '../../../shared/trips/segment';
import type { Device } from '../../../shared/wire';
import { nextDay, startOfDay } from '../../../shared/zonedDay';
import { collection, dayTimeZone } from '../../../shared/descriptions';
import { deviceSelectionProperties, listDevices, perDevice, selectedDeviceIds } from '../deviceSelection';
import type { OperationOption } from '../operation';
import { dayOption, readZonedDay } from '../zonedDayParameters';
import { tripOptionFields } from '../../../shared/trips/properties';
import { readTripSettings } from './tripOptions';

/**
 * Fixes read before the day, so a trip or stop under way at midnight is known as one: a stop is
 * only a stop once the device has stood `minStopMinutes`, a trip once it left where it stood.
 */
const CONTEXT_BEFORE_MS = 3 * 3_600_000;

export const option: OperationOption = {
	name: 'Get Daily Summary',
	description: "Sum up a device's day: distance, driving, idling, stops",
	action: 'Get the daily summary of a device',
};

export const properties: INodeProperties[] = [
	...deviceSelectionProperties('devices', {
		perItem: 'Each input item gives one output item per device',
		device: 'The device whose day to sum up',
	}),
	dayTimeZone,
	collection('options', 'Options', 'Add Option', [dayOption('Sum up'), ...tripOptionFields]),
];

export const prepareBatch = listDevices;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const { day, timeZone } = readZonedDay(this, itemIndex);
	const settings = readTripSettings(this, itemIndex);
	const span = { from: startOfDay(day, timeZone), to: startOfDay(nextDay(day), timeZone) };
	// A stop that begins just before midnight is confirmed by the fixes after it.
	const body = {
		from: new Date(span.from - CONTEXT_BEFORE_MS).toISOString(),
		to: new Date(span.to + settings.minStopMinutes * 60_000).toISOString(),
	};
	const days = await perDevice(api, itemIndex, await selectedDeviceIds(this, itemIndex, api, listing, 'devices'), listing, async (deviceId) =>
		summarizeDay(segmentTrack(await api.request('getLocations', { params: { deviceId }, body, itemIndex }), settings), span, settings.movingSpeed),
	);
	return days.map(({ deviceId, deviceName, result }) => ({ deviceId, deviceName, day, timeZone, ...result }));
}
