import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked, getDateRange, getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toOptionalText } from '../../../shared/validation';
import type { AlertsRequest } from '../../../shared/wire';
import { deviceLocator } from '../../../shared/descriptions';
import { applyLimit, dateRange, readLimit, returnAllAndLimitOfRange } from '../common.descriptions';
import type { OperationOption } from '../operation';
import { prepareNaming, readable, simplify, type Naming } from '../readable';
import { simplifyAlert } from '../../../shared/simplify';

export const option: OperationOption = {
	name: 'Get Many',
	description: "Get a device's alerts within a date range",
	action: 'Get alerts of a device',
};

export const properties: INodeProperties[] = [
	{ ...deviceLocator, description: 'The device whose alerts to get' },
	...dateRange,
	{
		displayName: 'Alert Name',
		name: 'alertName',
		type: 'string',
		default: '',
		description: 'Only alerts with this name; leave empty for all',
	},
	...returnAllAndLimitOfRange,
	simplify,
];

export const prepareBatch = prepareNaming;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, naming: Naming) {
	const deviceId = getResourceId(this, itemIndex, 'deviceId', 'Device');
	const body: AlertsRequest = getDateRange(this, itemIndex);
	const alertName = checked(this, itemIndex, 'Alert Name', toOptionalText(this.getNodeParameter('alertName', itemIndex, '')));
	if (alertName !== '') body.alertName = alertName;
	const limit = readLimit(this, itemIndex);
	const alerts = await api.request('getAlerts', { params: { deviceId }, body, itemIndex });
	return await readable(this, itemIndex, naming, deviceId, applyLimit(alerts, limit), simplifyAlert);
}
