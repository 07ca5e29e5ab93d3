import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { groupLocator } from '../../../shared/descriptions';
import { groupAdditionalFields, readGroup, requiredGroupProperties } from './groupFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Replace',
	description: 'Replace a group as a whole (PUT)',
	action: 'Replace a group',
};

export const properties: INodeProperties[] = [
	{ ...groupLocator, description: 'The group to replace: fields not given here are reset' },
	...requiredGroupProperties,
	groupAdditionalFields,
];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const groupId = getResourceId(this, itemIndex, 'groupId', 'Group');
	return await api.request('replaceGroup', { params: { groupId }, body: readGroup(this, itemIndex), itemIndex });
}
