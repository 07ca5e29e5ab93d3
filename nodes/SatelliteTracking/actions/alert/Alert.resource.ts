import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation';
import * as getAll from './getAll.operation';

export const operations: Record<string, OperationModule> = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['alert'] } },
		options: [
			{ name: 'Get Many', value: 'getAll', description: "Get a device's alerts within a date range", action: 'Get alerts of a device' },
		],
		default: 'getAll',
	},
	...getAll.description,
];
