/**
 * Run by dateWithoutZone.test.ts in a child process with TZ set (a jest worker cannot change its
 * own zone): sends every date field once through n8n's engine and prints what reached the sandbox.
 */
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox } from '../../sandbox/server';
import { Engine } from '../support/engine';

const DATES = process.argv.slice(2);
const device = { __rl: true, mode: 'id', value: 'device001' };

async function sendDates(engine: Engine, DATE: string, index: number): Promise<string[]> {
		const runs = [
			{ resource: 'alert', operation: 'getAll', deviceId: device, from: DATE, to: DATE, returnAll: true },
			{ resource: 'location', operation: 'getAll', deviceId: device, from: DATE, to: DATE, returnAll: true },
			{ resource: 'location', operation: 'submit', deviceId: device, latitude: 1, longitude: 2, dateTime: DATE },
			{
				resource: 'user',
				operation: 'create',
				name: 'Zone Less',
				email: `zone.less.${index}@example.com`,
				country: 'US',
				timeZone: 'America/New_York',
				additionalFields: { from: DATE, expires: DATE },
			},
		];
		const errors: string[] = [];
		for (const parameters of runs) {
			const { error } = await engine.runNode(parameters as never);
			if (error) errors.push(error.message);
		}
		return errors;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	try {
		const engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		const results = [];
		for (const [index, date] of DATES.entries()) {
			sandbox.resetStats();
			const errors = await sendDates(engine, date, index);
			const sent = sandbox.requestLog.filter((entry) => entry.method === 'POST' && entry.route !== 'POST /api/Auth/Token').map((entry) => entry.body);
			results.push({ date, zoneOffsetMinutes: new Date(2024, 2, 10, 10).getTimezoneOffset(), errors, sent });
		}
		process.stdout.write(JSON.stringify(results));
	} finally {
		await sandbox.close();
	}
}

void main().then(() => process.exit(0));
