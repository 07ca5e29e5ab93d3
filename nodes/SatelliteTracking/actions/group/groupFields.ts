import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { devicesWith, devicesWithout, sameDevices, toDeviceIds } from '../../../shared/groups';
import { readDeviceIds } from '../toolMode';
import { buildJsonPatch } from '../../../shared/jsonPatch';
import type { KeyedLock } from '../../../shared/keyedLock';
import { getResourceId, invalidInput } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toNonEmptyText } from '../../../shared/validation';
import { GROUP_REQUIRED_FIELDS, type Group, type GroupWrite } from '../../../shared/wire';
import { additionalFields, readFields, requiredValues, type FieldSpecs } from '../writeFields';

export const GROUP_FIELDS: FieldSpecs<GroupWrite> = {
	name: { label: 'Name', check: toNonEmptyText },
	description: { label: 'Description', check: toNonEmptyText },
	devices: { label: 'Devices', check: toDeviceIds },
};

const nameProperty: INodeProperties = { displayName: 'Name', name: 'name', type: 'string', default: '', description: 'The group name' };

export const devicesProperty: INodeProperties = {
	displayName: 'Devices',
	name: 'devices',
	type: 'string',
	default: '',
	placeholder: 'e.g. device001, device002',
	description: 'Comma-separated device IDs, or an expression giving an array of IDs',
};

const optionalFieldProperties: INodeProperties[] = [
	{ displayName: 'Description', name: 'description', type: 'string', default: '' },
	{ ...devicesProperty, description: `${devicesProperty.description}. Replaces the group's whole device list.` },
];

export const requiredGroupProperties: INodeProperties[] = [{ ...nameProperty, required: true }];

export const groupAdditionalFields = additionalFields(optionalFieldProperties);

export const groupUpdateFieldOptions: INodeProperties[] = [...optionalFieldProperties, nameProperty].sort((a, b) =>
	a.displayName.localeCompare(b.displayName),
);

/** Name and Additional Fields of one item, checked, as the body of a create or a replace. */
export function readGroup(context: IExecuteFunctions, itemIndex: number): GroupWrite {
	const values = {
		...(context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		...requiredValues(context, itemIndex, GROUP_REQUIRED_FIELDS),
	};
	return readFields(context, itemIndex, values, GROUP_FIELDS, GROUP_REQUIRED_FIELDS).set as GroupWrite;
}

export type DeviceListChange = typeof devicesWith | typeof devicesWithout;

/**
 * Reads the group, applies the change to its device list and writes the list back in one PATCH,
 * or sends nothing when the list would stay the same. Items of one run that change the same group
 * take turns, so none of them overwrites another's change.
 */
export async function changeGroupDevices(
	context: IExecuteFunctions,
	itemIndex: number,
	api: TrackingApiClient,
	lock: KeyedLock,
	change: DeviceListChange,
): Promise<Group> {
	const groupId = getResourceId(context, itemIndex, 'groupId', 'Group');
	const deviceIds = await readDeviceIds(context, itemIndex, api);
	if (deviceIds.length === 0) throw invalidInput(context, itemIndex, 'Devices', 'is empty');
	return await lock.run(groupId, async () => {
		const group = await api.request('getGroup', { params: { groupId }, itemIndex });
		const current = group.devices ?? [];
		const devices = change(current, deviceIds);
		if (sameDevices(devices, current)) return group;
		const patch = buildJsonPatch<Group>({ set: { devices }, cleared: [] }, Object.keys(group));
		return await api.request('updateGroup', { params: { groupId }, body: patch, itemIndex });
	});
}
