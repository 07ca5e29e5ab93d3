import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { filterUsers, withoutWriteOnlyFields, type UserFilters } from '../../../shared/users';
import { collection } from '../../../shared/descriptions';
import { applyLimit, nameContainsFilter, readLimit, returnAllAndLimit } from '../common.descriptions';
import type { OperationOption } from '../operation';
import { sameTotal } from '../toolMode';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Get many users, optionally filtered',
	action: 'Get many users',
};

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	collection('filters', 'Filters', 'Add Filter', [
		{
			displayName: 'Disabled',
			name: 'disabled',
			type: 'boolean',
			default: false,
			description: 'Whether to return only disabled users (on) or only enabled ones (off)',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Only the user with this e-mail address (case-insensitive)',
		},
		nameContainsFilter('users'),
	]),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const limit = readLimit(this, itemIndex);
	const users = await api.request('listUsers', { itemIndex });
	const filters = this.getNodeParameter('filters', itemIndex, {}) as UserFilters;
	const limited = applyLimit(filterUsers(users, filters), limit);
	return sameTotal(limited, limited.map(withoutWriteOnlyFields));
}
