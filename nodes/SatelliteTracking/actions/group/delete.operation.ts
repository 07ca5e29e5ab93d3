import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a group',
	action: 'Delete a group',
};

export const properties: INodeProperties[] = [{ ...groupLocator, description: 'The group to delete' }];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	await api.request('deleteGroup', { params: { groupId }, itemIndex });
	return { deleted: true, id: groupId };
}
