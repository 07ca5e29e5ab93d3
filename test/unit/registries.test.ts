// @host-zones: matrix
/**
 * The registries that tie names together: a trigger event without a detector, label or rank, or an
 * operation routed but missing from the UI, must not compile or must fail here. The names are the
 * ones saved workflows store (docs/architecture.md): add, never rename.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resources } from '../../nodes/SatelliteTracking/actions/router';
import { EVENTS, type EventDefinition } from '../../nodes/SatelliteTrackingTrigger/detection/detectors';
import { EVENT_KINDS, type EventKind } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node';

const OPERATIONS_SAVED_WORKFLOWS_USE: Record<string, string[]> = {
	device: ['get', 'getAll', 'getLastLocation', 'sendCommand', 'getNotificationCounters', 'getLicenseUsage'],
	location: ['getAll', 'submit', 'getTrips', 'getDailySummary'],
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
		const registered = new Set(Object.values(EVENTS).map((definition) => definition.detector));
		const unregistered = modulesIn(DETECTORS, /^(?!index\.)\w+\.ts$/)
			.filter(([, module]) => !Object.values(module).some((exported) => registered.has(exported as never)))
			.map(([name]) => name);
		expect(unregistered).toEqual([]);
	});
});

describe('the trigger', () => {
	it('has one registry entry per event kind, each offered in Events', () => {
		expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_KINDS].sort());
		const events = new SatelliteTrackingTrigger().description.properties.find((property) => property.name === 'events');
		expect((events?.options ?? []).map((option) => (option as { value: string }).value).sort()).toEqual([...EVENT_KINDS].sort());
	});

	it('ranks the events of one fix without ties', () => {
		const ranks = Object.values(EVENTS).map((definition) => definition.order);
		expect(new Set(ranks).size).toBe(ranks.length);
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

	it('refuses, at compile time, a registry that misses an event', () => {
		const { dailyLimitNear: _left, ...withoutOne } = EVENTS;
		// @ts-expect-error a registry without dailyLimitNear is not a Record<EventKind, EventDefinition>
		const incomplete: Record<EventKind, EventDefinition> = withoutOne;
		expect(Object.keys(incomplete)).not.toContain('dailyLimitNear');
	});
});
