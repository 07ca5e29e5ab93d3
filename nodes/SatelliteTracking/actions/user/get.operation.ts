import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { userLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a user',
	action: 'Get a user',
};

export const properties: INodeProperties[] = [{ ...userLocator, description: 'The user to get' }];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	return withoutWriteOnlyFields(await api.request('getUser', { params: { userId }, itemIndex }));
}
