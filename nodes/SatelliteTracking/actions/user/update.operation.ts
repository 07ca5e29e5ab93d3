import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { withoutWriteOnlyFields } from '../../../shared/users';
import { USER_REQUIRED_FIELDS } from '../../../shared/wire';
import { userLocator } from '../../../shared/descriptions';
import { getUpdatePatch, updateProperties } from '../writeFields';
import { USER_FIELDS, userUpdateFieldOptions } from './userFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Update',
	description: 'Change some fields of a user (PATCH)',
	action: 'Update a user',
};

export const properties: INodeProperties[] = [
	{ ...userLocator, description: 'The user to update' },
	...updateProperties(userUpdateFieldOptions),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const userId = getResourceId(this, itemIndex, 'userId', 'User');
	const patch = getUpdatePatch(this, itemIndex, USER_FIELDS, USER_REQUIRED_FIELDS);
	return withoutWriteOnlyFields(await api.request('updateUser', { params: { userId }, body: patch, itemIndex }));
}
