/**
 * P4: user upsert of a whole HR sheet against an account that already holds its users — 30% of the
 * rows change a user, 10% add one, the rest change nothing. Requests by kind and wall time, against
 * a raw client sending the same list call and writes to an identical second sandbox.
 */
import { Pool } from 'undici';

import { DEFAULT_CONCURRENCY } from '../../nodes/shared/requestSettings';
import { planUpserts, type UpsertRequest } from '../../nodes/shared/upsertPlan';
import { ENDPOINTS, type User, type UserWrite } from '../../nodes/shared/wire';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { executeHelperLoop, type HelperLoopRun } from '../helperLoop';
import { median, timed } from '../measure';
import { rawCall, rawRun, rawToken, routeKey, type RawCall } from '../rawClient';
import { helperLoopFigures, verdict } from '../report';
import { startSandboxProcess, type SandboxProcess } from '../sandboxProcess';
import { HR_SYNC_UPSERT } from '../../test/support/hrSync';

const LIST = routeKey('listUsers');
const CREATE = routeKey('createUser');
const PATCH = routeKey('updateUser');
const PUT = routeKey('replaceUser');

type Row = Pick<UserWrite, 'name' | 'email' | 'country' | 'timeZone'>;

/** Rows for the sheet: changed and new ones spread evenly through it, as a real export would have them. */
function sheet(users: User[], items: number, changedShare: number, newShare: number): Row[] {
	const newCount = Math.round(items * newShare);
	const changedCount = Math.round(items * changedShare);
	const existing = users.slice(0, items - newCount);
	// Row i changes when the running share crosses a whole number: exactly changedCount rows, evenly spread.
	const changes = (index: number) => Math.floor(((index + 1) * changedCount) / existing.length) > Math.floor((index * changedCount) / existing.length);
	const rows: Row[] = existing.map((user, index) => ({
		name: changes(index) ? `${user.name} Jr.` : user.name,
		email: user.email,
		country: user.country,
		timeZone: user.timeZone,
	}));
	for (let index = 0; index < newCount; index++) {
		rows.splice(Math.floor(((index + 0.5) * rows.length) / newCount), 0, {
			name: `New Hire ${index}`,
			email: `new.hire${index}@hr.example`,
			country: 'DE',
			timeZone: 'Europe/Berlin',
		});
	}
	return rows;
}

export async function listUsers(sandbox: SandboxProcess): Promise<User[]> {
	const url = new URL(sandbox.url);
	const prefix = url.pathname.replace(/\/+$/, '');
	const pool = new Pool(url.origin, { connections: 1 });
	try {
		const token = await rawToken(pool, prefix);
		const answer = await pool.request({ method: 'GET', path: `${prefix}${ENDPOINTS.listUsers.path}`, headers: { authorization: `Bearer ${token}` } });
		return ((await answer.body.json()) as { users: User[] }).users;
	} finally {
		await pool.close();
	}
}

interface UpsertRun {
	wallMs: number;
	ceilingMs: number;
	helperLoop: HelperLoopRun;
	apiRequests: number;
	byKind: Record<'token' | 'list' | 'create' | 'patch' | 'put' | 'other', number>;
	actions: Record<string, number>;
	error?: string;
}

export async function upsertScenario(ctx: BenchContext): Promise<void> {
	const { users: userCount, upsertItems, changedShare, newShare, rounds } = ctx.sizes;
	ctx.log(`P4: upsert ${upsertItems} items against ${userCount} users (${changedShare * 100}% changed, ${newShare * 100}% new), ${rounds} round(s)`);
	let rows: Row[] = [];
	let calls: RawCall[] = [];
	let expectedCreates = 0;
	let expectedUpdates = 0;
	const runs: UpsertRun[] = [];
	for (let round = 0; round < rounds; round++) {
		// Identical sandboxes (same seed) per round and side: a run's writes would change what the next one sees.
		const [forNode, forCeiling, forLoop] = await Promise.all([
			startSandboxProcess({ users: userCount }),
			startSandboxProcess({ users: userCount }),
			startSandboxProcess({ users: userCount }),
		]);
		try {
			if (round === 0) {
				const users = await listUsers(forNode);
				rows = sheet(users, upsertItems, changedShare, newShare);
				const plan = planUpserts(
					users,
					rows.map((user, itemIndex): UpsertRequest => ({ itemIndex, user: user as UserWrite })),
				);
				// The node lists the users before it writes; so does the ceiling (first call, then the writes).
				calls = [rawCall('listUsers')];
				for (const step of plan.values()) {
					if (step.kind === 'create') calls.push(rawCall('createUser', {}, step.user));
					if (step.kind === 'update') calls.push(rawCall('updateUser', { userId: step.userId }, step.patch));
				}
				expectedCreates = [...plan.values()].filter((step) => step.kind === 'create').length;
				expectedUpdates = [...plan.values()].filter((step) => step.kind === 'update').length;
			}
			await forNode.resetStats();
			const engine = new Engine({ baseUrl: forNode.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			const loopEngine = new Engine({ baseUrl: forLoop.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			// Each round starts with a different side, so load on the shared machine does not always land on one.
			let node!: { result: Awaited<ReturnType<Engine['runNode']>>; wallMs: number };
			let ceilingMs = 0;
			let helperLoop!: HelperLoopRun;
			const sides = [
				async () => void (node = await timed(() => engine.runNode(HR_SYNC_UPSERT, { items: rows as never[] }))),
				async () => void (ceilingMs = (await rawRun(forCeiling.url, calls, DEFAULT_CONCURRENCY)).wallMs),
				async () => void (helperLoop = await executeHelperLoop(loopEngine, calls, DEFAULT_CONCURRENCY, rows)),
			];
			for (let index = 0; index < sides.length; index++) await sides[(index + round) % sides.length]();
			const { result, wallMs } = node;
			const stats = await forNode.stats();
			const count = (route: string) => stats.byRoute[route] ?? 0;
			const apiRequests = stats.requests - stats.tokenCalls;
			const actions: Record<string, number> = {};
			for (const item of result.items) actions[String(item.json.action)] = (actions[String(item.json.action)] ?? 0) + 1;
			runs.push({
				wallMs,
				ceilingMs,
				helperLoop,
				apiRequests,
				byKind: {
					token: stats.tokenCalls,
					list: count(LIST),
					create: count(CREATE),
					patch: count(PATCH),
					put: count(PUT),
					other: apiRequests - count(LIST) - count(CREATE) - count(PATCH) - count(PUT),
				},
				actions,
				error: result.error?.message,
			});
		} finally {
			await Promise.all([forNode.close(), forCeiling.close(), forLoop.close()]);
		}
	}

	const floor = 1 + expectedCreates + expectedUpdates;
	const onTarget = (run: UpsertRun) =>
		!run.error &&
		run.byKind.list === 1 &&
		run.byKind.create === expectedCreates &&
		run.byKind.patch + run.byKind.put === expectedUpdates &&
		run.byKind.other === 0;
	const worst = runs.reduce((most, run) => (run.apiRequests > most.apiRequests || !onTarget(run) ? run : most), runs[0]);
	const wallMs = median(runs.map((run) => run.wallMs));
	const ceilingMs = median(runs.map((run) => run.ceilingMs));
	const loopMs = median(runs.map((run) => run.helperLoop.wallMs));
	ctx.figures.push(
		{
			id: 'P4.requests',
			figure: `P4 upsert, ${rows.length} items vs ${userCount} users: API requests`,
			value: worst.apiRequests,
			unit: '',
			target: `1 list + ${expectedCreates + expectedUpdates} writes = ${floor}`,
			verdict: verdict(runs.every(onTarget)),
			note: `list ${worst.byKind.list}, create ${worst.byKind.create}, patch ${worst.byKind.patch}, put ${worst.byKind.put}, other ${worst.byKind.other}, token ${worst.byKind.token}; outputs ${JSON.stringify(worst.actions)}${worst.error ? `; stopped: ${worst.error}` : ''}`,
		},
		{
			id: 'P4.wall',
			figure: `P4 upsert, ${rows.length} items: wall time`,
			value: wallMs / 1000,
			unit: 's',
			vsCeiling: wallMs / ceilingMs,
			verdict: 'info',
			note: `ceiling (same list + ${calls.length - 1} writes, ${DEFAULT_CONCURRENCY} connections) ${(ceilingMs / 1000).toFixed(2)} s; medians of ${runs.length}`,
		},
		...helperLoopFigures(
			'P4',
			{
				figure: `n8n helper loop: the same list + ${calls.length - 1} writes, wall time`,
				value: loopMs / 1000,
				unit: 's',
				vsCeiling: loopMs / ceilingMs,
				runs: runs.map((run) => run.helperLoop),
				calls: calls.length,
				note: `httpRequestWithAuthentication, ${DEFAULT_CONCURRENCY} at once, fed the same ${rows.length} items; medians of ${runs.length}`,
			},
			{ figure: 'P4 upsert ÷ n8n helper loop, speed', speedRatio: loopMs / wallMs, perRound: runs.map((run) => run.helperLoop.wallMs / run.wallMs), note: `node ${(wallMs / 1000).toFixed(2)} s vs loop ${(loopMs / 1000).toFixed(2)} s` },
		),
	);
	ctx.details.P4 = { items: rows.length, users: userCount, expectedCreates, expectedUpdates, runs };
}
