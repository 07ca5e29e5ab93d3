import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { userLocator } from '../../../shared/descriptions';

const properties: INodeProperties[] = [{ ...userLocator, description: 'The user to get' }];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	return withoutWriteOnlyFields(await api.request('getUser', { params: { userId }, itemIndex }));
}
