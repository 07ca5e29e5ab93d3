import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { devicesWithout } from '../../../shared/groups';
import { KeyedLock } from '../../../shared/keyedLock';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import { changeGroupDevices, devicesProperty } from './groupFields';

const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to remove the devices from' },
	{ ...devicesProperty, required: true, description: `${devicesProperty.description}. IDs not in the group are ignored.` },
];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['removeDevices'] } }, properties);

export async function prepareBatch() {
	return new KeyedLock();
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, lock: KeyedLock) {
	return await changeGroupDevices(this, itemIndex, api, lock, devicesWithout);
}
