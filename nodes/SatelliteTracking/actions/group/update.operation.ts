import { updateDisplayOptions, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { GROUP_REQUIRED_FIELDS } from '../../../shared/wire';
import { groupLocator } from '../../../shared/descriptions';
import { getUpdatePatch, updateProperties } from '../writeFields';
import { GROUP_FIELDS, groupUpdateFieldOptions } from './groupFields';

const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to update' },
	...updateProperties(groupUpdateFieldOptions),
];

export const description = updateDisplayOptions({ show: { resource: ['group'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	const patch = getUpdatePatch(this, itemIndex, GROUP_FIELDS, GROUP_REQUIRED_FIELDS);
	return await api.request('updateGroup', { params: { groupId }, body: patch, itemIndex });
}
