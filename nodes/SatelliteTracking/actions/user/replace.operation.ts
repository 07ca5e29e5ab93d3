import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { userLocator } from '../../../shared/descriptions';
import { readUser, requiredUserProperties, userAdditionalFields } from './userFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Replace',
	description: 'Replace a user as a whole (PUT)',
	action: 'Replace a user',
};

export const properties: INodeProperties[] = [
	{ ...userLocator, description: 'The user to replace: fields not given here are reset' },
	...requiredUserProperties,
	userAdditionalFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	const user = await api.request('replaceUser', { params: { userId }, body: readUser(this, itemIndex).set, itemIndex });
	return withoutWriteOnlyFields(user);
}
