import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/wire';
import { actionRequestSettings } from '../shared/requestSettings';
import { resources, router } from './actions/router';
import * as listSearch from '../shared/listSearch';
import * as loadOptions from './methods/loadOptions';

export class SatelliteTracking implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Satellite Tracking',
		name: 'satelliteTracking',
		icon: { light: 'file:satelliteTracking.svg', dark: 'file:satelliteTracking.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Read and manage GPS tracking devices, locations, alerts, groups and users',
		defaults: { name: 'Satellite Tracking' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Alert', value: 'alert' },
					{ name: 'Device', value: 'device' },
					{ name: 'Group', value: 'group' },
					{ name: 'Location', value: 'location' },
					{ name: 'User', value: 'user' },
				],
				default: 'device',
			},
			...resources.device.description,
			...resources.location.description,
			...resources.alert.description,
			...resources.group.description,
			...resources.user.description,
			actionRequestSettings,
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
