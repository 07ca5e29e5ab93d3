/** The trigger's parameters, read once per poll and checked, as plain settings for the pure code. */
import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { clientOptions } from '../SatelliteTracking/actions/requestSettings';
import { circleGeofence, geoJsonGeofence, pointsGeofence, type Geofence } from '../shared/geo/geofence';
import type { ClientOptions } from '../shared/transport';
import type { ReadMode } from '../shared/trigger/plan';
import type { DeviceSelection } from '../shared/trigger/selection';
import { EVENT_KINDS, type DetectionSettings, type EventKind } from '../shared/trigger/types';
import { toNonEmptyText, toResourceId, type Check } from '../shared/validation';

export interface TriggerSettings {
	detection: DetectionSettings;
	selection: DeviceSelection;
	readMode: ReadMode;
	client: ClientOptions;
	/** Infinity when there is no cap. */
	maxRequestsPerPoll: number;
}

export function readSettings(context: IPollFunctions): TriggerSettings {
	const parameter = <T>(name: string, fallback: T) => context.getNodeParameter(name, fallback) as T;
	const check = <T>(label: string, result: Check<T>): T => {
		if (!result.ok) throw new NodeOperationError(context.getNode(), `Invalid "${label}": ${label} ${result.problem}`);
		return result.value;
	};
	const events = parameter<string[]>('events', []).filter((kind): kind is EventKind =>
		(EVENT_KINDS as readonly string[]).includes(kind),
	);
	if (events.length === 0) throw new NodeOperationError(context.getNode(), 'Choose at least one event to watch for');
	const geofences = readGeofences(parameter('geofences', {}), check);
	if (geofences.length === 0 && events.some((kind) => kind === 'geofenceEntered' || kind === 'geofenceExited')) {
		throw new NodeOperationError(context.getNode(), 'Add at least one geofence to watch for geofence events');
	}
	const budget = parameter<IDataObject>('requestSettings', {});
	const maxRequests = Number(budget.maxRequestsPerPoll ?? 0);
	return {
		detection: {
			events,
			geofences,
			minDistanceMeters: Math.max(0, Number(parameter('minDistanceMeters', 0))),
			silentAfterMinutes: Math.max(0, Number(parameter('silentAfterMinutes', 60))),
			expiringWithinDays: Math.max(0, Number(parameter('expiringWithinDays', 7))),
			alertFilter: parameter('alertFilter', '')
				.split(',')
				.map((text) => text.trim().toLowerCase())
				.filter((text) => text !== ''),
			emitCurrentState: parameter<IDataObject>('options', {}).emitCurrentState === true,
		},
		selection: readSelection(parameter, check),
		readMode: parameter<ReadMode>('readMode', 'latestFix') === 'everyFix' ? 'everyFix' : 'latestFix',
		client: clientOptions(budget),
		maxRequestsPerPoll: maxRequests > 0 ? maxRequests : Infinity,
	};
}

type Parameter = <T>(name: string, fallback: T) => T;
type Checker = <T>(label: string, result: Check<T>) => T;

/** A resource locator's value, whether n8n hands over the locator object or the bare id. */
function locatorValue(value: unknown): unknown {
	return typeof value === 'object' && value !== null && '__rl' in value ? (value as IDataObject).value : value;
}

function readSelection(parameter: Parameter, check: Checker): DeviceSelection {
	switch (parameter<string>('deviceSelection', 'all')) {
		case 'selected': {
			const rows = parameter<{ device?: Array<{ deviceId?: unknown }> }>('devices', {}).device ?? [];
			return { by: 'ids', ids: rows.map((row) => check('Device', toResourceId(locatorValue(row.deviceId)))) };
		}
		case 'group':
			return { by: 'group', groupId: check('Group', toResourceId(locatorValue(parameter('groupId', '')))) };
		case 'tag':
			return {
				by: 'tag',
				key: check('Tag Key', toNonEmptyText(parameter('tagKey', ''))),
				value: String(parameter('tagValue', '')).trim(),
			};
		default:
			return { by: 'all' };
	}
}

function readGeofences(collection: IDataObject, check: Checker): Geofence[] {
	const circles = (collection.circle ?? []) as IDataObject[];
	const polygons = (collection.polygon ?? []) as IDataObject[];
	const geofences = [
		...circles.map((row) => check('Geofence', circleGeofence(row.name, row.latitude, row.longitude, row.radius))),
		...polygons.map((row) =>
			check('Geofence', row.format === 'geoJson' ? geoJsonGeofence(row.name, row.geoJson) : pointsGeofence(row.name, row.points)),
		),
	];
	return [...new Map(geofences.map((geofence) => [geofence.id, geofence])).values()];
}
