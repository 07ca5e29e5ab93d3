import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { filterDevices, type DeviceFilters } from '../../../shared/devices';
import type { TrackingApiClient } from '../../../shared/transport';
import { applyLimit, readLimit, returnAllAndLimit } from '../common.descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'IDs, names, tags and expiry; finds a device by its name',
	action: 'Get many devices with their IDs, names, tags and expiry',
};

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Name Contains',
				name: 'nameContains',
				type: 'string',
				default: '',
				description: 'Only devices whose name contains this text (case-insensitive)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'all',
				options: [
					{ name: 'All', value: 'all' },
					{ name: 'Active', value: 'active', description: 'Not expired: uses a license' },
					{ name: 'Expired', value: 'expired', description: 'Past its expiry date: uses no license' },
				],
			},
			{
				displayName: 'Tag Key',
				name: 'tagKey',
				type: 'string',
				default: '',
				description: 'Only devices that have this tag',
			},
			{
				displayName: 'Tag Value',
				name: 'tagValue',
				type: 'string',
				default: '',
				description: 'With Tag Key: only devices whose tag has this value',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const limit = readLimit(this, itemIndex);
	const devices = await api.request('listDevices', { itemIndex });
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject as DeviceFilters;
	return applyLimit(filterDevices(devices, filters, new Date()), limit) as unknown as IDataObject[];
}
