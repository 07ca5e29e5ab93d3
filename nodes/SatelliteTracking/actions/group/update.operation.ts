import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { GROUP_REQUIRED_FIELDS } from '../../../shared/wire';
import { groupLocator } from '../../../shared/descriptions';
import { getUpdatePatch, updateProperties } from '../writeFields';
import { GROUP_FIELDS, groupUpdateFieldOptions } from './groupFields';
import type { OperationOption } from '../operation';
import { isVersion1 } from '../versions';

export const option: OperationOption = {
	name: 'Update',
	description: 'Change some fields of a group (PATCH)',
	action: 'Update a group',
};

export const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to update' },
	...updateProperties(groupUpdateFieldOptions),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	// Every group the vendor shows carries name, description and devices (null or [] when unset),
	// and its own PATCH example replaces the description; version 1 added them, as it always did.
	const present = isVersion1(this) ? GROUP_REQUIRED_FIELDS : Object.keys(GROUP_FIELDS);
	const patch = getUpdatePatch(this, itemIndex, GROUP_FIELDS, GROUP_REQUIRED_FIELDS, present);
	return await api.request('updateGroup', { params: { groupId }, body: patch, itemIndex });
}
