import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { timeZoneList } from '../../../shared/users';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Time Zones',
	description: 'List the time zones users can have',
	action: 'Get time zones',
};

export const properties: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	return timeZoneList(await api.request('listTimeZones', { itemIndex }));
}
