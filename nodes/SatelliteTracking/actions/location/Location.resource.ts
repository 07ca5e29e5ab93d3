import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation';
import * as getAll from './getAll.operation';
import * as submit from './submit.operation';

export const operations: Record<string, OperationModule> = { getAll, submit };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['location'] } },
		options: [
			{ name: 'Get Many', value: 'getAll', description: "Get a device's fixes within a date range", action: 'Get locations of a device' },
			{ name: 'Submit', value: 'submit', description: 'Store a fix for a device', action: 'Submit a location for a device' },
		],
		default: 'getAll',
	},
	...getAll.description,
	...submit.description,
];
