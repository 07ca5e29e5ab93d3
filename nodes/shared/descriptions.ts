import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIME_ZONE } from './zonedDay';

/** Parameter descriptions both nodes offer: locators, the daily limits, collections. */
function resourceLocator(name: string, label: string, searchListMethod: string, placeholder: string): INodeProperties {
	return {
		displayName: label,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{ displayName: 'By ID', name: 'id', type: 'string', placeholder },
		],
	};
}

export const deviceLocator = resourceLocator('deviceId', 'Device', 'searchDevices', 'e.g. device123');
export const groupLocator = resourceLocator('groupId', 'Group', 'searchGroups', 'e.g. grp-123');
export const userLocator = resourceLocator('userId', 'User', 'searchUsers', 'e.g. usr-12345');

/** Several devices, each picked from the list or given by id: resource locators do not take many values. */
export function deviceLocatorList(name: string, description: string): INodeProperties {
	return {
		displayName: 'Selected Devices',
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Device',
		default: {},
		options: [{ displayName: 'Device', name: 'device', values: [{ ...deviceLocator, description }] }],
	};
}

/** An n8n collection: optional fields a user adds one by one (Additional Fields, Update Fields, Filters). */
export function collection(
	name: string,
	displayName: string,
	placeholder: string,
	options: INodeProperties[],
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options, ...extra };
}

/**
 * The per-device Daily Email and SMS Limits of the web app, which the API does not expose: the user
 * enters them, and a channel left out has no limit.
 */
export function dailyLimitsCollection(minValue: number, extra: Partial<INodeProperties>): INodeProperties {
	const limit = (displayName: string, name: string): INodeProperties => ({
		displayName,
		name,
		type: 'number',
		typeOptions: { minValue },
		default: minValue,
	});
	const limits = [limit('Daily Email Limit', 'emailLimit'), limit('Daily SMS Limit', 'smsLimit')];
	return collection('dailyLimits', 'Daily Limits', 'Add Limit', limits, extra);
}

/** The zone whose midnight starts the day the daily limits count. */
export const dayTimeZone: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timeZone',
	type: 'string',
	default: DEFAULT_TIME_ZONE,
	placeholder: 'e.g. Europe/Berlin',
	description: 'IANA time zone whose midnight starts the day, as the daily limits in the web app do for your account',
};

/** The editor refuses a value out of range as it is typed; validation.ts checks expressions at run time. */
function coordinateField(displayName: string, name: string, limit: number): INodeProperties {
	return { displayName, name, type: 'number', default: 0, typeOptions: { minValue: -limit, maxValue: limit, numberPrecision: 6 }, description: 'In decimal degrees (WGS 84)' };
}

export const latitudeField = coordinateField('Latitude', 'latitude', 90);
export const longitudeField = coordinateField('Longitude', 'longitude', 180);
