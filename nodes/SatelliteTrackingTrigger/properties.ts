import type { DisplayCondition, INodeProperties, NodeParameterValue } from 'n8n-workflow';

import { deviceLocatorList, groupLocator, latitudeField, longitudeField } from '../shared/descriptions';
import { requestSettings } from '../shared/requestSettings';
import { DEFAULT_MAX_POLL_SECONDS, DEFAULT_MAX_STALE_MINUTES, MAX_POLL_SECONDS, MAX_STALE_MINUTES } from './settings';
import { DETECTORS, EVENT_KINDS, EVENTS } from './detection/detectors';
import { eventsNeeding } from './detection/needs';
import type { EventKind } from './detection/types';

/**
 * Shown for these events. The condition names Events by its root path, `/events`, which n8n reads
 * exactly as `events` here at the top level. Why not `events`: when a parameter changes, n8n's editor
 * (removeMismatchedOptionValues, 1.x to at least 2.41) drops the value of every parameter with
 * options whose displayOptions name the changed parameter and whose value it judges not to fit;
 * for a collection it compares the keys of the whole node's parameters with the collection's
 * options, which never fit. So adding or removing any event emptied Geofences and Daily Limits.
 */
export const showFor = (events: EventKind[]) => ({ show: { '/events': events } });

const events: INodeProperties = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: ['locationUpdated'],
	options: EVENT_KINDS
		.map((value) => ({ name: EVENTS[value].name, value, description: EVENTS[value].description }))
		.sort((a, b) => a.name.localeCompare(b.name)),
};

/**
 * The canvas subtitle: the selected events by their labels ("Geofence Exited, Device Silent"). n8n
 * evaluates it with the parameters' values only, so the labels travel inside the expression.
 */
export const eventsSubtitle = `={{ [].concat($parameter["events"]).map((event) => (${JSON.stringify(
	Object.fromEntries(EVENT_KINDS.map((kind) => [kind, EVENTS[kind].name])),
)})[event] || event).join(", ") }}`;

const readMode: INodeProperties = {
	displayName: 'Read',
	name: 'readMode',
	type: 'options',
	default: 'latestFix',
	description:
		"Latest Fix: each poll sees each device's newest fix (one call per device), so a quick visit to a geofence or an alert on an earlier fix between two polls is missed. Every Fix: each poll reads every fix since the last one seen (one range read per device).",
	options: [
		{ name: 'Latest Fix', value: 'latestFix', description: 'Newest fix per poll; misses what happens between polls' },
		{ name: 'Every Fix', value: 'everyFix', description: 'All fixes since the last poll: nothing missed, more calls' },
	],
};

/** The events whose detector reads the Geofences list (`needs.geofences`). */
const GEOFENCE_EVENTS = eventsNeeding('geofences');

/** A hint in the panel; a notice has no value, so hiding it loses nothing. */
const notice = (name: string, displayName: string, displayOptions?: INodeProperties['displayOptions']): INodeProperties => ({
	displayName,
	name,
	type: 'notice',
	default: '',
	...(displayOptions && { displayOptions }),
});

const baselineNotice = notice(
	'baselineNotice',
	'The first poll after the workflow is activated only records where each device is, and reports nothing; events start with the next poll. To get the current state as events instead, add Options › Emit Current State on First Poll.',
);

const latestFixGeofenceNotice = notice(
	'latestFixGeofenceNotice',
	'In Latest Fix mode a device that enters and leaves a geofence between two polls is not seen. Choose Every Fix above to catch every crossing.',
	{ show: { '/events': GEOFENCE_EVENTS, '/readMode': ['latestFix'] } },
);

/**
 * "Needs at least one …" for a list the selected events watch, shown while none of the list's kinds
 * of entry (a geofence's circle or polygon, a limit's channel) holds anything, so what a run would
 * refuse is marked before the run. Written as "hidden once an entry exists" rather than "shown while
 * each kind is undefined": n8n sends node descriptions to the editor as JSON, where an undefined in
 * a list of values becomes null, so [undefined] never matched in the editor and the notice was never
 * shown. A list of entries is asked for its first entry, not itself: deleting the last entry in the
 * panel leaves an empty array, whose items n8n tests. A cleared number (null) counts as none, as runs take it.
 */
function emptyListNotice(list: INodeProperties, events: EventKind[]): INodeProperties {
	// A notice's text cannot follow the selection: naming every event that uses the list read, with
	// Geofence Entered alone selected, as if Dwell and Exited were selected too.
	const who = events.length === 1 ? eventNames(events) : 'A selected event';
	return notice(`${list.name}Needed`, `${who} needs at least one entry in ${list.displayName} below`, whileEmpty(list, events));
}

/** Shown while `events` has one selected and `list` holds nothing (see emptyListNotice). */
function whileEmpty(list: INodeProperties, events: EventKind[]): INodeProperties['displayOptions'] {
	const entries = list.typeOptions?.multipleValues === true && list.type === 'fixedCollection' ? '[0]' : '';
	const somethingEntered = Object.fromEntries(
		(list.options ?? []).map((option) => [`/${list.name}.${option.name}${entries}`, [{ _cnd: { exists: true as const } }]]),
	);
	return { show: { '/events': events }, hide: somethingEntered };
}

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
	description:
		'What Geofence Entered, Geofence Exited and Geofence Dwell watch. Editing a geofence starts it afresh: where devices are is recorded again, without events.',
	options: [
		{
			displayName: 'Circle',
			name: 'circle',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true, placeholder: 'e.g. Depot' },
				latitudeField,
				longitudeField,
				{ displayName: 'Radius (Meters)', name: 'radius', type: 'number', default: 500, typeOptions: { minValue: 1 } },
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

/**
 * A geofence event with no geofence fails every poll, but a notice is no parameter issue: n8n puts
 * its red warning on the node only for a required field left empty (a text, option or date). This one
 * is shown just while that is so, so the node is marked as soon as it is configured so; adding a
 * geofence hides it. It is disabled whenever shown: labelled "Geofence" and open to typing, it read as
 * the place to name one, and nothing in it is read.
 */
const geofenceNeeded: INodeProperties = {
	displayName: 'At Least One Geofence',
	name: 'geofenceNeeded',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'Add one under Geofences below',
	description: 'Geofence events watch the geofences entered under Geofences below: add at least one there',
	displayOptions: whileEmpty(geofences, GEOFENCE_EVENTS),
	disabledOptions: { show: { '/events': GEOFENCE_EVENTS } },
};

/** Version 2 on (output.ts): saved version-1 workflows keep the raw fix they were built against. */
const simplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		"Whether each event's location is a short set of fields (time, latitude, longitude, speed, battery, map link, alerts) instead of the raw fix",
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
};

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
		{
			displayName: 'Max Poll Time (Seconds)',
			name: 'maxPollSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_POLL_SECONDS },
			default: DEFAULT_MAX_POLL_SECONDS,
			description:
				"How long one poll may spend reading devices. What it has read by then is reported and the next poll goes on with the rest, so a slow or rate-limiting service never makes n8n abandon a poll (n8n's durable scheduler gives up on a poll after 45 seconds by default).",
		},
		{
			displayName: 'Read Priority',
			name: 'readPriority',
			type: 'options',
			options: [
				{
					name: 'Rotate',
					value: 'rotate',
					description: 'Go round the devices in turn: each waits for the whole round',
				},
				{
					name: 'Active First',
					value: 'activeFirst',
					description: 'Moving and in-trip devices first, then the longest unread',
				},
			],
			default: 'activeFirst',
			description:
				'Which devices a poll reads first when Max Requests per Poll, Max Poll Time or the quota leave too few reads for all. With enough reads for all, every device is read every poll either way. Not set, triggers added before version 3 rotate.',
		},
		{
			displayName: 'Max Stale Minutes',
			name: 'maxStaleMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_STALE_MINUTES },
			default: DEFAULT_MAX_STALE_MINUTES,
			description:
				'Under Active First, the longest any device may go unread, so that a parked device that starts moving is seen within this time. If the reads per poll cannot cover the fleet within it, the poll logs how many devices are overdue.',
		},
	],
};

const lists = DETECTORS.flatMap(({ detector, events }) => (detector.lists ?? []).map((list) => ({ list, events })));

/**
 * Events by their labels, as the Events list shows them, a first word they all share said once:
 * "Geofence Dwell, Entered and Exited" (in full, the Geofences label was cut off at the panel's width).
 */
function eventNames(events: EventKind[]): string {
	const names = events.map((kind) => EVENTS[kind].name).sort((a, b) => a.localeCompare(b));
	if (names.length === 1) return names[0];
	const shared = names[0].split(' ')[0];
	const parts = names.every((name) => name.startsWith(`${shared} `)) ? [names[0], ...names.slice(1).map((name) => name.slice(shared.length + 1))] : names;
	return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * A list stays shown whatever Events holds (n8n's editor drops the value of a parameter it hides),
 * so its label says which events use it: with others selected it is plainly not asked for.
 */
const labelledList = (list: INodeProperties, events: EventKind[]): INodeProperties => ({
	...list,
	displayName: `${list.displayName} (Only for ${eventNames(events)})`,
});

/**
 * An event's own setting twice more under the same name, because n8n's editor drops the value of a
 * parameter it hides: removing an event and adding it back silently reset what was typed (Idle
 * Minutes 7 came back as 10). One entry is shown while none of its events is selected and the
 * setting holds a value other than its default, labelled with its events, so the editor keeps the
 * value and the user sees it is kept; one of type hidden, never shown, keeps the default in the
 * parameters n8n resolves, without which that condition would read a missing value as a typed one
 * and show every untouched setting. Conditions name root paths, which n8n does not order by
 * dependency. A list (Alert Names) holds a value while it has an entry: n8n tests a condition on each
 * of a list's entries, and `exists` is false for an empty list and for a missing one alike.
 */
function keptWhileUnused(property: INodeProperties, events: EventKind[]): INodeProperties[] {
	const holdsValue: DisplayCondition = Array.isArray(property.default)
		? { _cnd: { exists: true } }
		: { _cnd: { not: property.default as NodeParameterValue } };
	return [
		{
			...property,
			displayName: `${property.displayName} (Only for ${eventNames(events)})`,
			displayOptions: { show: { [`/${property.name}`]: [holdsValue] }, hide: { '/events': events } },
		},
		{ ...property, type: 'hidden', displayOptions: undefined },
	];
}

export const properties: INodeProperties[] = [
	baselineNotice,
	events,
	readMode,
	latestFixGeofenceNotice,
	emptyListNotice(geofences, GEOFENCE_EVENTS),
	geofenceNeeded,
	...lists.map(({ list, events }) => emptyListNotice(list, events)),
	...deviceSelection,
	labelledList(geofences, GEOFENCE_EVENTS),
	...lists.map(({ list, events }) => labelledList(list, events)),
	...DETECTORS.flatMap(({ detector, events }) =>
		(detector.properties ?? []).flatMap((property) => {
			// A detector may show a parameter for only some of its events (its own displayOptions).
			const displayOptions = property.displayOptions ?? showFor(events);
			const usedBy = (displayOptions.show?.['/events'] as EventKind[] | undefined) ?? events;
			return [{ ...property, displayOptions }, ...keptWhileUnused(property, usedBy)];
		}),
	),
	simplify,
	options,
	triggerRequestSettings,
];
