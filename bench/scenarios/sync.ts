/**
 * P8: HR sync of a 10,000-person account where 1% of the people changed: movers renamed, joiners
 * added, leavers gone from the roster. The floor is one listing plus one write per changed person;
 * preview pays the listing alone. Requests by kind and wall time, beside a raw client sending the
 * same listing and writes to an identical second sandbox.
 */
import { DEFAULT_CONCURRENCY } from '../../nodes/shared/requestSettings';
import type { User } from '../../nodes/shared/wire';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { median, timed } from '../measure';
import { rawCall, rawRun, routeKey } from '../rawClient';
import { verdict } from '../report';
import { startSandboxProcess, type SandboxProcess } from '../sandboxProcess';
import { listUsers } from './upsert';

const SCOPE = { key: 'managedBy', value: 'n8n-hr-sync' };
const ROUTES = { list: routeKey('listUsers'), create: routeKey('createUser'), patch: routeKey('updateUser'), delete: routeKey('deleteUser') };

const syncParameters = (mode: 'preview' | 'apply') => ({
	resource: 'user',
	operation: 'sync',
	mode,
	scopeTagKey: SCOPE.key,
	scopeTagValue: SCOPE.value,
});

type Row = Pick<User, 'name' | 'email' | 'country' | 'timeZone'>;

/** The account as a previous sync left it: every seeded user carries the scope tag. */
async function managedAccount(users: number): Promise<{ sandbox: SandboxProcess; users: User[] }> {
	const sandbox = await startSandboxProcess({ users });
	const listed = await listUsers(sandbox);
	const tag = listed.map((user) => rawCall('updateUser', { userId: user.id }, [{ op: 'add', path: `/tags/${SCOPE.key}`, value: SCOPE.value }]));
	const setup = await rawRun(sandbox.url, tag, DEFAULT_CONCURRENCY);
	if (setup.ok !== tag.length) throw new Error(`P8 setup: tagging the users answered ${JSON.stringify(setup.statuses)}`);
	const tagged = await listUsers(sandbox);
	await sandbox.resetStats();
	return { sandbox, users: tagged };
}

/**
 * Today's roster: the people who can sign in, with `changes` of them split into movers (renamed),
 * joiners and leavers (absent), spread through the roster as an export would have them.
 */
function roster(users: User[], changes: number) {
	const active = users.filter((user) => user.disabled !== true);
	const [movers, joiners] = [Math.ceil(changes * 0.4), Math.floor(changes * 0.3)];
	const leavers = changes - movers - joiners;
	// Picks spread evenly through the people; among them, exactly `leavers` leave, spread alike, the rest move.
	const picks = movers + leavers;
	const picked = Array.from({ length: picks }, (_, index) => active[Math.floor((index * active.length) / picks)]);
	const leaves = (index: number) => Math.floor(((index + 1) * leavers) / picks) > Math.floor((index * leavers) / picks);
	const moved = new Set(picked.filter((_, index) => !leaves(index)).map((user) => user.id));
	const left = new Set(picked.filter((_, index) => leaves(index)).map((user) => user.id));
	const rows: Row[] = active
		.filter((user) => !left.has(user.id))
		.map((user) => ({ name: moved.has(user.id) ? `${user.name} (moved)` : user.name, email: user.email, country: user.country, timeZone: user.timeZone }));
	for (let index = 0; index < joiners; index++) {
		rows.splice(Math.floor(((index + 0.5) * rows.length) / joiners), 0, {
			name: `New Hire ${index}`,
			email: `new.hire${index}@hr.example`,
			country: 'DE',
			timeZone: 'Europe/Berlin',
		});
	}
	const calls = [
		rawCall('listUsers'),
		...users.filter((user) => moved.has(user.id)).map((user) => rawCall('updateUser', { userId: user.id }, [{ op: 'replace', path: '/name', value: `${user.name} (moved)` }])),
		...rows.filter((row) => row.email.endsWith('@hr.example')).map((row) => rawCall('createUser', {}, { ...row, tags: { [SCOPE.key]: SCOPE.value } })),
		...users.filter((user) => left.has(user.id)).map((user) => rawCall('updateUser', { userId: user.id }, [{ op: 'replace', path: '/disabled', value: true }])),
	];
	return { rows, calls, movers, joiners, leavers };
}

interface SyncRun {
	previewRequests: number;
	previewMs: number;
	/** Preview of the same roster with every country one the service does not list (a column read wrong). */
	misreadPreviewMs: number;
	applyMs: number;
	ceilingMs: number;
	byKind: Record<keyof typeof ROUTES | 'other', number>;
	apiRequests: number;
	actions: Record<string, number>;
	error?: string;
}

export async function syncScenario(ctx: BenchContext): Promise<void> {
	const { users: userCount, rounds } = ctx.sizes;
	// Smoke sizes: enough changes that each kind appears.
	const changes = Math.max(10, Math.round(userCount * 0.01));
	ctx.log(`P8: sync a roster against ${userCount} managed users, ${changes} people changed (1%), ${rounds} round(s)`);
	const runs: SyncRun[] = [];
	let plan!: ReturnType<typeof roster>;
	for (let round = 0; round < rounds; round++) {
		// Identical accounts for the node and the raw client: a run's writes would change what the next one sees.
		const [forNode, forCeiling] = await Promise.all([managedAccount(userCount), managedAccount(userCount)]);
		try {
			plan = roster(forNode.users, changes);
			const engine = new Engine({ baseUrl: forNode.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			const { result: preview, wallMs: previewMs } = await timed(() => engine.runNode(syncParameters('preview'), { items: plan.rows as never[] }));
			const afterPreview = await forNode.sandbox.stats();
			// Every row refused, each checked for a country name in another language: the cost stays a preview's.
			const misread = plan.rows.map((row, index) => ({ ...row, country: `Region ${index}` }));
			const { wallMs: misreadPreviewMs } = await timed(() => engine.runNode(syncParameters('preview'), { items: misread as never[] }));
			await forNode.sandbox.resetStats();
			const ceilingFirst = round % 2 === 1;
			const ceilingMs = ceilingFirst ? (await rawRun(forCeiling.sandbox.url, plan.calls, DEFAULT_CONCURRENCY)).wallMs : 0;
			const apply = await timed(() => engine.runNode(syncParameters('apply'), { items: plan.rows as never[] }));
			const ceilingAfter = ceilingFirst ? ceilingMs : (await rawRun(forCeiling.sandbox.url, plan.calls, DEFAULT_CONCURRENCY)).wallMs;
			const stats = await forNode.sandbox.stats();
			const count = (route: string) => stats.byRoute[route] ?? 0;
			const apiRequests = stats.requests - stats.tokenCalls;
			const byKind = { list: count(ROUTES.list), create: count(ROUTES.create), patch: count(ROUTES.patch), delete: count(ROUTES.delete), other: 0 };
			byKind.other = apiRequests - byKind.list - byKind.create - byKind.patch - byKind.delete;
			const actions: Record<string, number> = {};
			for (const item of apply.result.items) actions[String(item.json.action)] = (actions[String(item.json.action)] ?? 0) + 1;
			runs.push({
				previewRequests: afterPreview.requests - afterPreview.tokenCalls,
				previewMs,
				misreadPreviewMs,
				applyMs: apply.wallMs,
				ceilingMs: ceilingAfter,
				byKind,
				apiRequests,
				actions,
				error: preview.error?.message ?? apply.result.error?.message,
			});
		} finally {
			await Promise.all([forNode.sandbox.close(), forCeiling.sandbox.close()]);
		}
	}

	// The country and time zone lists, read once each when the plan sends one (joiners do) to check them before any write.
	const referenceLists = plan.joiners > 0 ? 2 : 0;
	const floor = 1 + referenceLists + changes;
	const onTarget = (run: SyncRun) =>
		!run.error &&
		run.byKind.list === 1 &&
		run.byKind.create === plan.joiners &&
		run.byKind.patch === plan.movers + plan.leavers &&
		run.byKind.delete === 0 &&
		run.byKind.other === referenceLists;
	const worst = runs.reduce((most, run) => (run.apiRequests > most.apiRequests || !onTarget(run) ? run : most), runs[0]);
	const applyMs = median(runs.map((run) => run.applyMs));
	const ceilingMs = median(runs.map((run) => run.ceilingMs));
	ctx.figures.push(
		{
			id: 'P8.requests',
			figure: `P8 sync, ${plan.rows.length}-person roster vs ${userCount} managed users, ${changes} changed: API requests`,
			value: worst.apiRequests,
			unit: '',
			target: `floor: 1 list + ${referenceLists} reference lists + ${changes} writes = ${floor}`,
			verdict: verdict(runs.every(onTarget)),
			note: `list ${worst.byKind.list}, create ${worst.byKind.create}, patch ${worst.byKind.patch} (${plan.movers} movers + ${plan.leavers} leavers), delete ${worst.byKind.delete}, other ${worst.byKind.other}; outputs ${JSON.stringify(worst.actions)}${worst.error ? `; stopped: ${worst.error}` : ''}`,
		},
		{
			id: 'P8.previewRequests',
			figure: 'P8 sync preview: API requests',
			value: Math.max(...runs.map((run) => run.previewRequests)),
			unit: '',
			target: `floor: 1 list + ${referenceLists} reference lists`,
			verdict: verdict(runs.every((run) => run.previewRequests === 1 + referenceLists)),
		},
		{
			id: 'P8.misreadCountries',
			figure: `P8 sync preview, ${plan.rows.length} rows, every country unlisted (a column read wrong): wall time`,
			value: median(runs.map((run) => run.misreadPreviewMs)) / 1000,
			unit: 's',
			vsCeiling: median(runs.map((run) => run.misreadPreviewMs)) / median(runs.map((run) => run.previewMs)),
			verdict: 'info',
			note: `vs ceiling: ÷ the preview of the valid roster (${(median(runs.map((run) => run.previewMs)) / 1000).toFixed(2)} s); medians of ${runs.length}`,
		},
		{
			id: 'P8.wall',
			figure: `P8 sync apply, ${plan.rows.length} items: wall time`,
			value: applyMs / 1000,
			unit: 's',
			vsCeiling: applyMs / ceilingMs,
			verdict: 'info',
			note: `ceiling (the same list + ${floor - 1} writes from a raw client, ${DEFAULT_CONCURRENCY} connections) ${(ceilingMs / 1000).toFixed(2)} s; medians of ${runs.length}`,
		},
	);
	ctx.details.P8 = { roster: plan.rows.length, users: userCount, changes, movers: plan.movers, joiners: plan.joiners, leavers: plan.leavers, runs };
}
