import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filterGroups } from '../../../shared/groups';
import type { TrackingApiClient } from '../../../shared/transport';
import { collection } from '../../../shared/descriptions';
import { applyLimit, readLimit, nameContainsFilter, returnAllAndLimit } from '../common.descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'IDs, names and devices; finds a group by its name',
	action: 'Get many groups with their IDs, names and devices',
};

export const properties: INodeProperties[] = [...returnAllAndLimit, collection('filters', 'Filters', 'Add Filter', [nameContainsFilter('groups')])];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const limit = readLimit(this, itemIndex);
	const groups = await api.request('listGroups', { itemIndex });
	const filters = this.getNodeParameter('filters', itemIndex, {}) as { nameContains?: string };
	return applyLimit(filterGroups(groups, filters), limit);
}
