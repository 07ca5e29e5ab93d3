import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import { groupAdditionalFields, readGroup, requiredGroupProperties } from './groupFields';

const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to replace: fields not given here are reset' },
	...requiredGroupProperties,
	groupAdditionalFields,
];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['replace'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	return await api.request('replaceGroup', { params: { groupId }, body: readGroup(this, itemIndex), itemIndex });
}
