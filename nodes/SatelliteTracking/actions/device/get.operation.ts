import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { deviceLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [{ ...deviceLocator, description: 'The device to get' }];

export const description = updateDisplayOptions({ show: { resource: ['device'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = getResourceId(this, itemIndex, 'deviceId', 'Device');
	return await api.request('getDevice', { params: { deviceId }, itemIndex });
}
