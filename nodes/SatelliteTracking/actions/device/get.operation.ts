import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { deviceLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';
import { readDeviceId } from '../toolMode';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a device',
	action: 'Get a device',
};

export const properties: INodeProperties[] = [{ ...deviceLocator, description: 'The device to get' }];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	return await api.request('getDevice', { params: { deviceId }, itemIndex });
}
