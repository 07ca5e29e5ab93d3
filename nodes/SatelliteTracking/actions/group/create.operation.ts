import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { groupAdditionalFields, readGroup, requiredGroupProperties } from './groupFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Create',
	description: 'Create a group',
	action: 'Create a group',
};

export const properties: INodeProperties[] = [...requiredGroupProperties, groupAdditionalFields];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	return await api.request('createGroup', { body: readGroup(this, itemIndex), itemIndex });
}
