/** The trigger's parameters, read once per poll and checked, as plain settings for the pure code. */
import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { clientOptions } from '../shared/requestSettings';
import { circleGeofence, geoJsonGeofence, pointsGeofence, type Geofence } from '../shared/geo/geofence';
import { DEFAULT_NEAR_SHARE } from '../shared/notifications';
import type { ClientOptions } from '../shared/transport';
import { DEFAULT_EXPIRING_WITHIN_DAYS } from './detection/detectors/deviceExpiring';
import { DEFAULT_SILENT_AFTER_MINUTES } from './detection/detectors/deviceSilent';
import type { ReadMode } from './detection/plan';
import type { DeviceSelection } from './detection/selection';
import { EVENT_KINDS, type DailyLimitSettings, type DetectionSettings, type EventKind } from './detection/types';
import { toNonEmptyText, toNumberInRange, toResourceId, type Check } from '../shared/validation';
import { DEFAULT_TIME_ZONE, toTimeZone } from '../shared/zonedDay';

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
			silentAfterMinutes: Math.max(0, Number(parameter('silentAfterMinutes', DEFAULT_SILENT_AFTER_MINUTES))),
			expiringWithinDays: Math.max(0, Number(parameter('expiringWithinDays', DEFAULT_EXPIRING_WITHIN_DAYS))),
			alertFilter: parameter('alertFilter', '')
				.split(',')
				.map((text) => text.trim().toLowerCase())
				.filter((text) => text !== ''),
			dailyLimit: events.includes('dailyLimitNear') ? readDailyLimit(context, parameter, check) : undefined,
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

function readDailyLimit(context: IPollFunctions, parameter: Parameter, check: Checker): DailyLimitSettings {
	const { emailLimit, smsLimit } = parameter<IDataObject>('dailyLimits', {});
	const limits = {
		email: check('Daily Email Limit', toDailyLimit(emailLimit)),
		sms: check('Daily SMS Limit', toDailyLimit(smsLimit)),
	};
	if (limits.email === undefined && limits.sms === undefined) {
		throw new NodeOperationError(context.getNode(), 'Add a Daily Email Limit or a Daily SMS Limit to watch for daily limit events');
	}
	return {
		limits,
		share: check('Near Limit Share', toShare(parameter('nearShare', DEFAULT_NEAR_SHARE))),
		timeZone: check('Time Zone', toTimeZone(parameter('timeZone', DEFAULT_TIME_ZONE))),
	};
}

/** Empty: the channel is not watched. 0 is refused: it would be near and reached before anything was sent. */
function toDailyLimit(value: unknown): Check<number | undefined> {
	if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	if (number.value < 1) {
		return { ok: false, problem: `must be 1 or more, or removed to stop watching the channel (got ${number.value})` };
	}
	return { ok: true, value: Math.floor(number.value) };
}

function toShare(value: unknown): Check<number> {
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	return number.value > 0 && number.value <= 1
		? number
		: { ok: false, problem: `must be above 0 and at most 1, e.g. 0.8 for 80% (got ${number.value})` };
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
