import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { deviceLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';
import { readDeviceId } from '../toolMode';
import { prepareNaming, readable, simplify, type Naming } from '../readable';
import { simplifyFix } from '../../../shared/simplify';

export const option: OperationOption = {
	name: 'Get Last Location',
	description: "Where a device is now: its newest fix",
	action: 'Get the last location of a device: where it is now',
};

export const properties: INodeProperties[] = [{ ...deviceLocator, description: 'The device whose last fix to get' }, simplify];

export const prepareBatch = prepareNaming;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, naming: Naming) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	const location = await api.find('getLastLocation', { params: { deviceId }, itemIndex });
	if (location) return (await readable(this, itemIndex, naming, deviceId, [location], simplifyFix))[0];
	// The service answers 404 both for a device that never reported and for an unknown id;
	// asking for the device tells the two apart (and fails for an unknown one).
	if (naming.names) return { deviceId, deviceName: await naming.names(deviceId), neverReported: true };
	await api.request('getDevice', { params: { deviceId }, itemIndex });
	return { deviceId, neverReported: true };
}
