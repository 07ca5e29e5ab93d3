/**
 * P5: Max Requests per Minute set in the node and in the trigger, against an account whose quota
 * is that same number per 60 s: the most requests the sandbox saw in any 60 s sliding window, and
 * its 429 answers. Real 60 s windows, not scaled ones: the node's cap is per minute by definition.
 * The node and the trigger run at the same time on two sandboxes (two accounts): these figures are
 * counts, which the shared machine's load cannot change.
 */
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
