import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { checked, getResourceId } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toBoolean, toIsoDateTime, toLatitude, toLongitude, toNumberInRange, toTextList } from '../../../shared/validation';
import {
	LOCATION_NUMBER_FIELDS,
	LOCATION_TEXT_LIST_FIELDS,
	type Location,
	type LocationsRequest,
} from '../../../shared/wire';
import { collection, deviceLocator, latitudeField, longitudeField } from '../../../shared/descriptions';
import { keyValueCollection, keyValueMap } from '../common.descriptions';
import type { OperationOption } from '../operation';

/** The field's name in the UI, which error messages use too. */
const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

const numberFields: INodeProperties[] = LOCATION_NUMBER_FIELDS.map((name) => ({
	displayName: label(name),
	name,
	type: 'number',
	default: 0,
}));

const textListFields: INodeProperties[] = LOCATION_TEXT_LIST_FIELDS.map((name) => ({
	displayName: label(name),
	name,
	type: 'string',
	default: '',
	description: 'Comma-separated texts',
}));

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
			{ displayName: 'Has Critical Alert', name: 'hasCriticalAlert', type: 'boolean', default: false } as INodeProperties,
			keyValueCollection('attributes', 'Attributes', 'Free-form attributes of the fix'),
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	),
];

function buildLocation(context: IExecuteFunctions, itemIndex: number): Location {
	const param = (name: string) => context.getNodeParameter(name, itemIndex);
	const location: Location = {
		dateTime: checked(context, itemIndex, 'Date Time', toIsoDateTime(param('dateTime'))),
		latitude: checked(context, itemIndex, 'Latitude', toLatitude(param('latitude'))),
		longitude: checked(context, itemIndex, 'Longitude', toLongitude(param('longitude'))),
	};
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
	if (additional.attributes !== undefined) location.attributes = keyValueMap(additional.attributes);
	return location;
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = getResourceId(this, itemIndex, 'deviceId', 'Device');
	const location = buildLocation(this, itemIndex);
	// The endpoint stores the fix and answers the range around it, which confirms what was kept.
	const body: LocationsRequest = { from: location.dateTime, to: location.dateTime, location };
	const stored = await api.request('submitLocation', { params: { deviceId }, body, itemIndex });
	return stored.map((fix) => ({ deviceId, ...fix }));
}
