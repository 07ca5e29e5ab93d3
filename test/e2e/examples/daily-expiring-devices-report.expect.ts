import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Every morning at 7';
const USAGE_NODE = 'Devices expiring within 30 days';
const SINK = 'daily-report';

// examples/daily-expiring-devices-report.json, started at its Schedule Trigger the way the editor's
// "Execute workflow" starts it (`n8n execute` only starts at a Manual Trigger): license usage with
// a 30-day window, then one report posted to the chat webhook, here the sink. The report must name
// exactly the devices the sandbox seeded as expiring soon.
const expectation: ExampleExpectation = {
	id: 'exampleDailyReport1',
	sinks: { 'Post report to chat': SINK },
	description: 'examples/daily-expiring-devices-report.json: Schedule Trigger → license usage (30 days) → report in the sink',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const usage = nodeItems(run, USAGE_NODE);
		ensure(usage.length === 1, `${USAGE_NODE}: expected one summary item, got ${usage.length}`);
		const expiring = usage[0].expiringDevices as Array<{ deviceId: string; deviceName: string }>;
		const facts = (await ctx.sandboxJson('/__sandbox/facts')) as { expiringSoonDeviceIds: string[] };
		const expected = [...facts.expiringSoonDeviceIds].sort();
		ensure(expected.length > 0, 'sandbox: no device is seeded as expiring soon');
		ensure(
			JSON.stringify(expiring.map((d) => d.deviceId).sort()) === JSON.stringify(expected),
			`${USAGE_NODE}: expiring devices ${JSON.stringify(expiring.map((d) => d.deviceId))}, sandbox seeded ${JSON.stringify(expected)}`,
		);

		const reports = await sinkEntries(ctx, SINK);
		ensure(reports.length === 1, `sink /${SINK}: expected one report, got ${reports.length}`);
		const body = (reports[0].body ?? {}) as Record<string, unknown>;
		const text = String(body.text ?? '');
		ensure(text.includes(`${expected.length} of ${String(usage[0].devicesActive)} active devices expire within 30 days`), `sink /${SINK}: unexpected report heading: ${text}`);
		for (const device of expiring) {
			ensure(
				text.includes(`${device.deviceName} (${device.deviceId})`),
				`sink /${SINK}: the report does not name ${device.deviceName} (${device.deviceId}):\n${text}`,
			);
		}
		ensure(Array.isArray(body.expiringDevices) && body.expiringDevices.length === expected.length, `sink /${SINK}: expiringDevices missing from the report: ${JSON.stringify(body)}`);
	},
};

export default expectation;
