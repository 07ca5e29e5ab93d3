import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked } from '../../shared/parameters';
import { toNumberInRange } from '../../shared/validation';
import { DEFAULT_TIME_ZONE } from '../../shared/zonedDay';

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

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/**
 * How many results an item asks for: Infinity with Return All. Read before the request, so that a
 * Limit of 0, -5 or "ten" from an expression is an error rather than a silent empty result.
 */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number {
	if (context.getNodeParameter('returnAll', itemIndex, false) === true) return Infinity;
	const limit = checked(context, itemIndex, 'Limit', toNumberInRange(context.getNodeParameter('limit', itemIndex, 50), 1, Number.MAX_SAFE_INTEGER));
	return Math.floor(limit);
}

/** The API has no paging: lists come whole, and Limit trims them here. */
export function applyLimit<T>(results: T[], limit: number): T[] {
	return limit === Infinity ? results : results.slice(0, limit);
}

export const dateRange: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'Start of the range (inclusive). Dates without a time zone are read as UTC.',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'End of the range (inclusive)',
	},
];

/** Tags and attributes are string maps on the wire; the UI edits them as key/value rows. */
export function keyValueCollection(name: string, label: string, description: string): INodeProperties {
	return {
		displayName: label,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		options: [
			{
				displayName: 'Entry',
				name: 'entries',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

export function keyValueMap(collection: unknown): Record<string, string> {
	const entries = ((collection as IDataObject | undefined)?.entries ?? []) as Array<{ key?: unknown; value?: unknown }>;
	return Object.fromEntries(
		entries.filter((entry) => String(entry.key ?? '').trim() !== '').map((entry) => [String(entry.key).trim(), String(entry.value ?? '')]),
	);
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

/** The Name Contains filter of a getAll; `things` is the plural the description speaks of. */
export function nameContainsFilter(things: string): INodeProperties {
	return {
		displayName: 'Name Contains',
		name: 'nameContains',
		type: 'string',
		default: '',
		description: `Only ${things} whose name contains this text (case-insensitive)`,
	};
}
