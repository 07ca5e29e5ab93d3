import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [{ ...groupLocator, description: 'The group to get' }];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	return await api.request('getGroup', { params: { groupId }, itemIndex });
}
