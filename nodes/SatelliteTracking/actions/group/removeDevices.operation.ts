import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { devicesWithout } from '../../../shared/groups';
import { KeyedLock } from '../../../shared/keyedLock';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import { changeGroupDevices, devicesProperty } from './groupFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Remove Devices',
	description: 'Remove devices from a group',
	action: 'Remove devices from a group',
};

export const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to remove the devices from' },
	{ ...devicesProperty, required: true, description: `${devicesProperty.description}. IDs not in the group are ignored.` },
];

export async function prepareBatch() {
	return new KeyedLock();
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, lock: KeyedLock) {
	return await changeGroupDevices(this, itemIndex, api, lock, devicesWithout);
}
