import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { checked, invalidInput } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import {
	toBoolean,
	toBooleanList,
	toIsoDateTime,
	toLatitude,
	toLongitude,
	toNumberInRange,
	toObjectList,
	toTextList,
} from '../../../shared/validation';
import {
	LOCATION_BOOLEAN_LIST_FIELDS,
	LOCATION_NUMBER_FIELDS,
	LOCATION_TEXT_LIST_FIELDS,
	type DateRange,
	type Location,
	type LocationsRequest,
} from '../../../shared/wire';
import { collection, deviceLocator, latitudeField, longitudeField } from '../../../shared/descriptions';
import { keyValueCollection, keyValueMap } from '../common.descriptions';
import type { OperationOption } from '../operation';
import { readDeviceId } from '../toolMode';
import { refusesNullIsland, zonelessDateReading } from '../versions';

/** The field's name in the UI, which error messages use too. */
const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * Units as the service's app shows them; the API documents none (README: Units). Unit: what the field
 * says it is in; fields whose unit depends on the device and its sensor say so.
 */
const UNITS: Partial<Record<(typeof LOCATION_NUMBER_FIELDS)[number], string>> = {
	speed: 'In km/h, as the service\'s app shows it (the API documents no unit)',
	course: 'Heading in degrees, 0 north, clockwise',
	rpm: 'Engine revolutions per minute',
	milleage: 'The odometer, in km as the service\'s app shows it (the API documents no unit)',
};

const numberFields: INodeProperties[] = LOCATION_NUMBER_FIELDS.map((name) => ({
	displayName: label(name),
	name,
	type: 'number',
	default: 0,
	description: UNITS[name] ?? 'In the unit the device reports it (the API documents none)',
}));

const textListFields: INodeProperties[] = LOCATION_TEXT_LIST_FIELDS.map((name) => ({
	displayName: label(name),
	name,
	type: 'string',
	default: '',
	description: 'Comma-separated texts',
}));

const booleanListFields: INodeProperties[] = LOCATION_BOOLEAN_LIST_FIELDS.map((name) => ({
	displayName: label(name),
	name,
	type: 'string',
	default: '',
	placeholder: 'e.g. true, false, true',
	description: `The states of the device's digital ${name} in order, comma-separated`,
}));

/** Where the answer's range starts and ends; the stored fix's own time when left out. */
const rangeFields: INodeProperties[] = [
	{
		displayName: 'Answer From',
		name: 'from',
		type: 'dateTime',
		default: '',
		description: "Start of the range of the device's fixes the answer lists (the endpoint answers a range). Default: the fix's Date Time.",
	},
	{
		displayName: 'Answer To',
		name: 'to',
		type: 'dateTime',
		default: '',
		description: "End of the range of the device's fixes the answer lists. Default: the fix's Date Time.",
	},
];

export const option: OperationOption = {
	name: 'Submit',
	description: 'Store a fix for a device',
	action: 'Submit a location for a device',
};

export const properties: INodeProperties[] = [
	{ ...deviceLocator, description: 'The device the fix belongs to' },
	{ ...latitudeField, required: true },
	{ ...longitudeField, required: true },
	{ displayName: 'Date Time', name: 'dateTime', type: 'dateTime', default: '', required: true, description: 'When the fix was taken' },
	collection(
		'additionalFields',
		'Additional Fields',
		'Add Field',
		[
			...numberFields,
			...textListFields,
			...booleanListFields,
			...rangeFields,
			{ displayName: 'Has Critical Alert', name: 'hasCriticalAlert', type: 'boolean', default: false } as INodeProperties,
			keyValueCollection('attributes', 'Attributes', 'Free-form attributes of the fix'),
			{
				displayName: 'Accessories Attributes',
				name: 'accessoriesAttributes',
				type: 'json',
				default: '[]',
				description: 'The attributes of each accessory, as a JSON array of objects, e.g. [{"accessoryType": "sensor", "accessoryStatus": "active"}]',
			} as INodeProperties,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	),
];

function buildLocation(context: IExecuteFunctions, itemIndex: number): Location {
	const param = (name: string) => context.getNodeParameter(name, itemIndex);
	const location: Location = {
		dateTime: checked(context, itemIndex, 'Date Time', toIsoDateTime(param('dateTime'), zonelessDateReading(context))),
		latitude: checked(context, itemIndex, 'Latitude', toLatitude(param('latitude'))),
		longitude: checked(context, itemIndex, 'Longitude', toLongitude(param('longitude'))),
	};
	if (location.latitude === 0 && location.longitude === 0 && refusesNullIsland(context)) {
		throw invalidInput(
			context,
			itemIndex,
			'Latitude',
			"is 0 and so is Longitude, their defaults (and what a tracker without a GPS lock sends): enter the fix's coordinates",
		);
	}
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const name of LOCATION_NUMBER_FIELDS) {
		if (additional[name] === undefined) continue;
		location[name] = checked(context, itemIndex, label(name), toNumberInRange(additional[name], -Number.MAX_VALUE, Number.MAX_VALUE));
	}
	for (const name of LOCATION_TEXT_LIST_FIELDS) {
		if (additional[name] === undefined) continue;
		location[name] = checked(context, itemIndex, label(name), toTextList(additional[name]));
	}
	if (additional.hasCriticalAlert !== undefined) {
		location.hasCriticalAlert = checked(context, itemIndex, 'Has Critical Alert', toBoolean(additional.hasCriticalAlert));
	}
	for (const name of LOCATION_BOOLEAN_LIST_FIELDS) {
		if (additional[name] === undefined) continue;
		location[name] = checked(context, itemIndex, label(name), toBooleanList(additional[name]));
	}
	if (additional.attributes !== undefined) location.attributes = keyValueMap(additional.attributes);
	if (additional.accessoriesAttributes !== undefined) {
		location.accessoriesAttributes = checked(context, itemIndex, 'Accessories Attributes', toObjectList(additional.accessoriesAttributes));
	}
	return location;
}

/** The range the answer lists: the documented `from`/`to`, around the fix unless the user sets them. */
function answerRange(context: IExecuteFunctions, itemIndex: number, location: Location): DateRange {
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const end = (name: 'from' | 'to', fieldLabel: string) =>
		additional[name] === undefined || additional[name] === ''
			? location.dateTime
			: checked(context, itemIndex, fieldLabel, toIsoDateTime(additional[name], zonelessDateReading(context)));
	const range = { from: end('from', 'Answer From'), to: end('to', 'Answer To') };
	if (Date.parse(range.from) > Date.parse(range.to)) {
		throw invalidInput(context, itemIndex, 'Answer From', `must not be after Answer To (${range.from} > ${range.to})`);
	}
	return range;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	const location = buildLocation(this, itemIndex);
	// The endpoint stores the fix and answers a range (around the fix by default), which confirms what was kept.
	const body: LocationsRequest = { ...answerRange(this, itemIndex, location), location };
	const stored = await api.request('submitLocation', { params: { deviceId }, body, itemIndex });
	return stored.map((fix) => ({ deviceId, ...fix }));
}
