/**
 * P9: Location → Get Trips and Stops over a long range for one device: a month at one fix a minute
 * (about 43,000 fixes), in n8n's engine, beside a plain loop that fetches the same fixes bare and
 * walks them once (a distance sum over the moving ones): what reading and segmenting the range
 * costs over merely receiving it. Requests against the listing floor: one device listing (names)
 * and one locations call for the whole range.
 *
 * Beside it, Location → Export Track of the same range in each format (issue 48): the same two
 * requests, its wall time over Get Trips' (target within 2×) and what writing the file adds to the
 * memory Get Trips grows by over the file's size (target under 3×). Reading and cutting the month
 * grows both by some 30 MB whatever is written, many times the file (only the trips' fixes are in
 * it): the whole growth over the file's size would measure the read, so the note gives it too.
 */
import { Pool } from 'undici';

import { distanceMeters } from '../../nodes/shared/geo/distance';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { median, timed } from '../measure';
import { rawCall, rawToken } from '../rawClient';
import { verdict, type Figure } from '../report';
import { startSandboxProcess } from '../sandboxProcess';

const DEVICE = { id: 'bench-month', name: 'Bench month' };
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const METERS_PER_DEGREE = 111_195;
/** The sandbox refuses bodies over 5 MiB: fixes go in in chunks. */
const CHUNK = 4_000;
const EXPORT_FORMATS = ['gpx', 'kml', 'geojson', 'csv'] as const;
const EXPORT_WALL_TARGET = 2;
const EXPORT_MEMORY_TARGET = 3;

interface NodeSide {
	wallMs: number;
	heapGrowth: number;
	items: number;
	requests: number;
	error?: string;
	/** Export Track: the file's size in bytes. */
	fileBytes?: number;
}

interface Fix {
	dateTime: string;
	latitude: number;
	longitude: number;
	speed: number;
	rpm: number;
	milleage: number;
	fuel: number;
}

/**
 * A working month: each day parked until 7, then six rounds of 40 minutes' driving out or back and
 * 20 minutes standing (engine running for the first 5), parked from 13 on; parked fixes wander.
 */
function month(days: number, end: number): Fix[] {
	const fixes: Fix[] = [];
	const start = end - days * DAY_MS;
	let latitude = 48.2;
	const longitude = 16.37;
	let milleage = 40_000;
	let fuel = 80;
	let noise = 7;
	const jitter = () => ((noise = (noise * 16_807) % 2_147_483_647) / 2_147_483_647 - 0.5) * (10 / METERS_PER_DEGREE);
	for (let at = start; at < end; at += MINUTE_MS) {
		const minuteOfDay = Math.floor((at % DAY_MS) / MINUTE_MS);
		const round = Math.floor((minuteOfDay - 7 * 60) / 60);
		const inRound = (minuteOfDay - 7 * 60) % 60;
		const driving = round >= 0 && round < 6 && inRound < 40;
		const speed = driving ? 30 + ((round * 7 + inRound) % 30) : 0;
		if (driving) {
			const km = speed / 60;
			latitude += ((round % 2 === 0 ? 1 : -1) * km * 1000) / METERS_PER_DEGREE;
			milleage += km;
			fuel = fuel < 10 ? 80 : fuel - km * 0.1;
		}
		const idling = round >= 0 && round < 6 && inRound >= 40 && inRound < 45;
		fixes.push({
			dateTime: new Date(at).toISOString(),
			latitude: driving ? latitude : latitude + jitter(),
			longitude: driving ? longitude : longitude + jitter(),
			speed,
			rpm: driving ? 1_500 : idling ? 750 : 0,
			milleage: Math.round(milleage * 10) / 10,
			fuel: Math.round(fuel * 10) / 10,
		});
	}
	return fixes;
}

/** The bare side: the token, the same locations call, the answer parsed, and one pass over it. */
async function plainLoop(baseUrl: string, range: { from: string; to: string }): Promise<{ trips: number; km: number }> {
	const url = new URL(baseUrl);
	const prefix = url.pathname.replace(/\/+$/, '');
	const pool = new Pool(url.origin, { connections: 1 });
	try {
		const token = await rawToken(pool, prefix);
		const call = rawCall('getLocations', { deviceId: DEVICE.id }, range);
		const answer = await pool.request({
			method: call.method,
			path: `${prefix}${call.path}`,
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify(call.body),
		});
		const { locations } = (await answer.body.json()) as { locations: Fix[] };
		let meters = 0;
		let trips = 0;
		let moving = false;
		for (let index = 1; index < locations.length; index++) {
			const fix = locations[index];
			if (fix.speed >= 5) {
				if (!moving) trips++;
				meters += distanceMeters(locations[index - 1], fix);
			}
			moving = fix.speed >= 5;
		}
		return { trips, km: meters / 1000 };
	} finally {
		await pool.close();
	}
}

/** Export Track in one format beside Get Trips and Stops: its requests, wall time and memory. */
function exportFigures(format: string, sides: NodeSide[], getTrips: { wallMs: number; heapGrowth: number }, days: number): Figure[] {
	const wallMs = median(sides.map((side) => side.wallMs));
	const growth = median(sides.map((side) => side.heapGrowth));
	const fileBytes = sides[0].fileBytes ?? 0;
	const added = Math.max(0, growth - getTrips.heapGrowth);
	const requests = Math.max(...sides.map((side) => side.requests));
	const error = sides.find((side) => side.error !== undefined)?.error;
	const MB = 1024 * 1024;
	return [
		{
			id: `P9.export.${format}.requests`,
			figure: `P9 Export Track ${format}, ${days} days, one device: API requests`,
			value: requests,
			unit: '',
			target: '= 2, as Get Trips',
			verdict: verdict(requests <= 2 && error === undefined && fileBytes > 0),
			note: error ?? `token calls apart; a ${(fileBytes / MB).toFixed(1)} MB file`,
		},
		{
			id: `P9.export.${format}.wall`,
			figure: `P9 Export Track ${format}, ${days} days: wall time`,
			value: wallMs / 1000,
			unit: 's',
			vsCeiling: wallMs / getTrips.wallMs,
			target: `within ${EXPORT_WALL_TARGET}× Get Trips' wall time`,
			verdict: verdict(wallMs <= EXPORT_WALL_TARGET * getTrips.wallMs),
			note: `Get Trips and Stops ${(getTrips.wallMs / 1000).toFixed(2)} s (the ratio); medians of ${sides.length}`,
		},
		{
			id: `P9.export.${format}.memory`,
			figure: `P9 Export Track ${format}, ${days} days: peak heap + buffers growth`,
			value: growth / MB,
			unit: 'MB',
			vsCeiling: fileBytes > 0 ? added / fileBytes : undefined,
			target: `growth beyond Get Trips' under ${EXPORT_MEMORY_TARGET}× the file's size`,
			verdict: verdict(fileBytes > 0 && added < EXPORT_MEMORY_TARGET * fileBytes),
			note:
				`the ratio: ${(added / MB).toFixed(1)} MB beyond Get Trips' ${(getTrips.heapGrowth / MB).toFixed(1)} MB over the ${(fileBytes / MB).toFixed(1)} MB file; ` +
				`the whole growth is ${fileBytes > 0 ? (growth / fileBytes).toFixed(1) : '?'}× the file; medians of ${sides.length}`,
		},
	];
}

/**
 * Peak growth of the JS heap and external buffers while `work` runs, after a full GC: the warm-up
 * already grew the process, so its RSS stays flat and shows nothing of one run's working set.
 */
async function withPeakHeap<T>(gc: () => void, work: () => Promise<T>): Promise<{ result: T; growth: number }> {
	gc();
	const used = () => {
		const memory = process.memoryUsage();
		return memory.heapUsed + memory.external;
	};
	const start = used();
	let peak = start;
	const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
	try {
		const result = await work();
		peak = Math.max(peak, used());
		return { result, growth: peak - start };
	} finally {
		clearInterval(sampler);
	}
}

export async function tripsScenario(ctx: BenchContext): Promise<void> {
	const days = ctx.sizes.tripDays;
	const end = Math.floor(Date.now() / DAY_MS) * DAY_MS;
	const fixes = month(days, end);
	const range = { from: new Date(end - days * DAY_MS).toISOString(), to: new Date(end).toISOString() };
	ctx.log(`P9: Get Trips and Stops over ${days} days, ${fixes.length} fixes of one device, ${ctx.sizes.rounds} round(s)`);
	const sandbox = await startSandboxProcess({ devices: 1, users: 1 });
	try {
		await sandbox.addDevice(DEVICE);
		for (let index = 0; index < fixes.length; index += CHUNK) await sandbox.addFixes(DEVICE.id, fixes.slice(index, index + CHUNK));
		const engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const parameters = { resource: 'location', operation: 'getTrips', deviceId: { __rl: true, mode: 'id', value: DEVICE.id }, ...range };
		// Warm-up: JIT and the token, on neither side's figures.
		await engine.runNode(parameters);
		await plainLoop(sandbox.url, range);

		const exportParameters = (format: string) => ({ ...parameters, operation: 'exportTrack', format });
		await engine.runNode(exportParameters('gpx'));
		/** One run of the node in n8n's engine: time, peak growth, the requests it sent. */
		const nodeSide = async (nodeParameters: typeof parameters): Promise<NodeSide> => {
			await sandbox.resetStats();
			const { result, growth } = await withPeakHeap(ctx.gc, () => timed(() => engine.runNode(nodeParameters)));
			const stats = await sandbox.stats();
			const file = result.result.items[0]?.binary?.data;
			return {
				wallMs: result.wallMs,
				heapGrowth: growth,
				items: result.result.items.length,
				requests: stats.requests - stats.tokenCalls,
				error: result.result.error?.message,
				fileBytes: file ? Buffer.byteLength(file.data, 'base64') : undefined,
			};
		};

		const rounds: Array<{ node: NodeSide; loop: { wallMs: number; heapGrowth: number; trips: number; km: number }; exports: Record<string, NodeSide> }> = [];
		for (let round = 0; round < ctx.sizes.rounds; round++) {
			const entry = { exports: {} } as (typeof rounds)[number];
			const sides = [
				async () => {
					entry.node = await nodeSide(parameters);
				},
				async () => {
					const { result, growth } = await withPeakHeap(ctx.gc, () => timed(() => plainLoop(sandbox.url, range)));
					entry.loop = { wallMs: result.wallMs, heapGrowth: growth, ...result.result };
				},
				...EXPORT_FORMATS.map((format) => async () => {
					entry.exports[format] = await nodeSide(exportParameters(format));
				}),
			];
			for (let index = 0; index < sides.length; index++) await sides[(index + round) % sides.length]();
			rounds.push(entry);
		}
		const nodeMs = median(rounds.map((round) => round.node.wallMs));
		const loopMs = median(rounds.map((round) => round.loop.wallMs));
		const nodeHeap = median(rounds.map((round) => round.node.heapGrowth));
		const loopHeap = median(rounds.map((round) => round.loop.heapGrowth));
		const requests = Math.max(...rounds.map((round) => round.node.requests));
		const { items, error } = rounds[0].node;
		const MB = 1024 * 1024;
		ctx.figures.push(
			{
				id: 'P9.requests',
				figure: `P9 Get Trips and Stops, ${days} days (${fixes.length} fixes), one device: API requests`,
				value: requests,
				unit: '',
				target: '= 2 (device listing + one locations call)',
				verdict: verdict(requests <= 2 && error === undefined),
				note: error ?? `token calls apart; ${items} trips and stops out`,
			},
			{
				id: 'P9.wall',
				figure: `P9 Get Trips and Stops, ${days} days: wall time`,
				value: nodeMs / 1000,
				unit: 's',
				vsCeiling: nodeMs / loopMs,
				verdict: 'info',
				note: `plain loop (bare fetch of the same range, parse, one pass) ${(loopMs / 1000).toFixed(2)} s; medians of ${rounds.length}`,
			},
			{
				id: 'P9.memory',
				figure: `P9 Get Trips and Stops, ${days} days: peak heap + buffers growth`,
				value: nodeHeap / MB,
				unit: 'MB',
				vsCeiling: loopHeap > 0 ? nodeHeap / loopHeap : undefined,
				verdict: 'info',
				note: `plain loop ${(loopHeap / MB).toFixed(1)} MB; medians of ${rounds.length}, sampled every 5 ms after a full GC each`,
			},
		);
		ctx.figures.push(...EXPORT_FORMATS.flatMap((format) => exportFigures(format, rounds.map((round) => round.exports[format]), { wallMs: nodeMs, heapGrowth: nodeHeap }, days)));
		ctx.details.P9 = { days, fixes: fixes.length, rounds };
	} finally {
		await sandbox.close();
	}
}
