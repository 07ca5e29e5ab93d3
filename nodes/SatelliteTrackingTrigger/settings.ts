/**
 * The trigger's parameters, read once per poll and checked, as plain settings for the pure code.
 * What every event shares is read here; each detector reads its own (`Detector.settings`) through
 * the same checked reader, so nothing here names an event's parameters or defaults.
 */
import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { readRequestSettings } from '../shared/requestSettings';
import { circleGeofence, geoJsonGeofence, pointsGeofence, type Geofence } from '../shared/geo/geofence';
import type { ClientOptions } from '../shared/transport';
import type { SettingsReader } from './detection/detector';
import { EVENT_KINDS } from './detection/detectors';
import { eventsNeeding, selectedDetectors } from './detection/needs';
import type { ReadMode } from './detection/plan';
import type { PrioritySettings, ReadPriority } from './detection/priority';
import type { DeviceSelection } from './detection/selection';
import type { DetectionSettings, EventKind } from './detection/types';
import { toNonEmptyText, toNumberInRange, toResourceId, toTextList, type Check } from '../shared/validation';

export interface TriggerSettings {
	detection: DetectionSettings;
	selection: DeviceSelection;
	readMode: ReadMode;
	client: ClientOptions;
	/** Infinity when there is no cap. */
	maxRequestsPerPoll: number;
	/** The poll's time budget for reading devices, in ms. */
	maxPollMs: number;
	/** What set it, as messages name it: Max Poll Time, or the host's shorter poll budget. */
	maxPollName: string;
	priority: PrioritySettings;
}

/** Well inside n8n's durable scheduler's poll timeout (45 s by default), with room for the listing and the output. */
export const DEFAULT_MAX_POLL_SECONDS = 30;
/** A poll is meant to end within n8n's poll timeout; past an hour the budget would also overflow timers at 24.8 days, ending every poll at once. */
export const MAX_POLL_SECONDS = 3600;
/** activeFirst: a parked device's turn comes at least this often (bench P10 measured the trade-off). */
export const DEFAULT_MAX_STALE_MINUTES = 14;
/** A week: the longest a device's state is kept after the listing leaves it out is of the same order. */
export const MAX_STALE_MINUTES = 10_080;

export function readSettings(context: IPollFunctions): TriggerSettings {
	const parameter = <T>(name: string, fallback: T) => context.getNodeParameter(name, fallback) as T;
	const check = <T>(label: string, result: Check<T>): T => {
		if (!result.ok) throw new NodeOperationError(context.getNode(), `Invalid "${label}": ${label} ${result.problem}`);
		return result.value;
	};
	const fail = (message: string): never => {
		throw new NodeOperationError(context.getNode(), message);
	};
	// An expression may give one name or a comma-separated text rather than a list.
	const names = check('Events', toTextList(parameter<unknown>('events', [])));
	const events = names.filter((kind): kind is EventKind => (EVENT_KINDS as string[]).includes(kind));
	if (events.length === 0) {
		fail(`Choose at least one event to watch for${names.length > 0 ? ` (not an event: ${names.map((name) => JSON.stringify(name)).join(', ')})` : ''}`);
	}
	// Only the selected events' settings are read: the editor keeps an unselected event's values, shown
	// "(Only for …)", and one left half-edited there must not fail the events that are selected.
	const watchesGeofences = events.some((kind) => eventsNeeding('geofences').includes(kind));
	const geofences = watchesGeofences ? readGeofences(parameter('geofences', {}), check) : [];
	if (geofences.length === 0 && watchesGeofences) {
		fail('Add at least one geofence to watch for geofence events');
	}
	const requestSettings = parameter<IDataObject>('requestSettings', {});
	const maxRequests = check('Max Requests per Poll', toNumberInRange(requestSettings.maxRequestsPerPoll ?? 0, 0, Infinity));
	const read: SettingsReader = { events, parameter, check, fail };
	const own = selectedDetectors(events).map((detector) => detector.settings?.(read));
	return {
		detection: Object.assign(
			{ events, geofences, emitCurrentState: parameter<IDataObject>('options', {}).emitCurrentState === true },
			...own,
		) as DetectionSettings,
		selection: readSelection(parameter, check),
		readMode: parameter<ReadMode>('readMode', 'latestFix') === 'everyFix' ? 'everyFix' : 'latestFix',
		client: readRequestSettings(context.getNode(), requestSettings),
		maxRequestsPerPoll: maxRequests > 0 ? maxRequests : Infinity,
		...pollTime(check('Max Poll Time (Seconds)', toNumberInRange(requestSettings.maxPollSeconds ?? DEFAULT_MAX_POLL_SECONDS, 1, MAX_POLL_SECONDS)) * 1000, context),
		priority: {
			readPriority: check('Read Priority', toReadPriority(requestSettings.readPriority ?? defaultReadPriority(context.getNode().typeVersion))),
			maxStaleMs: check('Max Stale Minutes', toNumberInRange(requestSettings.maxStaleMinutes ?? DEFAULT_MAX_STALE_MINUTES, 1, MAX_STALE_MINUTES)) * 60_000,
		},
	};
}

function pollTime(maxPollMs: number, context: IPollFunctions): Pick<TriggerSettings, 'maxPollMs' | 'maxPollName'> {
	const within = withinHostBudget(maxPollMs, hostPollBudgetMs(context));
	return { maxPollMs: within, maxPollName: within < maxPollMs ? "n8n's poll budget" : 'Max Poll Time' };
}

/** What a poll does after its reads (detection, the state, the items) needs this much of the host's budget. */
const AFTER_READS_MS = 1000;

/**
 * The poll budget the host gives, if it does: n8n-workflow 2.38+ under the durable scheduler
 * (already less n8n's own margin). Older hosts and their typings lack `getPollBudgetMs`.
 */
function hostPollBudgetMs(context: IPollFunctions): number | undefined {
	const host = context as { getPollBudgetMs?: unknown };
	if (typeof host.getPollBudgetMs !== 'function') return undefined;
	const budget: unknown = host.getPollBudgetMs.call(context);
	return typeof budget === 'number' && Number.isFinite(budget) && budget > 0 ? budget : undefined;
}

/** Max Poll Time, never past the host's budget less the time the poll needs after its reads. */
export function withinHostBudget(maxPollMs: number, hostBudgetMs: number | undefined): number {
	if (hostBudgetMs === undefined) return maxPollMs;
	return Math.min(maxPollMs, Math.max(hostBudgetMs / 2, hostBudgetMs - AFTER_READS_MS));
}

/** Saved workflows of versions 1 and 2 keep the round robin they were built with. */
function defaultReadPriority(typeVersion: number): ReadPriority {
	return typeVersion < 3 ? 'rotate' : 'activeFirst';
}

function toReadPriority(value: unknown): Check<ReadPriority> {
	if (value === 'rotate' || value === 'activeFirst') return { ok: true, value };
	return { ok: false, problem: `must be "rotate" or "activeFirst" (got ${JSON.stringify(value)})` };
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
