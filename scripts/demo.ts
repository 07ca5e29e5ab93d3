/**
 * `npm run demo`: the package's main job end to end, with no account. Starts the bundled sandbox
 * tracking server, runs a workflow (list active devices → last location of each) through n8n's
 * real execution engine with a real token exchange, and prints what came back.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function main() {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'satellite-tracking-demo-'));
	const { DEMO_API_KEY, DEMO_USER_NAME, startSandbox } = await import('../sandbox/server');
	const { ACTION_NODE_TYPE, Engine } = await import('../test/support/engine');

	const sandbox = await startSandbox({ port: 0 });
	try {
		console.log(`Sandbox tracking API at ${sandbox.url} (user ${DEMO_USER_NAME})\n`);
		const engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const devices = engine.node('Active devices', ACTION_NODE_TYPE, {
			resource: 'device',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'active' },
		}, [200, 0]);
		const lastLocation = engine.node('Last location', ACTION_NODE_TYPE, {
			resource: 'device',
			operation: 'getLastLocation',
			deviceId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		}, [400, 0]);

		const run = await engine.runWorkflow([devices, lastLocation]);
		const error = run.data.resultData.error;
		if (error) throw error;

		const names = new Map(
			(run.data.resultData.runData['Active devices'][0].data?.main[0] ?? []).map((item) => [item.json.id, item.json.name]),
		);
		const rows = (run.data.resultData.runData['Last location'][0].data?.main[0] ?? []).map(({ json }) => ({
			device: `${names.get(json.deviceId)} (${json.deviceId})`,
			lastFix: json.neverReported ? 'never reported' : String(json.dateTime),
			latitude: json.latitude ?? '',
			longitude: json.longitude ?? '',
			speedKmh: json.speed ?? '',
			critical: json.hasCriticalAlert ? 'yes' : '',
		}));
		console.table(rows);
		console.log(
			`\n${rows.length} active devices read through n8n's engine with ${sandbox.stats.requests - sandbox.stats.tokenCalls} API calls and ${sandbox.stats.tokenCalls} token exchange.`,
		);
	} finally {
		await sandbox.close();
	}
	// n8n-core keeps a housekeeping interval alive; the demo is done.
	process.exit(0);
}

main().catch((error: Error) => {
	console.error(`Demo failed: ${error.message}`);
	process.exit(1);
});
