import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { summarizeDay, summaryReadRange } from '../../../shared/trips/dailySummary';
import type { Device } from '../../../shared/wire';
import { nextDay, startOfDay, toZonedIso } from '../../../shared/zonedDay';
import type { PositionAt } from '../../../shared/trips/items';
import { summaryTimesInZone } from '../versions';
import { collection, dayTimeZone } from '../../../shared/descriptions';
import { deviceSelectionProperties, listDevices } from '../deviceSelection';
import type { OperationOption } from '../operation';
import { dayOption, readZonedDay } from '../zonedDayParameters';
import { tripOptionFields } from '../../../shared/trips/properties';
import { readRangeTracks, readTripSettings } from './tripOptions';

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
	{
		displayName:
			'drivingMinutes + stoppedMinutes = the time tracked that day (a silence of Silence Ends Trip counts in neither); idleMinutes is the part of them with the engine running below Moving Speed, not a third part. distanceKm in km; maxSpeed, the fastest fix of the day\'s trips, in km/h as the service reports speed; fuelUsed in the unit the device reports fuel',
		name: 'summaryPartsNotice',
		type: 'notice',
		default: '',
	},
];

export const prepareBatch = listDevices;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const { day, timeZone } = readZonedDay(this, itemIndex);
	const settings = readTripSettings(this, itemIndex);
	const span = { from: startOfDay(day, timeZone), to: startOfDay(nextDay(day), timeZone) };
	const read = summaryReadRange(span, settings);
	const body = { from: new Date(read.from).toISOString(), to: new Date(read.to).toISOString() };
	const days = await readRangeTracks(this, itemIndex, api, listing, body, settings, (track) => summarizeDay(track, span, settings));
	const inZone = summaryTimesInZone(this);
	const shown = (fix: PositionAt | null) => (inZone && fix ? { ...fix, dateTime: toZonedIso(Date.parse(fix.dateTime), timeZone) } : fix);
	return days.map(({ deviceId, deviceName, result }) => ({ deviceId, deviceName, day, timeZone, ...result, firstFix: shown(result.firstFix), lastFix: shown(result.lastFix) }));
}
