/**
 * The registries that tie names together: a trigger event without a detector or label, a detector
 * parameter its settings never read, an operation parameter its code never reads, or an operation
 * routed but missing from the UI, must not compile or must fail here. The names are the ones saved workflows store (docs/architecture.md):
 * add, never rename.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, IGetNodeParameterOptions, INodeProperties } from 'n8n-workflow';
import type { AnyOperation } from '../../nodes/SatelliteTracking/actions/operation';
import { resources } from '../../nodes/SatelliteTracking/actions/router';
import type { SettingsReader } from '../../nodes/SatelliteTrackingTrigger/detection/detector';
import { DETECTORS as DETECTOR_ENTRIES, EVENT_KINDS } from '../../nodes/SatelliteTrackingTrigger/detection/detectors';
import { eventsNeeding, readsTelemetry } from '../../nodes/SatelliteTrackingTrigger/detection/needs';
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node';

const OPERATIONS_SAVED_WORKFLOWS_USE: Record<string, string[]> = {
	device: ['get', 'getAll', 'getLastLocation', 'sendCommand', 'getNotificationCounters', 'getLicenseUsage'],
	location: ['getAll', 'submit', 'getTrips', 'getDailySummary', 'exportTrack'],
	alert: ['getAll'],
	group: ['create', 'get', 'getAll', 'replace', 'update', 'delete', 'addDevices', 'removeDevices'],
	user: ['create', 'get', 'getAll', 'replace', 'update', 'delete', 'upsert', 'sync', 'getCountries', 'getTimeZones'],
};

describe('the action node', () => {
	const properties = new SatelliteTracking().description.properties;
	const picker = (resource: string) =>
		properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === resource);

	it.each(Object.entries(OPERATIONS_SAVED_WORKFLOWS_USE))('offers and routes every %s operation saved workflows name', (resource, names) => {
		expect(Object.keys(resources[resource].operations).sort()).toEqual([...names].sort());
		const offered = (picker(resource)?.options ?? []).map((option) => (option as { value: string }).value);
		expect(offered.sort()).toEqual([...names].sort());
	});

	it("shows each operation's parameters for that operation only", () => {
		for (const [resource, { operations }] of Object.entries(resources)) {
			for (const [name, operation] of Object.entries(operations)) {
				const shown = properties.filter(
					(property) => property.displayOptions?.show?.resource?.[0] === resource && property.displayOptions?.show?.operation?.[0] === name,
				);
				expect(shown.map((property) => property.name)).toEqual(operation.properties.map((property) => property.name));
			}
		}
	});
});

/** Values that pass the operations' checks where a declared default (empty, or an expression) would not. */
const VALID: IDataObject = {
	name: 'Ann Lee',
	email: 'ann@example.com',
	country: 'US',
	timeZone: 'UTC',
	from: '2026-01-01T00:00:00Z',
	to: '2026-01-02T00:00:00Z',
	dateTime: '2026-01-01T00:00:00Z',
	day: '2026-01-01',
	latitude: 1,
	longitude: 1,
	command: 'reboot',
};

const parameterValues = (properties: INodeProperties[]): IDataObject =>
	Object.fromEntries(
		properties.map((property) => [
			property.name,
			property.name in VALID ? VALID[property.name] : property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: 'id001' } : property.default,
		]),
	);

/** The values to run with: each parameter valid, then, for each parameter shown only under other values, those. */
const parameterVariants = (properties: INodeProperties[]): IDataObject[] => [
	parameterValues(properties),
	...properties
		.map((property) => property.displayOptions?.show)
		.filter((show) => show !== undefined)
		.map((show) => ({
			...parameterValues(properties),
			...Object.fromEntries(Object.entries(show).map(([name, values]) => [name, (values as IDataObject[])[0]])),
		})),
];

/**
 * The parameters an operation reads when it runs with these values: its code runs against a context
 * that records every getNodeParameter, and a client whose every call answers an empty list, so what
 * is read after the answer counts too. A failure (an empty list refused) ends the run, not the test.
 */
async function parametersRead(operation: AnyOperation, values: IDataObject): Promise<Set<string>> {
	const names = new Set<string>();
	const context = {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown, options?: IGetNodeParameterOptions) => {
			names.add(name.split('.')[0]);
			const value = name.split('.').reduce<unknown>((object, key) => (object as IDataObject | undefined)?.[key], values);
			const locator = value as { __rl?: true; value?: unknown } | undefined;
			return value === undefined ? fallback : options?.extractValue && locator?.__rl ? locator.value : value;
		},
		getNode: () => ({ id: 'node', name: 'Satellite Tracking', type: 'satelliteTracking', typeVersion: 2.1, position: [0, 0], parameters: values }),
		getInputData: () => [{ json: {} }],
		continueOnFail: () => false,
		addExecutionHints: () => undefined,
	} as never;
	const api = new Proxy({}, { get: () => async () => [] }) as never;
	const run = async (part: () => Promise<unknown>) => part().catch(() => undefined);
	if ('planTasks' in operation) {
		await run(() => operation.planTasks.call(context, api));
	} else {
		const batch = operation.prepareBatch ? await run(() => operation.prepareBatch!.call(context, api)) : undefined;
		await run(() => operation.execute.call(context, 0, api, batch));
	}
	return names;
}

describe('the parameters of each operation', () => {
	const all = Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.entries(operations).map(([name, operation]) => [`${resource} → ${name}`, operation] as const),
	);

	it.each(all)('%s reads every parameter it declares, and only those', async (_name, operation) => {
		const declared = [...new Set(operation.properties.filter((property) => property.type !== 'notice').map((property) => property.name))].sort();
		const read = new Set<string>();
		for (const values of parameterVariants(operation.properties)) for (const name of await parametersRead(operation, values)) read.add(name);
		expect([...read].sort()).toEqual(declared);
	});
});

/** The files of a folder whose names match, as loaded modules: a file nobody imports is found too. */
function modulesIn(dir: string, pattern: RegExp): Array<[string, Record<string, unknown>]> {
	return readdirSync(dir)
		.filter((name) => pattern.test(name))
		.map((name) => [name, require(join(dir, name)) as Record<string, unknown>]);
}

const ACTIONS = join(__dirname, '../../nodes/SatelliteTracking/actions');
const DETECTORS = join(__dirname, '../../nodes/SatelliteTrackingTrigger/detection/detectors');

describe('files that are written but never registered', () => {
	it.each(Object.keys(resources))('every operation file of %s is in its resource map', (resource) => {
		const routed = new Set(Object.values(resources[resource].operations).map((operation) => operation.properties));
		const unregistered = modulesIn(join(ACTIONS, resource), /\.operation\.ts$/)
			.filter(([, module]) => !routed.has(module.properties as never))
			.map(([name]) => name);
		expect(unregistered).toEqual([]);
	});

	it('every resource folder is routed', () => {
		const folders = readdirSync(ACTIONS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
		expect(folders.sort()).toEqual(Object.keys(resources).sort());
	});

	it('every detector file is the detector of a registered event', () => {
		const registered = new Set(DETECTOR_ENTRIES.map((entry) => entry.detector));
		const unregistered = modulesIn(DETECTORS, /^(?!index\.)\w+\.ts$/)
			.filter(([, module]) => !Object.values(module).some((exported) => registered.has(exported as never)))
			.map(([name]) => name);
		expect(unregistered).toEqual([]);
	});
});

/**
 * The event names saved workflows store, in the order events of one fix come out (the move, leaving a
 * geofence before entering the next, then what it raised). Written out here, not derived: a renamed or
 * reordered registry line fails, and so does a new event until its name is added here. New events may
 * rank anywhere.
 */
const EVENTS_SAVED_WORKFLOWS_USE = [
	'locationUpdated',
	'geofenceExited',
	'geofenceEntered',
	'criticalAlert',
	'deviceSilent',
	'deviceExpiring',
	'dailyLimitNear',
	'deviceBackOnline',
	'geofenceDwell',
	'inputChanged',
	'valueCrossed',
	'fuelDropped',
	'tripEnded',
	'tripStarted',
	'idling',
	'maintenanceDue',
];

describe('the trigger', () => {
	it('registers every event name saved workflows store, in their rank, each offered in Events', () => {
		expect(EVENT_KINDS.filter((kind) => EVENTS_SAVED_WORKFLOWS_USE.includes(kind))).toEqual(EVENTS_SAVED_WORKFLOWS_USE);
		expect(EVENT_KINDS.filter((kind) => !EVENTS_SAVED_WORKFLOWS_USE.includes(kind))).toEqual([]);
		const events = new SatelliteTrackingTrigger().description.properties.find((property) => property.name === 'events');
		expect((events?.options ?? []).map((option) => (option as { value: string }).value).sort()).toEqual([...EVENT_KINDS].sort());
	});

	/** What a detector's `settings` read, with all its events selected and every check passing through. */
	const readBy = (events: typeof EVENT_KINDS, settings: ((read: SettingsReader) => unknown) | undefined) => {
		const names = new Set<string>();
		const read: SettingsReader = {
			events,
			parameter: <T>(name: string, fallback: T) => {
				names.add(name);
				return fallback;
			},
			check: <T>(_label: string, result: { ok: boolean; value?: T }) => result.value as T,
			// A list left empty is refused; what follows the refusal is read too, to see every name.
			fail: (() => undefined) as unknown as SettingsReader['fail'],
		};
		settings?.(read);
		return [...names].sort();
	};

	it.each(DETECTOR_ENTRIES.map((entry) => [entry.events.join(', '), entry]))(
		"the detector of %s reads every parameter it declares, and only those",
		(_events, { detector, events }) => {
			const declared = [...(detector.properties ?? []), ...(detector.lists ?? [])].map((property) => property.name).sort();
			expect(readBy(events, detector.settings?.bind(detector))).toEqual(declared);
		},
	);

	it('plans the extra data from what the detectors declare', () => {
		expect(eventsNeeding('geofences').sort()).toEqual(['geofenceDwell', 'geofenceEntered', 'geofenceExited']);
		expect(eventsNeeding('alerts')).toEqual(['dailyLimitNear']);
		expect(EVENT_KINDS.filter((kind) => readsTelemetry({ events: [kind] })).sort()).toEqual(['fuelDropped', 'inputChanged', 'maintenanceDue', 'valueCrossed']);
	});

	it('shows the parameters saved workflows name for each event while it is selected', () => {
		const properties = new SatelliteTrackingTrigger().description.properties;
		// The lists a user builds (geofences, rules, limits) have no condition: always shown.
		const shownFor = (name: string) => {
			const property = properties.find((candidate) => candidate.name === name);
			return property && !property.displayOptions ? [...EVENT_KINDS] : (property?.displayOptions?.show?.['/events'] ?? []);
		};
		const parameters: Record<string, string[]> = {
			valueCrossed: ['thresholdRules'],
			fuelDropped: ['fuelDropAmount', 'fuelDropWithinMinutes', 'fuelDropMaxSpeed'],
			inputChanged: ['inputIndexes', 'inputDirection'],
			deviceBackOnline: ['silentAfterMinutes'],
			deviceSilent: ['silentAfterMinutes'],
			geofenceDwell: ['dwellMinutes', 'geofences'],
			tripStarted: ['movingSpeed', 'minStopMinutes', 'minTripDistanceMeters'],
			tripEnded: ['movingSpeed', 'minStopMinutes', 'minTripDistanceMeters'],
			idling: ['movingSpeed', 'idleMinutes'],
			maintenanceDue: ['serviceIntervalKm', 'serviceStartKm'],
		};
		for (const [event, names] of Object.entries(parameters)) for (const name of names) expect({ name, shownFor: shownFor(name) }).toEqual({ name, shownFor: expect.arrayContaining([event]) });
		const rules = properties.find((property) => property.name === 'thresholdRules')?.options as Array<{ name: string; values: Array<{ name: string; default: unknown; options?: Array<{ value: string }> }> }>;
		const rule = rules.find((option) => option.name === 'rule')!.values;
		expect(rule.map((value) => value.name)).toEqual(expect.arrayContaining(['field', 'direction', 'value', 'hysteresis']));
		expect(rule.find((value) => value.name === 'hysteresis')?.default).toBe(0);
		expect(rule.find((value) => value.name === 'direction')?.options?.map((option) => option.value)).toEqual(['above', 'below']);
		const fields = rule.find((value) => value.name === 'field')?.options?.map((option) => option.value);
		expect(fields).toEqual(['speed', 'battery', 'fuel', 'fuel2', 'temperature', 'temperature2', 'rpm', 'milleage', 'inactiveSeconds']);
		const direction = properties.find((property) => property.name === 'inputDirection')?.options?.map((option) => (option as { value: string }).value);
		expect(direction?.sort()).toEqual(['both', 'off', 'on']);
	});

	it('refuses, at compile time, an event name that is not registered', () => {
		// @ts-expect-error the kinds are the registry's keys: a name without a line there does not compile
		const unknown: (typeof EVENT_KINDS)[number] = 'notAnEvent';
		expect(EVENT_KINDS).not.toContain(unknown);
	});
});
