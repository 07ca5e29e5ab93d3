import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { userLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [{ ...userLocator, description: 'The user to delete' }];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	await api.request('deleteUser', { params: { userId }, itemIndex });
	return { deleted: true, id: userId };
}
