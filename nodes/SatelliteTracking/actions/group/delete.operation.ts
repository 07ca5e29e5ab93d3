import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [{ ...groupLocator, description: 'The group to delete' }];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	await api.request('deleteGroup', { params: { groupId }, itemIndex });
	return { deleted: true, id: groupId };
}
