import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation';
import * as create from './create.operation';
import * as deleteUser from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getCountries from './getCountries.operation';
import * as getTimeZones from './getTimeZones.operation';
import * as replace from './replace.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const operations: Record<string, OperationModule> = {
	create,
	get,
	getAll,
	replace,
	update,
	delete: deleteUser,
	upsert,
	getCountries,
	getTimeZones,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Create a user', action: 'Create a user' },
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a user',
			},
			{ name: 'Delete', value: 'delete', description: 'Delete a user', action: 'Delete a user' },
			{ name: 'Get', value: 'get', description: 'Get a user', action: 'Get a user' },
			{ name: 'Get Countries', value: 'getCountries', description: 'List the country codes users can have', action: 'Get countries' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many users, optionally filtered', action: 'Get many users' },
			{ name: 'Get Time Zones', value: 'getTimeZones', description: 'List the time zones users can have', action: 'Get time zones' },
			{ name: 'Replace', value: 'replace', description: 'Replace a user as a whole (PUT)', action: 'Replace a user' },
			{ name: 'Update', value: 'update', description: 'Change some fields of a user (PATCH)', action: 'Update a user' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
