/**
 * Malformed answers: a 200 that is not JSON, a JSON list where an object belongs, success:false
 * with 200, an answer without its payload, a huge body. For every payload shape (keyed object,
 * list, nullable object, map, text, flat group or user) each gives one clear error item — never a
 * crash, never a silent empty or made-up result — and no write is sent twice.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { FaultKind } from '../../sandbox/server';
import { byId } from '../support/sandboxed';
import { areaWallClock, useWatchedSandbox, isReadableError, secretWatch, sized, summary } from './support';

const HUGE_BYTES = sized(4, 20) * 1024 * 1024;
const FROM = '2020-01-01T00:00:00Z';

interface Target {
	label: string;
	parameters: INodeParameters;
	path: RegExp;
	/** The payload key a missing payload is reported by; flat answers have none. */
	key?: string;
	write?: boolean;
}

const TARGETS: Target[] = [
	{ label: 'device get', parameters: { resource: 'device', operation: 'get', deviceId: byId('device001') }, path: /^\/api\/devices\/device001$/, key: 'device' },
	{ label: 'device getAll', parameters: { resource: 'device', operation: 'getAll', returnAll: true }, path: /^\/api\/devices$/, key: 'devices' },
	{
		label: 'device getLastLocation',
		parameters: { resource: 'device', operation: 'getLastLocation', deviceId: byId('device001') },
		path: /lastLocation$/,
		key: 'lastLocation',
	},
	{
		label: 'device sendCommand',
		parameters: { resource: 'device', operation: 'sendCommand', deviceId: byId('device001'), command: 'PING' },
		path: /sendCommand$/,
		key: 'result',
		write: true,
	},
	{
		label: 'location getAll',
		parameters: { resource: 'location', operation: 'getAll', deviceId: byId('device001'), from: FROM, to: '={{ $now.toISO() }}', returnAll: true },
		path: /\/locations$/,
		key: 'locations',
	},
	{
		label: 'alert getAll',
		parameters: { resource: 'alert', operation: 'getAll', deviceId: byId('device001'), from: FROM, to: '={{ $now.toISO() }}', returnAll: true },
		path: /\/alerts$/,
		key: 'alerts',
	},
	{ label: 'group get', parameters: { resource: 'group', operation: 'get', groupId: byId('grp-1') }, path: /^\/api\/groups\/grp-1$/ },
	{ label: 'group getAll', parameters: { resource: 'group', operation: 'getAll', returnAll: true }, path: /^\/api\/groups$/, key: 'groups' },
	{ label: 'group create', parameters: { resource: 'group', operation: 'create', name: 'Malformed' }, path: /^\/api\/groups$/, write: true },
	{ label: 'user get', parameters: { resource: 'user', operation: 'get', userId: byId('usr-1') }, path: /^\/api\/users\/usr-1$/ },
	{ label: 'user getCountries', parameters: { resource: 'user', operation: 'getCountries' }, path: /countries$/, key: 'countries' },
	{ label: 'user getTimeZones', parameters: { resource: 'user', operation: 'getTimeZones' }, path: /timeZones$/, key: 'timeZones' },
];

const NOT_AN_OBJECT = 'The tracking API answered something other than a JSON object where an object was expected';

function expectedError(kind: FaultKind, target: Target): string | RegExp {
	switch (kind) {
		case 'nonJson200':
			return NOT_AN_OBJECT;
		case 'arrayBody':
			return 'The tracking API answered a list where an object was expected';
		case 'successFalse200':
			return 'Account suspended for this operation.';
		default:
			return target.key ? `The tracking API answer has no "${target.key}"` : /^The tracking API answered success without the (group|user) \(no "id" in the answer\)$/;
	}
}

const KINDS: FaultKind[] = ['nonJson200', 'arrayBody', 'successFalse200', 'missingPayload', 'hugeBody'];

export function describeMalformed(): void {
	const cases = TARGETS.flatMap((target) => KINDS.map((kind) => ({ target, kind })));

	describe(`Malformed answers: ${cases.length} cases over every payload shape`, () => {
		const ctx = useWatchedSandbox();
		const wall = areaWallClock();
		let passed = 0;
		let silent = 0;
		let doubleWrites = 0;

		afterAll(() => {
			summary(
				`Malformed answers: cases=${cases.length} passed=${passed} silent-results=${silent} writes-sent-twice=${doubleWrites} ` +
					`huge-body=${HUGE_BYTES / 1024 / 1024} MiB wall=${wall()} s`,
			);
		});

		it.each(cases.map((entry) => [`${entry.target.label}: ${entry.kind}`, entry]))('%s gives one clear error item', async (_, entry) => {
			const { target, kind } = entry;
			ctx.sandbox.faults.inject({
				match: { method: target.write ? 'POST' : undefined, path: target.path },
				kind,
				message: 'Account suspended for this operation.',
				sizeBytes: HUGE_BYTES,
			});
			const result = await ctx.engine.runNode({ ...target.parameters, requestSettings: { maxRetries: 2 } }, { continueOnFail: true });
			secretWatch.scanRun(`malformed ${target.label} ${kind}`, result);

			if (result.items.length !== 1 || result.items[0].json.error === undefined) silent++;
			const sent = ctx.sandbox.requestLog.filter((request) => request.route !== 'POST /api/Auth/Token' && target.path.test(request.path));
			if (target.write && sent.length > 1) doubleWrites++;

			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			const message = result.items[0].json.error;
			const expected = expectedError(kind, target);
			if (typeof expected === 'string') expect(message).toBe(expected);
			else expect(message).toMatch(expected);
			expect(isReadableError(message)).toBe(true);
			// An answer that came is not a lost connection: it is not sent again, whatever the method.
			expect(sent).toHaveLength(1);
			if (target.write) expect(ctx.sandbox.writes.length).toBeLessThanOrEqual(1);
			passed++;
		});
	});
}
