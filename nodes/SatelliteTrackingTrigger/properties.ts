import type { INodeProperties } from 'n8n-workflow';

import { dailyLimitsCollection, dayTimeZone, deviceLocatorList, groupLocator } from '../shared/descriptions';
import { requestSettings } from '../shared/requestSettings';
import { DEFAULT_NEAR_SHARE } from '../shared/notifications';
import type { EventKind } from './detection/types';

const showFor = (...events: EventKind[]) => ({ show: { events } });

const events: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: ['locationUpdated'],
	options: [
		{ name: 'Critical Alert', value: 'criticalAlert', description: 'A new fix carries an alert' },
		{
			name: 'Daily Limit Near',
			value: 'dailyLimitNear',
			description: "A device's email or SMS count of the day reaches the set share of its daily limit, then the limit",
		},
		{ name: 'Device Expiring', value: 'deviceExpiring', description: "A device's license expires within the set number of days" },
		{ name: 'Device Silent', value: 'deviceSilent', description: 'A device has sent no fix for the set number of minutes' },
		{ name: 'Geofence Entered', value: 'geofenceEntered', description: 'A device moves into one of the geofences below' },
		{ name: 'Geofence Exited', value: 'geofenceExited', description: 'A device moves out of one of the geofences below' },
		{ name: 'Location Updated', value: 'locationUpdated', description: 'A device sends a newer fix' },
	] satisfies Array<{ name: string; value: EventKind; description: string }>,
};

const readMode: INodeProperties = {
	displayName: 'Read',
	name: 'readMode',
	type: 'options',
	default: 'latestFix',
	options: [
		{
			name: 'Latest Fix',
			value: 'latestFix',
			description: "One last-location call per device per poll. Cheapest; what happens between two polls is not seen.",
		},
		{
			name: 'Every Fix',
			value: 'everyFix',
			description: 'Every fix since the last one seen, so geofence crossings and alerts between polls are not missed',
		},
	],
};

const deviceSelection: INodeProperties[] = [
	{
		displayName: 'Devices',
		name: 'deviceSelection',
		type: 'options',
		default: 'all',
		options: [
			{ name: 'All Devices', value: 'all' },
			{ name: 'Selected Devices', value: 'selected' },
			{ name: 'Devices of a Group', value: 'group' },
			{ name: 'Devices With a Tag', value: 'tag' },
		],
	},
	{ ...deviceLocatorList('devices', 'A device to watch'), displayOptions: { show: { deviceSelection: ['selected'] } } },
	{ ...groupLocator, description: 'Watch the devices of this group', displayOptions: { show: { deviceSelection: ['group'] } } },
	{
		displayName: 'Tag Key',
		name: 'tagKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. fleet',
		displayOptions: { show: { deviceSelection: ['tag'] } },
	},
	{
		displayName: 'Tag Value',
		name: 'tagValue',
		type: 'string',
		default: '',
		placeholder: 'e.g. north',
		description: 'Leave empty for every device that has the tag, whatever its value',
		displayOptions: { show: { deviceSelection: ['tag'] } },
	},
];

const geofences: INodeProperties = {
	displayName: 'Geofences',
	name: 'geofences',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Geofence',
	default: {},
	displayOptions: showFor('geofenceEntered', 'geofenceExited'),
	description: 'Editing a geofence starts it afresh: where devices are is recorded again, without events',
	options: [
		{
			displayName: 'Circle',
			name: 'circle',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, placeholder: 'e.g. Depot' },
				{ displayName: 'Latitude', name: 'latitude', type: 'number', default: 0, typeOptions: { numberPrecision: 6 } },
				{ displayName: 'Longitude', name: 'longitude', type: 'number', default: 0, typeOptions: { numberPrecision: 6 } },
				{ displayName: 'Radius (Metres)', name: 'radius', type: 'number', default: 500, typeOptions: { minValue: 1 } },
			],
		},
		{
			displayName: 'Polygon',
			name: 'polygon',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, placeholder: 'e.g. Yard' },
				{
					displayName: 'Defined By',
					name: 'format',
					type: 'options',
					default: 'points',
					options: [
						{ name: 'Points', value: 'points' },
						{ name: 'GeoJSON', value: 'geoJson' },
					],
				},
				{
					displayName: 'Points',
					name: 'points',
					type: 'string',
					typeOptions: { rows: 5 },
					default: '',
					placeholder: '51.50, -0.13\n51.51, -0.12\n51.50, -0.11',
					description:
						'One "latitude, longitude" per line, at least three. Each edge takes the shorter way round, so a polygon may cross the 180° meridian; one that circles the globe encloses the nearer pole.',
					displayOptions: { show: { format: ['points'] } },
				},
				{
					displayName: 'GeoJSON',
					name: 'geoJson',
					type: 'json',
					default: '',
					placeholder: '{ "type": "Polygon", "coordinates": [[[lon, lat], …]] }',
					description: 'A Polygon or MultiPolygon geometry, or a Feature holding one (positions are [longitude, latitude])',
					displayOptions: { show: { format: ['geoJson'] } },
				},
			],
		},
	],
};

const eventSettings: INodeProperties[] = [
	{
		displayName: 'Minimum Distance (Metres)',
		name: 'minDistanceMeters',
		type: 'number',
		default: 0,
		typeOptions: { minValue: 0 },
		description: 'A newer fix closer than this to the last one reported is not reported (GPS jitter while parked)',
		displayOptions: showFor('locationUpdated'),
	},
	{
		displayName: 'Silent After (Minutes)',
		name: 'silentAfterMinutes',
		type: 'number',
		default: 60,
		typeOptions: { minValue: 1 },
		description: 'Report a device that has sent no fix for this long; once per silence',
		displayOptions: showFor('deviceSilent'),
	},
	{
		displayName: 'Alert Text Filter',
		name: 'alertFilter',
		type: 'string',
		default: '',
		placeholder: 'e.g. SOS, Power cut',
		description: 'Only alerts whose text contains one of these (comma-separated, any case). Empty: every alert.',
		displayOptions: showFor('criticalAlert'),
	},
	{
		displayName: 'Expiring Within (Days)',
		name: 'expiringWithinDays',
		type: 'number',
		default: 7,
		typeOptions: { minValue: 0 },
		description: 'Report a device whose license expires within this many days; once per device and expiry date',
		displayOptions: showFor('deviceExpiring'),
	},
	dailyLimitsCollection(1, {
		description:
			'The Daily Email and SMS Limits set for the devices in the web app (the API does not expose them). A channel without a limit here is not watched. Each watched device costs one more API call per poll.',
		displayOptions: showFor('dailyLimitNear'),
	}),
	{
		displayName: 'Near Limit Share',
		name: 'nearShare',
		type: 'number',
		default: DEFAULT_NEAR_SHARE,
		typeOptions: { minValue: 0.01, maxValue: 1, numberPrecision: 2 },
		description: 'Report a device once its count of the day reaches this share of the limit (0.8 = 80%), and once more at the limit',
		displayOptions: showFor('dailyLimitNear'),
	},
	{ ...dayTimeZone, displayOptions: showFor('dailyLimitNear') },
];

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Emit Current State on First Poll',
			name: 'emitCurrentState',
			type: 'boolean',
			default: false,
			description:
				'Whether what the trigger sees for the first time (a device, a geofence, a newly selected event) is reported as it is now — locations, geofences devices are in, silent and expiring devices — instead of only being recorded',
		},
	],
};

/** The action node's Request Settings, plus the trigger's own cap per poll. */
const triggerRequestSettings: INodeProperties = {
	...requestSettings,
	options: [
		...(requestSettings.options ?? []),
		{
			displayName: 'Max Requests per Poll',
			name: 'maxRequestsPerPoll',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Cap on API calls one poll makes, device list included; 0 for none. Devices not reached are read by the next polls, in turn.',
		},
	],
};

export const properties: INodeProperties[] = [
	events,
	readMode,
	...deviceSelection,
	geofences,
	...eventSettings,
	options,
	triggerRequestSettings,
];
