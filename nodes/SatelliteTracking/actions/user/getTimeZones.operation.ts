import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { timeZoneList } from '../../../shared/users';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	return timeZoneList(await api.request('listTimeZones', { itemIndex }));
}
