import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { userLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a user',
	action: 'Delete a user',
};

export const properties: INodeProperties[] = [{ ...userLocator, description: 'The user to delete' }];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	await api.request('deleteUser', { params: { userId }, itemIndex });
	return { deleted: true, id: userId };
}
