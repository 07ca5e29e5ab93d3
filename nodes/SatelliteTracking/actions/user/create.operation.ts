import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { readUser, requiredUserProperties, userAdditionalFields } from './userFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Create',
	description: 'Create a user',
	action: 'Create a user',
};

export const properties: INodeProperties[] = [...requiredUserProperties, userAdditionalFields];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const user = await api.request('createUser', { body: readUser(this, itemIndex).set, itemIndex });
	return withoutWriteOnlyFields(user);
}
