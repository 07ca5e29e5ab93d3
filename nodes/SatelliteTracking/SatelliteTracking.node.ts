import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/wire';
import { actionRequestSettings } from '../shared/requestSettings';
import { resourceProperties, subtitle } from './actions/operation';
import { resources, router } from './actions/router';
import * as listSearch from '../shared/listSearch';
import * as loadOptions from './methods/loadOptions';

export class SatelliteTracking implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Satellite Tracking',
		name: 'satelliteTracking',
		icon: { light: 'file:satelliteTracking.svg', dark: 'file:satelliteTracking.dark.svg' },
		group: ['transform'],
		// 2: fixes and alerts carry deviceName and are simplified by default (see actions/readable.ts).
		// 2.1: Limit on a date range keeps the newest results (actions/versions.ts).
		// 2.2: From/To without a zone in the workflow's time zone; the daily summary's times in its zone (actions/versions.ts).
		version: [1, 2, 2.1, 2.2],
		defaultVersion: 2.2,
		subtitle: subtitle(resources),
		description: 'Read and manage GPS tracking devices, locations, alerts, groups and users',
		defaults: { name: 'Satellite Tracking' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			...resourceProperties(resources, 'device'),
			actionRequestSettings,
		],
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
