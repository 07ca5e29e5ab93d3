import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Every morning at 6';
const SUMMARY_NODE = 'Yesterday per device';
const SINK = 'daily-fleet-report';

interface Facts {
	storyDay: string;
	storyDeviceIds: { deliveryRound: string[] };
}

// examples/daily-fleet-report.json, started at its Schedule Trigger as the editor's "Execute
// workflow" starts it: yesterday's summary for every device, then one message per team (the groups
// named "… fleet") to the chat webhook, here the sink. The sandbox's delivery van (sandbox/stories.ts)
// drove its scripted round yesterday (UTC): 60 km in 3 trips, and the north fleet's message says so.
const expectation: ExampleExpectation = {
	id: 'exampleFleetDay01',
	sinks: { 'Post to team chat': SINK },
	description: 'examples/daily-fleet-report.json: Schedule Trigger → Get Daily Summary (all devices, yesterday) → one message per team in the sink',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const facts = (await ctx.sandboxJson('/__sandbox/facts')) as Facts;
		const summaries = nodeItems(run, SUMMARY_NODE);
		ensure(summaries.length >= 20, `${SUMMARY_NODE}: expected one item per seeded device, got ${summaries.length}`);
		ensure(summaries.every((s) => s.day === facts.storyDay && s.timeZone === 'UTC'), `${SUMMARY_NODE}: expected every item for ${facts.storyDay} UTC, got ${JSON.stringify(summaries[0])}`);
		const vanId = facts.storyDeviceIds.deliveryRound[0];
		const van = summaries.find((s) => s.deviceId === vanId);
		ensure(van && van.trips === 3 && Math.round(van.distanceKm as number) === 60, `${SUMMARY_NODE}: the delivery van ${vanId} drove 60 km in 3 trips, got ${JSON.stringify(van)}`);

		const messages = await sinkEntries(ctx, SINK);
		ensure(messages.length === 2, `sink /${SINK}: expected one message per team (2), got ${messages.length}`);
		const bodies = messages.map((message) => (message.body ?? {}) as { team?: string; text?: string; devices?: Array<{ deviceId: string }> });
		ensure(
			JSON.stringify(bodies.map((body) => body.team).sort()) === JSON.stringify(['North fleet', 'South fleet']),
			`sink /${SINK}: expected messages for North fleet and South fleet, got ${JSON.stringify(bodies.map((body) => body.team))}`,
		);
		const reported = bodies.flatMap((body) => body.devices ?? []).map((device) => device.deviceId);
		ensure(
			reported.length === summaries.length && new Set(reported).size === summaries.length,
			`sink /${SINK}: every device should be in exactly one team's message, got ${reported.length} entries for ${summaries.length} devices`,
		);
		const north = bodies.find((body) => body.team === 'North fleet')!;
		ensure(
			typeof north.text === 'string' && north.text.includes(`• ${String(van.deviceName)}: 60.0 km, 3 trips`),
			`sink /${SINK}: the North fleet message should list ${String(van.deviceName)} with 60.0 km in 3 trips:\n${String(north.text)}`,
		);
	},
};

export default expectation;
