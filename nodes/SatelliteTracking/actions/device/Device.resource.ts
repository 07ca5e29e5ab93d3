import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getLastLocation from './getLastLocation.operation';
import * as getLicenseUsage from './getLicenseUsage.operation';
import * as getNotificationCounters from './getNotificationCounters.operation';
import * as sendCommand from './sendCommand.operation';

export const operations: Record<string, OperationModule> = {
	get,
	getAll,
	getLastLocation,
	getLicenseUsage,
	getNotificationCounters,
	sendCommand,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['device'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a device', action: 'Get a device' },
			{ name: 'Get Last Location', value: 'getLastLocation', description: "Get a device's newest fix", action: 'Get the last location of a device' },
			{
				name: 'Get License Usage',
				value: 'getLicenseUsage',
				description:
					"Count the account's active, expired and expiring devices and its free licenses. An expired device no longer uses a license and cannot be reactivated while none is free.",
				action: 'Get the license usage of the account',
			},
			{ name: 'Get Many', value: 'getAll', description: 'Get many devices, optionally filtered', action: 'Get many devices' },
			{
				name: 'Get Notification Counters',
				value: 'getNotificationCounters',
				description: "Count the e-mails and SMS a device sent today, against the daily limits set in the web app",
				action: 'Get the notification counters of a device',
			},
			{ name: 'Send Command', value: 'sendCommand', description: 'Send a command to a device', action: 'Send a command to a device' },
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
	...getLastLocation.description,
	...getLicenseUsage.description,
	...getNotificationCounters.description,
	...sendCommand.description,
];
