import type { INodeProperties } from 'n8n-workflow';

import { resources } from '../../nodes/SatelliteTracking/actions/router';
import { byId, useSandbox } from '../support/sandboxed';

/**
 * No write is ever pre-filled with live values: a user who opens an operation, picks a mode and
 * clicks Execute step without typing must not change anything on the account. Issue 24: Group →
 * Update "As JSON Patch (Expert)" came with `[{"op":"replace","path":"/name","value":"New name"}]`
 * and renamed the group.
 */

/** Every property a user can reach: top level, inside collections and fixed collections. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('type' in option) return allProperties([option as INodeProperties]);
			if ('values' in option) return allProperties((option as { values: INodeProperties[] }).values);
			return [];
		});
		return [property, ...nested];
	});
}

/** A default the user did not type that would go out as data. */
function liveDefault(property: INodeProperties): unknown {
	const value = property.default;
	switch (property.type) {
		case 'string':
		case 'json': {
			const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
			// An expression is evaluated per run (the read ranges' "last 24 hours"), and "[]" is nothing.
			return text === '' || text === '[]' || text === '{}' || text.startsWith('=') ? undefined : value;
		}
		case 'resourceLocator':
			return (value as { value?: unknown })?.value === '' ? undefined : value;
		default:
			// Numbers, booleans, options and collections show their value; the run below proves none of them writes on its own.
			return undefined;
	}
}

// Settings, not data taken from the account: the zone whose midnight starts a counted day; Sync's
// scope tag and leaver message, whose defaults ../shared/node-interface.md fixes and which Sync's
// default mode (preview) never sends; the output field Export Track puts its file in (n8n's own `data`),
// a read's output, never sent.
const NOT_DATA = new Set([
	'location:exportTrack:binaryPropertyName',
	'device:getNotificationCounters:timeZone',
	'location:getDailySummary:timeZone',
	'user:sync:scopeTagKey',
	'user:sync:scopeTagValue',
	'user:sync:disabledMessage',
]);

const TARGET: Record<string, string> = { deviceId: 'device001', groupId: 'grp-1', userId: 'usr-1' };

const operations = Object.entries(resources).flatMap(([resource, { operations: map }]) =>
	Object.entries(map).map(([operation, module]) => ({ resource, operation, properties: module.properties })),
);

describe('write defaults', () => {
	const ctx = useSandbox();

	it.each(operations)('$resource → $operation: no text or JSON default carries data', ({ resource, operation, properties }) => {
		const live = allProperties(properties)
			.filter((property) => !NOT_DATA.has(`${resource}:${operation}:${property.name}`))
			.map((property) => [property.name, liveDefault(property)])
			.filter(([, value]) => value !== undefined);
		expect(live).toEqual([]);
	});

	// Each mode a user can pick without typing (Define Changes, a Format…), with only the target chosen.
	const runs = operations
		// Delete's only input is its target: choosing it is the user's whole intent.
		.filter(({ operation }) => operation !== 'delete')
		.flatMap(({ resource, operation, properties }) => {
			const modes = properties.filter((property) => property.type === 'options' && property.noDataExpression);
			const choices = modes.flatMap((mode) => (mode.options ?? []).map((option) => ({ [mode.name]: (option as { value: string }).value })));
			return (choices.length === 0 ? [{}] : choices).map((choice) => ({ resource, operation, choice }));
		});

	it.each(runs.flatMap((run) => [2, 2.1].map((typeVersion) => ({ ...run, typeVersion }))))(
		'$resource → $operation $choice (version $typeVersion) with nothing typed sends no write',
		async ({ resource, operation, choice, typeVersion }) => {
			ctx.sandbox.resetStats();
			const targets = Object.fromEntries(Object.entries(TARGET).map(([name, id]) => [name, byId(id)]));
			await ctx.engine
				// The version n8n adds today (2.1), and 2, which saved workflows carry.
				.runNode({ resource, operation, ...targets, ...choice }, { typeVersion })
				// n8n itself refuses to run a node whose required parameters are empty: no write either.
				.catch((error: Error) => expect(error.message).toMatch(/The workflow has issues/));
			expect(ctx.sandbox.writes).toEqual([]);
		},
	);
});

/**
 * Location → Submit's coordinates are numbers whose defaults are 0: a user who chose the device and
 * the time and left them untouched stored a fix at (0, 0) on the account, the Gulf of Guinea, which
 * the trips and the trigger themselves take for a tracker without a lock (issue 24). Version 2.1
 * refuses it before sending; saved workflows of versions 1 and 2 send what they sent.
 */
describe('Location → Submit with the coordinates untouched', () => {
	const ctx = useSandbox();
	const submit = { resource: 'location', operation: 'submit', deviceId: byId('device001'), dateTime: '2026-11-25T10:00:00Z' };

	it('sends nothing and says the coordinates are still their defaults', async () => {
		ctx.sandbox.resetStats();
		const { error } = await ctx.engine.runNode(submit, { typeVersion: 2.1 });
		expect(error?.message).toBe(
			`Invalid "Latitude" in item 0: Latitude is 0 and so is Longitude, their defaults (and what a tracker without a GPS lock sends): enter the fix's coordinates`,
		);
		expect(ctx.sandbox.writes).toEqual([]);
	});

	it('still stores a fix on the equator or the prime meridian', async () => {
		ctx.sandbox.resetStats();
		const { error } = await ctx.engine.runNode({ ...submit, latitude: 0, longitude: 9.5 }, { typeVersion: 2.1 });
		expect(error).toBeUndefined();
		expect(ctx.sandbox.writes.map((write) => write.stored)).toEqual([expect.objectContaining({ latitude: 0, longitude: 9.5 })]);
	});

	it.each([1, 2])('version %s sends it as saved', async (typeVersion) => {
		ctx.sandbox.resetStats();
		const { error } = await ctx.engine.runNode(submit, { typeVersion });
		expect(error).toBeUndefined();
		expect(ctx.sandbox.writes.map((write) => write.stored)).toEqual([expect.objectContaining({ latitude: 0, longitude: 0 })]);
	});
});
