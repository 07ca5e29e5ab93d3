import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { countNotifications, limitUsage, undatedAlerts, type ChannelCounts, type DailyLimits } from '../../../shared/notifications';
import { checked, getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toNumberInRange } from '../../../shared/validation';
import type { DateRange, Device } from '../../../shared/wire';
import { dayOf, dayRange, DEFAULT_TIME_ZONE, toCalendarDay, toTimeZone } from '../../../shared/zonedDay';
import { collection, dailyLimitsCollection, dayTimeZone, deviceLocator, deviceLocatorList } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

const MAX_DAILY_LIMIT = 1_000_000;

export const option: OperationOption = {
	name: 'Get Notification Counters',
	description: "Count a device's e-mails and SMS of the day",
	action: 'Get the notification counters of a device',
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Devices',
		name: 'deviceSelection',
		type: 'options',
		noDataExpression: true,
		default: 'one',
		options: [
			{ name: 'One Device', value: 'one', description: 'The device chosen below, which may come from the input item' },
			{ name: 'Selected Devices', value: 'selected', description: 'The devices listed below' },
			{ name: 'All Devices', value: 'all', description: "Every device of the account" },
		],
		description: 'Each input item gives one output item per device counted',
	},
	{ ...deviceLocator, description: 'The device whose messages to count', displayOptions: { show: { deviceSelection: ['one'] } } },
	{ ...deviceLocatorList('selectedDevices', 'A device to count'), displayOptions: { show: { deviceSelection: ['selected'] } } },
	dayTimeZone,
	dailyLimitsCollection(0, {
		description:
			'The Daily Email and SMS Limits set for the devices in the web app (the API does not expose them). With a limit, the output also says what remains and whether it is reached.',
	}),
	collection('options', 'Options', 'Add Option', [
		{
			displayName: 'Day',
			name: 'day',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2024-03-10',
			description: 'Count another day than today (in the time zone). A date-time with a zone counts the day it falls on there.',
		},
	]),
];

/** The account's devices, listed once per run: the names for the output, and the set for All Devices. */
export async function prepareBatch(this: IExecuteFunctions, api: TrackingApiClient) {
	return await api.request('listDevices');
}

function selectedDeviceIds(context: IExecuteFunctions, itemIndex: number, listing: Device[]): string[] {
	switch (context.getNodeParameter('deviceSelection', itemIndex, 'one') as string) {
		case 'all':
			return listing.map((device) => device.id);
		case 'selected': {
			const rows = context.getNodeParameter('selectedDevices.device', itemIndex, []) as IDataObject[];
			const ids = rows.map((_, row) => getResourceId(context, itemIndex, `selectedDevices.device[${row}].deviceId`, 'Device'));
			return [...new Set(ids)];
		}
		default:
			return [getResourceId(context, itemIndex, 'deviceId', 'Device')];
	}
}

function readLimits(context: IExecuteFunctions, itemIndex: number): DailyLimits {
	const { emailLimit, smsLimit } = context.getNodeParameter('dailyLimits', itemIndex, {}) as IDataObject;
	const limit = (label: string, value: unknown) =>
		value === undefined ? undefined : Math.floor(checked(context, itemIndex, label, toNumberInRange(value, 0, MAX_DAILY_LIMIT)));
	return { email: limit('Daily Email Limit', emailLimit), sms: limit('Daily SMS Limit', smsLimit) };
}

/** The output fields of one device; limit fields only for the channels the user gave a limit for. */
function counterFields(counts: ChannelCounts, limits: DailyLimits): IDataObject {
	const fields: IDataObject = { emailsToday: counts.email, smsToday: counts.sms };
	const usage = limitUsage(counts, limits);
	if (usage.email) Object.assign(fields, { emailLimit: usage.email.limit, emailRemaining: usage.email.remaining });
	if (usage.sms) Object.assign(fields, { smsLimit: usage.sms.limit, smsRemaining: usage.sms.remaining });
	if (usage.email || usage.sms) {
		fields.limitReached = Object.fromEntries(Object.entries(usage).map(([channel, { reached }]) => [channel, reached]));
	}
	return fields;
}

async function countDevice(api: TrackingApiClient, deviceId: string, day: DateRange, names: Map<string, string>, itemIndex: number) {
	const alerts = await api.request('getAlerts', { params: { deviceId }, body: day, itemIndex });
	// The listing may leave a device out (the vendor lists the account's active devices); ask for its name.
	const deviceName =
		names.get(deviceId) ?? (await api.request('getDevice', { params: { deviceId }, itemIndex })).name;
	return { deviceId, deviceName, counts: countNotifications(alerts, day), skipped: undatedAlerts(alerts) };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const timeZone = checked(this, itemIndex, 'Time Zone', toTimeZone(this.getNodeParameter('timeZone', itemIndex, DEFAULT_TIME_ZONE)));
	const { day: dayInput } = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const day =
		dayInput === undefined || dayInput === '' ? dayOf(new Date(), timeZone) : checked(this, itemIndex, 'Day', toCalendarDay(dayInput, timeZone));
	const limits = readLimits(this, itemIndex);
	const deviceIds = selectedDeviceIds(this, itemIndex, listing);
	const range = dayRange(day, timeZone);
	const names = new Map(listing.map((device) => [device.id, device.name]));

	// Every device's call is started at once; the client's pacer keeps Max Concurrent Requests.
	// allSettled, so the error shown is the first failing device's in order, not the quickest to fail.
	const settled = await Promise.allSettled(deviceIds.map(async (deviceId) => await countDevice(api, deviceId, range, names, itemIndex)));
	return settled.map((result) => {
		if (result.status === 'rejected') throw result.reason;
		const { deviceId, deviceName, counts, skipped } = result.value;
		// Alerts without a readable date are not counted for any day; the output says how many there were.
		return { deviceId, deviceName, day, timeZone, ...counterFields(counts, limits), ...(skipped > 0 ? { skippedAlerts: skipped } : {}) };
	});
}
