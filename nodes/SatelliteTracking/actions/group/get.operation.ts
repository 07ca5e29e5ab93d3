import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a group',
	action: 'Get a group',
};

export const properties: INodeProperties[] = [{ ...groupLocator, description: 'The group to get' }];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	return await api.request('getGroup', { params: { groupId }, itemIndex });
}
