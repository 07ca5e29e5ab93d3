import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { TrackingApiClient } from '../../shared/transport';
import { readRequestSettings, type RequestSettings } from '../../shared/requestSettings';
import { alert } from './alert/Alert.resource';
import { device } from './device/Device.resource';
import { group } from './group/Group.resource';
import { location } from './location/Location.resource';
import type { Resource } from './operation';
import { failEveryItem, runOperation } from './runItems';
import { showUsage } from './usageHint';
import { user } from './user/User.resource';

export const resources: Record<string, Resource> = { device, location, alert, group, user };

/** A saved workflow may name anything; `constructor` must not find Object's own. */
function ownEntry<T>(record: Record<string, T> | undefined, key: string): T | undefined {
	return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = ownEntry(ownEntry(resources, resource)?.operations, operationName);
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not supported for "${resource}"`);
	}
	let settings: RequestSettings;
	try {
		settings = readRequestSettings(this.getNode(), this.getNodeParameter('requestSettings', 0, {}) as IDataObject);
	} catch (error) {
		return [failEveryItem(this, error)];
	}
	const api = await TrackingApiClient.create(this, settings);
	const items = await runOperation(this, api, operation, settings.maxConcurrency);
	showUsage(this, api.usage, settings);
	return [items];
}
