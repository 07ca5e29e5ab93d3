import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { devicesWith } from '../../../shared/groups';
import { KeyedLock } from '../../../shared/keyedLock';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import { changeGroupDevices, devicesProperty } from './groupFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Add Devices',
	description: 'Add devices to a group; repeating it changes nothing',
	action: 'Add devices to a group (safe to repeat)',
};

export const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to add the devices to' },
	{ ...devicesProperty, required: true, description: `${devicesProperty.description}. IDs already in the group are left as they are.` },
];

export async function prepareBatch() {
	return new KeyedLock();
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, lock: KeyedLock) {
	return await changeGroupDevices(this, itemIndex, api, lock, devicesWith);
}
