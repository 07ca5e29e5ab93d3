/**
 * R1: big runs through read and write operations while the sandbox injects every fault it knows,
 * the token is revoked twice mid-run and the token call itself fails once. Ground truth is the
 * sandbox's record of what it applied, matched to each input item by a marker only that item sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { AppliedWrite, Fault, FaultSpec, Sandbox } from '../../sandbox/server';
import type { Engine, NodeRunResult } from '../support/engine';
import { fromItem, useSandbox } from '../support/sandboxed';
import { areaWallClock, isReadableError, secretWatch, sized, summary } from './support';

const ITEMS = sized(400, 10_000);
// Room for a starved machine: with 1 s, a CI run under a load of 14 on 2 cores saw the run's first
// token exchange outlast the Timeout, and every item of "device get" ended in a timeout. A slow
// answer still outlasts it.
const TIMEOUT_SECONDS = 3;
const SLOW_MS = 4_000;
const PASSWORD_PREFIX = 'R1-secret-pass-';

interface FaultRun {
	name: string;
	parameters: INodeParameters;
	items: IDataObject[];
	/** The route the faults strike: this run's endpoint only. */
	match: NonNullable<FaultSpec['match']>;
	/** Writes: the marker an applied write carries, and the one each item sent. */
	write?: { kind: AppliedWrite['kind']; resource: AppliedWrite['resource']; marker: (write: AppliedWrite) => string; itemMarker: (item: IDataObject) => string };
	/** A success item belongs to its input item (no answers swapped between items). */
	belongs: (output: IDataObject, input: IDataObject) => boolean;
}

interface Figures {
	runs: number;
	items: number;
	outputs: number;
	lost: number;
	duplicatedWrites: number;
	unreadable: number;
	errors: number;
	appliedAfterLostAnswer: number;
	faults: number;
	tokenRenewals: number;
	wall: number;
}

const perRun: string[] = [];

/** What the error items said, by kind: `500`, `502 html`, `reset`, `timeout`. */
const errorKinds = new Map<string, number>();

function errorKind(message: string): string {
	if (/reset/.test(message)) return 'reset';
	if (/timeout/.test(message)) return 'timeout';
	const status = /answered (\d{3})/.exec(message)?.[1] ?? 'other';
	return /HTML/.test(message) ? `${status}-html` : status;
}

const figures: Figures = {
	runs: 0,
	items: 0,
	outputs: 0,
	lost: 0,
	duplicatedWrites: 0,
	unreadable: 0,
	errors: 0,
	appliedAfterLostAnswer: 0,
	faults: 0,
	tokenRenewals: 0,
	wall: 0,
};

/** How many times each fault strikes per run, interleaved so that every kind is spread over the run. */
function faultMix(match: FaultRun['match']): FaultSpec[] {
	const kinds: Array<[FaultSpec, number]> = [
		[{ match, kind: 'status', status: 429, retryAfter: 0 }, sized(2, 60)],
		[{ match, kind: 'status', status: 429, retryAfter: 1 }, sized(1, 4)],
		[{ match, kind: 'status', status: 429 }, sized(1, 15)],
		[{ match, kind: 'status', status: 503 }, sized(1, 15)],
		[{ match, kind: 'status', status: 500, message: 'Internal failure while processing.' }, sized(3, 40)],
		[{ match, kind: 'status', status: 500, afterApply: true }, sized(2, 25)],
		[{ match, kind: 'reset' }, sized(3, 40)],
		[{ match, kind: 'reset', afterApply: true }, sized(3, 40)],
		[{ match, kind: 'html', status: 502 }, sized(3, 40)],
		[{ match, kind: 'slow', delayMs: SLOW_MS }, sized(1, 12)],
	];
	const rounds = Math.max(...kinds.map(([, times]) => times));
	const mix: FaultSpec[] = [];
	for (let round = 0; round < rounds; round++) {
		for (const [spec, times] of kinds) if (round < times) mix.push({ ...spec, times: 1 });
	}
	return mix;
}

/** A slow answer's write lands after the node gave up on it: wait until every slow answer went out. */
async function slowAnswersDelivered(sandbox: Sandbox): Promise<void> {
	while (sandbox.requestLog.some((entry) => entry.fault === 'slow' && entry.status === 0)) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/**
 * Injects each fault (to strike the next matching request) as the run reaches evenly spaced points
 * of its expected requests, and revokes every token at a third and two thirds: a fixed number of
 * each fault per run, spread so that no item meets them all in a row.
 */
function scheduleFaults(sandbox: Sandbox, mix: FaultSpec[], expectedRequests: number) {
	const start = sandbox.stats.requests;
	const at = (share: number) => Math.floor(share * expectedRequests);
	const injected: Fault[] = [];
	const steps: Array<{ at: number; act: () => void }> = [
		...mix.map((spec, index) => ({ at: at(0.05 + (0.85 * index) / mix.length), act: () => void injected.push(sandbox.faults.inject(spec)) })),
		{ at: at(1 / 3), act: () => sandbox.revokeTokens() },
		{ at: at(2 / 3), act: () => sandbox.revokeTokens() },
	].sort((a, b) => a.at - b.at);
	let next = 0;
	const timer = setInterval(() => {
		while (next < steps.length && sandbox.stats.requests - start >= steps[next].at) steps[next++].act();
	}, 5);
	return {
		injected,
		stop: () => {
			clearInterval(timer);
			return next;
		},
	};
}

async function runUnderFaults(engine: Engine, sandbox: Sandbox, run: FaultRun): Promise<void> {
	sandbox.faults.clear();
	sandbox.resetStats();
	const mix = faultMix(run.match);
	// The token call fails once too: the node's first token request of the run, or a renewal.
	const tokenFault = sandbox.faults.inject({ match: { path: '/api/Auth/Token' }, kind: 'status', status: 503, times: 1 });
	const tokenCallsBefore = sandbox.stats.tokenCalls;
	const schedule = scheduleFaults(sandbox, mix, run.items.length);
	const start = Date.now();
	let result: NodeRunResult;
	try {
		result = await engine.runNode(
			{ ...run.parameters, requestSettings: { maxConcurrency: 8, timeoutSeconds: TIMEOUT_SECONDS } },
			{ items: run.items, continueOnFail: true },
		);
	} finally {
		schedule.stop();
	}
	const { injected } = schedule;
	const wall = Date.now() - start;
	await slowAnswersDelivered(sandbox);
	sandbox.faults.clear();
	secretWatch.scanRun(`R1 ${run.name}`, result);

	expect(result.error).toBeUndefined();
	const outputs = result.items;
	const pairedIndexes = outputs.map((item) => (item.pairedItem as { item: number }).item);
	const lost = run.items.length - new Set(pairedIndexes).size;
	const errorItems = outputs.filter((item) => item.json.error !== undefined);
	for (const item of errorItems) errorKinds.set(errorKind(String(item.json.error)), (errorKinds.get(errorKind(String(item.json.error))) ?? 0) + 1);
	const unreadable = errorItems.filter((item) => !isReadableError(item.json.error)).map((item) => String(item.json.error));
	const swapped = outputs.filter(
		(item, index) => item.json.error === undefined && !run.belongs(item.json, run.items[pairedIndexes[index]]),
	);

	let duplicated = 0;
	let appliedAfterLostAnswer = 0;
	const missingWrites: number[] = [];
	if (run.write) {
		const { kind, resource, marker, itemMarker } = run.write;
		const sentMarkers = new Set(run.items.map(itemMarker));
		const applied = new Map<string, number>();
		// Of this run's resource only: on a loaded machine a request the run before gave up on may
		// still land now (another resource: each write run creates its own).
		for (const write of sandbox.writes.filter((entry) => entry.kind === kind && entry.resource === resource)) {
			applied.set(marker(write), (applied.get(marker(write)) ?? 0) + 1);
		}
		outputs.forEach((item, index) => {
			const count = applied.get(itemMarker(run.items[pairedIndexes[index]])) ?? 0;
			if (count > 1) duplicated++;
			if (item.json.error === undefined && count !== 1) missingWrites.push(pairedIndexes[index]);
			if (item.json.error !== undefined && count === 1) appliedAfterLostAnswer++;
		});
		// Nothing applied that no item sent.
		expect([...applied.keys()].filter((key) => !sentMarkers.has(key))).toEqual([]);
	} else {
		expect(sandbox.writes).toEqual([]);
	}

	const faults = injected.reduce((sum, fault) => sum + fault.applied, tokenFault.applied);
	Object.assign(figures, {
		runs: figures.runs + 1,
		items: figures.items + run.items.length,
		outputs: figures.outputs + outputs.length,
		lost: figures.lost + lost,
		duplicatedWrites: figures.duplicatedWrites + duplicated,
		unreadable: figures.unreadable + unreadable.length,
		errors: figures.errors + errorItems.length,
		appliedAfterLostAnswer: figures.appliedAfterLostAnswer + appliedAfterLostAnswer,
		faults: figures.faults + faults,
		tokenRenewals: figures.tokenRenewals + sandbox.stats.tokenCalls - tokenCallsBefore,
		wall: figures.wall + wall,
	});
	perRun.push(`${run.name}: ${outputs.length - errorItems.length} ok, ${errorItems.length} errors, ${faults} faults, ${(wall / 1000).toFixed(1)} s`);

	expect(outputs).toHaveLength(run.items.length);
	expect(pairedIndexes).toEqual(run.items.map((_, index) => index));
	expect(unreadable).toEqual([]);
	expect(swapped).toEqual([]);
	expect(duplicated).toBe(0);
	expect(missingWrites).toEqual([]);
	// Every fault struck once, and the revoked tokens were replaced without failing items.
	expect(injected).toHaveLength(mix.length);
	expect(injected.filter((fault) => fault.applied !== 1).map((fault) => `${fault.kind} ${fault.status ?? ''}`)).toEqual([]);
	expect(tokenFault.applied).toBe(1);
	expect(sandbox.stats.statusCounts['401']).toBeGreaterThan(0);
	expect(errorItems.filter((item) => item.json.httpCode === '401')).toEqual([]);
	// Reads are retried through every transient fault; only writes whose fate is unknown fail.
	if (!run.write) expect(errorItems.map((item) => item.json.error)).toEqual([]);
}

export function describeFaults(): void {
	describe(`R1 faults: ${ITEMS} items per run through read and write operations`, () => {
		const ctx = useSandbox();
		const wall = areaWallClock();

		beforeAll(() => {
			secretWatch.watchSandbox(ctx.sandbox);
			// Every password the user run writes starts so; none may show anywhere.
			secretWatch.addSecret(PASSWORD_PREFIX);
		});

		afterAll(() => {
			summary(
				`R1 faults: runs=${figures.runs} items=${figures.items} outputs=${figures.outputs} lost=${figures.lost} ` +
					`duplicated-writes=${figures.duplicatedWrites} unreadable-errors=${figures.unreadable} error-items=${figures.errors} ` +
					`(${[...errorKinds].map(([kind, count]) => `${kind}:${count}`).join(' ')}) ` +
					`writes-applied-with-lost-answer=${figures.appliedAfterLostAnswer} faults-injected=${figures.faults} ` +
					`token-calls=${figures.tokenRenewals} wall=${wall()} s (${perRun.join('; ')})`,
			);
		});

		const reportingDevices = () => {
			const { store } = ctx.sandbox;
			return store
				.listDevices()
				.map((device) => device.id)
				.filter((id) => (store.locations(id) ?? []).length > 0);
		};
		const cycle = <T>(list: T[], index: number) => list[index % list.length];
		const deadline = sized(60_000, 900_000);

		it(
			'device get (GET): every item answered, each with its own device',
			async () => {
				const ids = ctx.sandbox.store.listDevices().map((device) => device.id);
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'device get',
					parameters: { resource: 'device', operation: 'get', deviceId: fromItem('id') },
					items: Array.from({ length: ITEMS }, (_, index) => ({ id: cycle(ids, index) })),
					match: { method: 'GET', path: /^\/api\/devices\/[^/]+$/ },
					belongs: (output, input) => output.id === input.id,
				});
			},
			deadline,
		);

		it(
			'location getAll (POST read): every item answered, each with its own device',
			async () => {
				// Each item asks for the last ten minutes of its device's track: one fix or more.
				const items = reportingDevices().map((id) => {
					const newest = Date.parse(ctx.sandbox.store.lastLocation(id)!.dateTime);
					return { id, from: new Date(newest - 10 * 60_000).toISOString(), to: new Date(newest).toISOString() };
				});
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'location getAll',
					parameters: {
						resource: 'location',
						operation: 'getAll',
						deviceId: fromItem('id'),
						from: '={{ $json.from }}',
						to: '={{ $json.to }}',
						limit: 1,
					},
					items: Array.from({ length: ITEMS }, (_, index) => cycle(items, index)),
					match: { method: 'POST', path: /\/locations$/ },
					belongs: (output, input) => output.deviceId === input.id && typeof output.dateTime === 'string',
				});
			},
			deadline,
		);

		it(
			'device sendCommand (write): no command applied twice, none applied without its item knowing',
			async () => {
				const ids = ctx.sandbox.store.listDevices().map((device) => device.id);
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'sendCommand',
					parameters: { resource: 'device', operation: 'sendCommand', deviceId: fromItem('id'), command: '={{ $json.command }}' },
					items: Array.from({ length: ITEMS }, (_, index) => ({ id: cycle(ids, index), command: `R1 PING ${index}` })),
					match: { method: 'POST', path: /\/sendCommand$/ },
					write: {
						kind: 'sendCommand',
						resource: 'command',
						marker: (write) => String((write.body as IDataObject).command),
						itemMarker: (item) => String(item.command),
					},
					belongs: (output, input) => output.command === input.command && output.deviceId === input.id,
				});
			},
			deadline,
		);

		it(
			'user create (write): no user created twice',
			async () => {
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'user create',
					parameters: {
						resource: 'user',
						operation: 'create',
						name: '={{ $json.name }}',
						email: '={{ $json.email }}',
						country: 'US',
						timeZone: 'Europe/London',
						// From an expression, not the input items: the Items node's output would show it.
						additionalFields: { password: `={{ '${PASSWORD_PREFIX}' + $itemIndex }}` },
					},
					items: Array.from({ length: ITEMS }, (_, index) => ({
						name: `R1 User ${index}`,
						email: `r1-user-${index}@reliability.test`,
					})),
					match: { method: 'POST', path: '/api/users' },
					write: {
						kind: 'create',
						resource: 'user',
						marker: (write) => String((write.body as IDataObject).email),
						itemMarker: (item) => String(item.email),
					},
					belongs: (output, input) => output.email === input.email && output.password === undefined,
				});
			},
			deadline,
		);

		it(
			'group create (write): no group created twice',
			async () => {
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'group create',
					parameters: { resource: 'group', operation: 'create', name: '={{ $json.name }}' },
					items: Array.from({ length: ITEMS }, (_, index) => ({ name: `R1 Group ${index}` })),
					match: { method: 'POST', path: '/api/groups' },
					write: {
						kind: 'create',
						resource: 'group',
						marker: (write) => String((write.body as IDataObject).name),
						itemMarker: (item) => String(item.name),
					},
					belongs: (output, input) => output.name === input.name,
				});
			},
			deadline,
		);

		it(
			'location submit (write): no fix stored twice',
			async () => {
				const ids = reportingDevices();
				const base = Date.parse('2020-01-01T00:00:00Z');
				await runUnderFaults(ctx.engine, ctx.sandbox, {
					name: 'location submit',
					parameters: {
						resource: 'location',
						operation: 'submit',
						deviceId: fromItem('id'),
						latitude: '={{ $json.latitude }}',
						longitude: '={{ $json.longitude }}',
						dateTime: '={{ $json.dateTime }}',
					},
					items: Array.from({ length: ITEMS }, (_, index) => ({
						id: cycle(ids, index),
						latitude: 40 + (index % 1000) / 1000,
						longitude: -3 - (index % 997) / 1000,
						dateTime: new Date(base + index * 1000).toISOString(),
					})),
					match: { method: 'POST', path: /\/locations$/ },
					write: {
						kind: 'submitLocation',
						resource: 'location',
						marker: (write) => `${write.id}|${String(((write.body as IDataObject).location as IDataObject).dateTime)}`,
						itemMarker: (item) => `${String(item.id)}|${String(item.dateTime)}`,
					},
					belongs: (output, input) => output.deviceId === input.id && output.dateTime === input.dateTime,
				});
			},
			deadline,
		);
	});
}
