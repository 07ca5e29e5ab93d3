import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked, getDateRange } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { preview, toOptionalText, type Check } from '../../../shared/validation';
import { ALERT_NAMES, type AlertsRequest } from '../../../shared/wire';
import { deviceLocator } from '../../../shared/descriptions';
import { applyLimitOfRange, dateRange, readLimit, returnAllAndLimitOfRange } from '../common.descriptions';
import type { OperationOption } from '../operation';
import { readDeviceId } from '../toolMode';
import { prepareNaming, readable, simplify, type Naming } from '../readable';
import { isVersion1, limitKeepsNewest, zonelessDateReading } from '../versions';
import { simplifyAlert } from '../../../shared/simplify';

export const option: OperationOption = {
	name: 'Get Many',
	description: "A device's alerts (speeding, SOS…) within a date range",
	action: 'Get alerts of a device in a time range, such as speeding or SOS',
};

export const properties: INodeProperties[] = [
	{ ...deviceLocator, description: 'The device whose alerts to get' },
	...dateRange,
	{
		displayName: 'Alert Name',
		name: 'alertName',
		type: 'options',
		default: '',
		options: [
			{ name: 'All Alerts', value: '', description: 'No filter: every alert in the range' },
			...Object.entries(ALERT_NAMES).map(([name, meaning]) => ({ name, value: name, description: meaning })),
		].sort((a, b) => a.name.localeCompare(b.name)),
		description:
			'Only alerts with this name, one of those the service documents (an expression may give any other name the service knows). The service matches it exactly.',
	},
	...returnAllAndLimitOfRange,
	simplify,
];

export const prepareBatch = prepareNaming;

/** The name exactly as chosen or given: the service matches names exactly, case included. */
function toAlertName(value: unknown): Check<string> {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return { ok: true, value: '' };
	return typeof value === 'string' ? { ok: true, value } : { ok: false, problem: `must be text (got ${preview(value)})` };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, naming: Naming) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	const body: AlertsRequest = getDateRange(this, itemIndex, zonelessDateReading(this));
	// Version 1 sent the name trimmed: a saved "SpeedLimit " still finds the SpeedLimit alerts there.
	const readName = isVersion1(this) ? toOptionalText : toAlertName;
	const alertName = checked(this, itemIndex, 'Alert Name', readName(this.getNodeParameter('alertName', itemIndex, '')));
	if (alertName !== '') body.alertName = alertName;
	const limit = readLimit(this, itemIndex);
	const alerts = await api.request('getAlerts', { params: { deviceId }, body, itemIndex });
	return await readable(this, itemIndex, naming, deviceId, applyLimitOfRange(alerts, limit, limitKeepsNewest(this)), simplifyAlert);
}
