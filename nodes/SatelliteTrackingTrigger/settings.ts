/** The trigger's parameters, read once per poll and checked, as plain settings for the pure code. */
import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { readRequestSettings } from '../shared/requestSettings';
import { circleGeofence, geoJsonGeofence, pointsGeofence, type Geofence } from '../shared/geo/geofence';
import { DEFAULT_NEAR_SHARE } from '../shared/notifications';
import type { ClientOptions } from '../shared/transport';
import { DEFAULT_EXPIRING_WITHIN_DAYS } from './detection/detectors/deviceExpiring';
import { DEFAULT_SILENT_AFTER_MINUTES } from './detection/detectors/deviceSilent';
import {
	DEFAULT_FUEL_DROP_AMOUNT,
	DEFAULT_FUEL_DROP_MAX_SPEED,
	DEFAULT_FUEL_DROP_WITHIN_MINUTES,
} from './detection/detectors/fuelDropped';
import { DEFAULT_DWELL_MINUTES } from './detection/detectors/geofenceDwell';
import type { ReadMode } from './detection/plan';
import type { DeviceSelection } from './detection/selection';
import {
	EVENT_KINDS,
	NUMERIC_FIX_FIELDS,
	type DailyLimitSettings,
	type DetectionSettings,
	type EventKind,
	type FuelDropSettings,
	type InputChangeSettings,
	type ThresholdRule,
} from './detection/types';
import { preview, toNonEmptyText, toNumberInRange, toResourceId, type Check } from '../shared/validation';
import { DEFAULT_TIME_ZONE, toTimeZone } from '../shared/zonedDay';

export interface TriggerSettings {
	detection: DetectionSettings;
	selection: DeviceSelection;
	readMode: ReadMode;
	client: ClientOptions;
	/** Infinity when there is no cap. */
	maxRequestsPerPoll: number;
	/** The poll's time budget for reading devices, in ms. */
	maxPollMs: number;
}

/** Well inside n8n's durable scheduler's poll timeout (45 s by default), with room for the listing and the output. */
export const DEFAULT_MAX_POLL_SECONDS = 30;
/** A poll is meant to end within n8n's poll timeout; past an hour the budget would also overflow timers at 24.8 days, ending every poll at once. */
export const MAX_POLL_SECONDS = 3600;

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
	if (geofences.length === 0 && events.some((kind) => kind === 'geofenceEntered' || kind === 'geofenceExited' || kind === 'geofenceDwell')) {
		throw new NodeOperationError(context.getNode(), 'Add at least one geofence to watch for geofence events');
	}
	const requestSettings = parameter<IDataObject>('requestSettings', {});
	const maxRequests = check('Max Requests per Poll', toNumberInRange(requestSettings.maxRequestsPerPoll ?? 0, 0, Infinity));
	return {
		detection: {
			events,
			geofences,
			minDistanceMeters: check('Minimum Distance (Metres)', toNumberInRange(parameter('minDistanceMeters', 0), 0, Infinity)),
			silentAfterMinutes: check('Silent After (Minutes)', toPositive(parameter('silentAfterMinutes', DEFAULT_SILENT_AFTER_MINUTES))),
			expiringWithinDays: check(
				'Expiring Within (Days)',
				toNumberInRange(parameter('expiringWithinDays', DEFAULT_EXPIRING_WITHIN_DAYS), 0, Infinity),
			),
			alertFilter: check('Alert Text Filter', toTextList(parameter('alertFilter', ''))).map((text) => text.toLowerCase()),
			alertNames: check('Alert Names', toTextList(parameter('alertNames', []))),
			dailyLimit: events.includes('dailyLimitNear') ? readDailyLimit(context, parameter, check) : undefined,
			thresholdRules: events.includes('valueCrossed') ? readThresholdRules(context, parameter, check) : undefined,
			fuelDrop: events.includes('fuelDropped') ? readFuelDrop(parameter, check) : undefined,
			inputChange: events.includes('inputChanged') ? readInputChange(parameter, check) : undefined,
			geofenceMinMinutes: check('Minimum Minutes Inside or Outside', toNumberInRange(parameter('geofenceMinMinutes', 0), 0, Infinity)),
			dwellMinutes: events.includes('geofenceDwell') ? check('Dwell (Minutes)', toPositive(parameter('dwellMinutes', DEFAULT_DWELL_MINUTES))) : undefined,
			emitCurrentState: parameter<IDataObject>('options', {}).emitCurrentState === true,
		},
		selection: readSelection(parameter, check),
		readMode: parameter<ReadMode>('readMode', 'latestFix') === 'everyFix' ? 'everyFix' : 'latestFix',
		client: readRequestSettings(context.getNode(), requestSettings),
		maxRequestsPerPoll: maxRequests > 0 ? maxRequests : Infinity,
		maxPollMs: check('Max Poll Time (Seconds)', toNumberInRange(requestSettings.maxPollSeconds ?? DEFAULT_MAX_POLL_SECONDS, 1, MAX_POLL_SECONDS)) * 1000,
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

function readThresholdRules(context: IPollFunctions, parameter: Parameter, check: Checker): ThresholdRule[] {
	const rows = parameter<{ rule?: IDataObject[] }>('thresholdRules', {}).rule ?? [];
	if (rows.length === 0) throw new NodeOperationError(context.getNode(), 'Add at least one threshold rule to watch for telemetry thresholds');
	return rows.map((row, index) => {
		const label = (name: string) => `Rule ${index + 1} ${name}`;
		const tagKey = String(row.tagKey ?? '').trim();
		const rule: ThresholdRule = {
			field: check(label('Field'), toOneOf(row.field, NUMERIC_FIX_FIELDS)),
			direction: check(label('Direction'), toOneOf(row.direction, ['above', 'below'] as const)),
			value: check(label('Value'), toNumberInRange(row.value, -Infinity, Infinity)),
			hysteresis: check(label('Hysteresis'), toNumberInRange(row.hysteresis ?? 0, 0, Infinity)),
		};
		if (tagKey !== '') rule.tag = { key: tagKey, value: String(row.tagValue ?? '').trim() };
		return rule;
	});
}

function readFuelDrop(parameter: Parameter, check: Checker): FuelDropSettings {
	return {
		amount: check('Fuel Drop Amount', toNumberInRange(parameter('fuelDropAmount', DEFAULT_FUEL_DROP_AMOUNT), 0, Infinity)),
		withinMinutes: check('Fuel Drop Within (Minutes)', toPositive(parameter('fuelDropWithinMinutes', DEFAULT_FUEL_DROP_WITHIN_MINUTES))),
		maxSpeed: check('Fuel Drop Max Speed', toNumberInRange(parameter('fuelDropMaxSpeed', DEFAULT_FUEL_DROP_MAX_SPEED), 0, Infinity)),
	};
}

const LINES: Record<string, InputChangeSettings['lines']> = { inputs: ['input'], outputs: ['output'], both: ['input', 'output'] };

function readInputChange(parameter: Parameter, check: Checker): InputChangeSettings {
	return {
		lines: LINES[check('Lines', toOneOf(parameter('inputLines', 'inputs'), ['inputs', 'outputs', 'both'] as const))],
		indexes: check('Inputs', toIndexList(parameter('inputIndexes', ''))),
		direction: check('Input Switches', toOneOf(parameter('inputDirection', 'both'), ['on', 'off', 'both'] as const)),
	};
}

function toPositive(value: unknown): Check<number> {
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	return number.value > 0 ? number : { ok: false, problem: `must be above 0 (got ${number.value})` };
}

function toOneOf<T extends string>(value: unknown, allowed: readonly T[]): Check<T> {
	return (allowed as readonly unknown[]).includes(value)
		? { ok: true, value: value as T }
		: { ok: false, problem: `must be one of ${allowed.join(', ')} (got ${preview(value)})` };
}

/** `SOS, Power cut` (or an expression's array) as trimmed texts, empty ones left out. */
function toTextList(value: unknown): Check<string[]> {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
	if (!parts || parts.some((part) => typeof part !== 'string' && typeof part !== 'number')) {
		return { ok: false, problem: `must be texts separated by commas (got ${preview(value)})` };
	}
	return { ok: true, value: parts.map((part) => String(part).trim()).filter((text) => text !== '') };
}

/** `0, 2` (or an expression's array) as input indexes; empty for all. */
function toIndexList(value: unknown): Check<number[]> {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(',');
	const indexes: number[] = [];
	for (const part of parts) {
		const text = String(part).trim();
		if (text === '') continue;
		const index = Number(text);
		if (!Number.isInteger(index) || index < 0) {
			return { ok: false, problem: `must list input numbers from 0, separated by commas (got ${preview(value)})` };
		}
		indexes.push(index);
	}
	return { ok: true, value: [...new Set(indexes)] };
}
