import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation';
import * as addDevices from './addDevices.operation';
import * as create from './create.operation';
import * as deleteGroup from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as removeDevices from './removeDevices.operation';
import * as replace from './replace.operation';
import * as update from './update.operation';

export const operations: Record<string, OperationModule> = {
	create,
	get,
	getAll,
	replace,
	update,
	delete: deleteGroup,
	addDevices,
	removeDevices,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{ name: 'Add Devices', value: 'addDevices', description: 'Add devices to a group', action: 'Add devices to a group' },
			{ name: 'Create', value: 'create', description: 'Create a group', action: 'Create a group' },
			{ name: 'Delete', value: 'delete', description: 'Delete a group', action: 'Delete a group' },
			{ name: 'Get', value: 'get', description: 'Get a group', action: 'Get a group' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many groups, optionally filtered by name', action: 'Get many groups' },
			{ name: 'Remove Devices', value: 'removeDevices', description: 'Remove devices from a group', action: 'Remove devices from a group' },
			{ name: 'Replace', value: 'replace', description: 'Replace a group as a whole (PUT)', action: 'Replace a group' },
			{ name: 'Update', value: 'update', description: 'Change some fields of a group (PATCH)', action: 'Update a group' },
		],
		default: 'get',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
