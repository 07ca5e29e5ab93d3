import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { readUser, requiredUserProperties, userAdditionalFields } from './userFields';

const properties: INodeProperties[] = [...requiredUserProperties, userAdditionalFields];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const user = await api.request('createUser', { body: readUser(this, itemIndex).set, itemIndex });
	return withoutWriteOnlyFields(user);
}
