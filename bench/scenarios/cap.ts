/**
 * P5: Max Requests per Minute set in the node and in the trigger, against an account whose quota
 * is that same number per 60 s: the most requests the sandbox saw in any 60 s sliding window, and
 * its 429 answers. Real 60 s windows, not scaled ones: the node's cap is per minute by definition.
 * The node and the trigger run at the same time on two sandboxes (two accounts): these figures are
 * counts, which the shared machine's load cannot change.
 */
import type { IDataObject } from 'n8n-workflow';

import { TOKEN_PATH } from '../../nodes/shared/wire';
import { deviceId } from '../../sandbox/seed';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { Engine } from '../../test/support/engine';
import type { BenchContext } from '../context';
import { maxInSlidingWindow, timed } from '../measure';
import { verdict } from '../report';
import { startSandboxProcess, type SandboxProcess } from '../sandboxProcess';
import { answered, lastLocationParameters } from './throughput';
import { latestFixParameters } from './trigger';

const WINDOW_MS = 60_000;
const TOKEN_ROUTE = `POST ${TOKEN_PATH}`;

interface CapRun {
	wallMs: number;
	completed: string;
	maxInWindow: number;
	maxInWindowWithToken: number;
	tooManyRequests: number;
	requests: number;
	error?: string;
}

async function windowFigures(sandbox: SandboxProcess): Promise<Pick<CapRun, 'maxInWindow' | 'maxInWindowWithToken' | 'tooManyRequests' | 'requests'>> {
	const log = await sandbox.requestTimes();
	const stats = await sandbox.stats();
	return {
		maxInWindow: maxInSlidingWindow(log.filter((entry) => entry.route !== TOKEN_ROUTE).map((entry) => entry.at), WINDOW_MS),
		maxInWindowWithToken: maxInSlidingWindow(log.map((entry) => entry.at), WINDOW_MS),
		tooManyRequests: stats.tooManyRequests,
		requests: stats.requests,
	};
}

export async function capScenarios(ctx: BenchContext): Promise<void> {
	const { capPerMinute: cap, capRequests } = ctx.sizes;
	const quota = { requests: cap, windowMs: WINDOW_MS };
	ctx.log(`P5: Max Requests per Minute ${cap}, ${capRequests} requests, quota ${cap}/60 s: node and trigger (${capRequests > cap ? 'over a minute' : 'seconds'})`);
	const nodeSandbox = await startSandboxProcess({ devices: capRequests, rateLimit: quota, requestLogLimit: capRequests * 4 });
	// The trigger's poll is one device list plus one read per device.
	const triggerSandbox = await startSandboxProcess({ devices: capRequests - 1, rateLimit: quota, requestLogLimit: capRequests * 4 });
	try {
		const settings = { requestsPerMinute: cap };
		const nodeRun = async (): Promise<CapRun> => {
			const engine = new Engine({ baseUrl: nodeSandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			const rows = Array.from({ length: capRequests }, (_, index) => ({ deviceId: deviceId(index + 1) }));
			const { result, wallMs } = await timed(() => engine.runNode(lastLocationParameters(settings), { items: rows }));
			return { wallMs, completed: `${result.error ? 0 : answered(result.items)}/${capRequests} items`, error: result.error?.message, ...(await windowFigures(nodeSandbox)) };
		};
		const triggerRun = async (sandbox: SandboxProcess): Promise<CapRun> => {
			const engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			let error: string | undefined;
			const { wallMs } = await timed(() =>
				engine.poll(latestFixParameters(settings), {}).catch((failure: Error) => {
					error = failure.message;
					return null;
				}),
			);
			return { wallMs, completed: error ? 'poll failed' : `poll of ${capRequests - 1} devices`, error, ...(await windowFigures(sandbox)) };
		};
		const [node, triggered] = await Promise.all([nodeRun(), triggerRun(triggerSandbox)]);

		const rows = [
			{ label: 'node', run: node },
			{ label: 'trigger', run: triggered },
		];
		for (const { label, run } of rows) {
			ctx.figures.push(
				{
					id: `P5.${label}.maxInWindow`,
					figure: `P5 ${label}, cap ${cap}/min: most requests in any 60 s window`,
					value: run.maxInWindow,
					unit: '',
					target: `≤ ${cap}`,
					verdict: verdict(run.maxInWindow <= cap && !run.error),
					note: `${run.requests} requests in ${(run.wallMs / 1000).toFixed(1)} s, ${run.completed}; with the token call ${run.maxInWindowWithToken}${run.error ? `; failed: ${run.error}` : ''}`,
				},
				{
					id: `P5.${label}.tooManyRequests`,
					figure: `P5 ${label}, quota = cap: answers of 429`,
					value: run.tooManyRequests,
					unit: '',
					target: '0',
					verdict: verdict(run.tooManyRequests === 0),
				},
			);
		}
		ctx.details.P5 = { cap, requests: capRequests, windowMs: WINDOW_MS, node, trigger: triggered };
	} finally {
		await Promise.all([nodeSandbox.close(), triggerSandbox.close()]);
	}
}

interface SharedRun {
	wallMs: number;
	completed: number;
	failedItems: number;
	maxInWindow: number;
	tooManyRequests: number;
	requests: number;
	tokenCalls: number;
}

/**
 * P6: several workflows on one credential started at once, as executions of an n8n process run
 * them, against an account quota: with the cap they share one pacer and stay under it together;
 * without it they share what one 429 taught. The two runs go on two sandboxes (two accounts) at
 * the same time; both figures are counts.
 */
export async function sharedQuotaScenario(ctx: BenchContext): Promise<void> {
	const { capPerMinute: cap, sharedWorkflows: workflows, sharedItems: itemsEach } = ctx.sizes;
	const total = workflows * itemsEach;
	const quota = { requests: cap, windowMs: WINDOW_MS };
	ctx.log(`P6: ${workflows} workflows × ${itemsEach} items on one credential, quota ${cap}/60 s: with the cap ${cap} and without`);
	const start = () => startSandboxProcess({ devices: itemsEach, rateLimit: quota, requestLogLimit: total * 4 });
	const [cappedSandbox, uncappedSandbox] = await Promise.all([start(), start()]);
	try {
		const run = async (sandbox: SandboxProcess, settings: IDataObject): Promise<SharedRun> => {
			const engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			const rows = Array.from({ length: itemsEach }, (_, index) => ({ deviceId: deviceId(index + 1) }));
			const { result, wallMs } = await timed(() =>
				Promise.all(Array.from({ length: workflows }, () => engine.runNode(lastLocationParameters(settings), { items: rows, continueOnFail: true }))),
			);
			const completed = result.reduce((sum, one) => sum + answered(one.items), 0);
			const log = await sandbox.requestTimes();
			const stats = await sandbox.stats();
			return {
				wallMs,
				completed,
				failedItems: result.reduce((sum, one) => sum + one.items.length, 0) - completed,
				maxInWindow: maxInSlidingWindow(log.filter((entry) => entry.route !== TOKEN_ROUTE).map((entry) => entry.at), WINDOW_MS),
				tooManyRequests: stats.tooManyRequests,
				requests: stats.requests,
				tokenCalls: stats.tokenCalls,
			};
		};
		const [capped, uncapped] = await Promise.all([run(cappedSandbox, { requestsPerMinute: cap }), run(uncappedSandbox, {})]);
		const describe = (one: SharedRun) =>
			`${one.completed}/${total} items in ${(one.wallMs / 1000).toFixed(1)} s, ${one.requests} requests, ${one.tokenCalls} token call(s)`;
		const share429 = uncapped.requests === 0 ? 0 : uncapped.tooManyRequests / uncapped.requests;
		ctx.figures.push(
			{
				id: 'P6.capped.maxInWindow',
				figure: `P6 ${workflows} workflows at once, cap ${cap}/min each: most requests in any 60 s window`,
				value: capped.maxInWindow,
				unit: '',
				target: `≤ ${cap}`,
				verdict: verdict(capped.maxInWindow <= cap && capped.completed === total),
				note: describe(capped),
			},
			{
				id: 'P6.capped.tooManyRequests',
				figure: `P6 ${workflows} workflows at once, cap ${cap}/min: answers of 429`,
				value: capped.tooManyRequests,
				unit: '',
				target: '0',
				verdict: verdict(capped.tooManyRequests === 0),
			},
			{
				id: 'P6.uncapped.tooManyRequests',
				figure: `P6 ${workflows} workflows at once, no cap: 429s ÷ requests (every item completes)`,
				value: Number((share429 * 100).toFixed(2)),
				unit: '%',
				target: '< 1%, all items',
				verdict: verdict(share429 < 0.01 && uncapped.completed === total),
				note: `${uncapped.tooManyRequests} × 429; ${describe(uncapped)}`,
			},
		);
		ctx.details.P6 = { cap, workflows, itemsEach, windowMs: WINDOW_MS, capped, uncapped };
	} finally {
		await Promise.all([cappedSandbox.close(), uncappedSandbox.close()]);
	}
}
