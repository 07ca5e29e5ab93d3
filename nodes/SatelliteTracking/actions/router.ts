import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { TrackingApiClient } from '../../shared/transport';
import * as alert from './alert/Alert.resource';
import * as device from './device/Device.resource';
import * as group from './group/Group.resource';
import * as location from './location/Location.resource';
import type { OperationModule } from './operation';
import { readRequestSettings } from '../../shared/requestSettings';
import { runItems } from './runItems';
import { showUsage } from './usageHint';
import * as user from './user/User.resource';

export const resources = { device, location, alert, group, user };

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operations: Record<string, OperationModule> | undefined =
		resources[resource as keyof typeof resources]?.operations;
	const operation = operations?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not supported for "${resource}"`);
	}
	const settings = readRequestSettings(this.getNode(), this.getNodeParameter('requestSettings', 0, {}) as IDataObject);
	const api = await TrackingApiClient.create(this, settings);
	const items = await runItems(this, api, operation, settings.maxConcurrency);
	showUsage(this, api.usage, settings);
	return [items];
}
