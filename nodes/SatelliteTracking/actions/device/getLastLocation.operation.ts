import { NodeApiError, updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import type { Location } from '../../../shared/wire';
import { deviceLocator } from '../common.descriptions';

const properties: INodeProperties[] = [{ ...deviceLocator, description: 'The device whose last fix to get' }];

export const description = updateDisplayOptions(
	{ show: { resource: ['device'], operation: ['getLastLocation'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = getResourceId(this, itemIndex, 'deviceId', 'Device');
	let location: Location | null;
	try {
		location = await api.request<Location | null>('getLastLocation', { deviceId }, undefined, itemIndex);
	} catch (error) {
		// The service answers 404 both for a device that never reported and for an unknown id;
		// asking for the device tells the two apart (and throws for an unknown one).
		if (!(error instanceof NodeApiError) || error.httpCode !== '404') throw error;
		await api.request('getDevice', { deviceId }, undefined, itemIndex);
		location = null;
	}
	return location === null ? { deviceId, neverReported: true } : { deviceId, ...location };
}
