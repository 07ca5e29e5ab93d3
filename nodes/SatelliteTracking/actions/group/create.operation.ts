import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { groupAdditionalFields, readGroup, requiredGroupProperties } from './groupFields';

const properties: INodeProperties[] = [...requiredGroupProperties, groupAdditionalFields];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	return await api.request('createGroup', { body: readGroup(this, itemIndex), itemIndex });
}
