import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { countNotifications, limitUsage, undatedAlerts, type ChannelCounts, type DailyLimits } from '../../../shared/notifications';
import { checked } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toNumberInRange } from '../../../shared/validation';
import type { Device } from '../../../shared/wire';
import { dayRange } from '../../../shared/zonedDay';
import { collection, dailyLimitsCollection, dayTimeZone } from '../../../shared/descriptions';
import { deviceSelectionProperties, listDevices, perDevice, selectedDeviceIds } from '../deviceSelection';
import type { OperationOption } from '../operation';
import { dayOption, readZonedDay } from '../zonedDayParameters';

const MAX_DAILY_LIMIT = 1_000_000;

/** The Selected Devices list's name as saved workflows store it. */
const SELECTED_DEVICES = 'selectedDevices';

export const option: OperationOption = {
	name: 'Get Notification Counters',
	description: "Count a device's e-mails and SMS of the day",
	action: 'Get the notification counters of a device',
};

export const properties: INodeProperties[] = [
	...deviceSelectionProperties(SELECTED_DEVICES, {
		perItem: 'Each input item gives one output item per device counted',
		device: 'The device whose messages to count',
	}),
	dayTimeZone,
	dailyLimitsCollection(0, {
		description:
			'The Daily Email and SMS Limits set for the devices in the web app (the API does not expose them). With a limit, the output also says what remains and whether it is reached.',
	}),
	collection('options', 'Options', 'Add Option', [dayOption('Count')]),
];

export const prepareBatch = listDevices;

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

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, listing: Device[]) {
	const { day, timeZone } = readZonedDay(this, itemIndex);
	const limits = readLimits(this, itemIndex);
	const range = dayRange(day, timeZone);
	const counted = await perDevice(api, itemIndex, await selectedDeviceIds(this, itemIndex, api, listing, SELECTED_DEVICES), listing, async (deviceId) => {
		const alerts = await api.request('getAlerts', { params: { deviceId }, body: range, itemIndex });
		return { counts: countNotifications(alerts, range), skipped: undatedAlerts(alerts) };
	});
	// Alerts without a readable date are not counted for any day; the output says how many there were.
	return counted.map(({ deviceId, deviceName, result: { counts, skipped } }) => ({
		deviceId,
		deviceName,
		day,
		timeZone,
		...counterFields(counts, limits),
		...(skipped > 0 ? { skippedAlerts: skipped } : {}),
	}));
}
