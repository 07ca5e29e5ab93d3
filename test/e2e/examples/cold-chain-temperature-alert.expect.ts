import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Reefer out of range';
const SINK = 'cold-chain-chat';

// examples/cold-chain-temperature-alert.json, run as the editor's "Fetch Test Event" over the devices
// tagged cargo: chilled. The sandbox's `reeferFailed` reefers (sandbox/telemetry.ts) are above 8 °C
// when it starts, so the samples are real Telemetry Threshold events; each becomes one chat message.
const expectation: ExampleExpectation = {
	id: 'exampleColdChain01',
	sinks: { 'Post to chat': SINK },
	description: 'examples/cold-chain-temperature-alert.json: trigger on the chilled devices (Fetch Test Event) → chat message in the sink',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const events = nodeItems(run, TRIGGER);
		ensure(events.length >= 1, `${TRIGGER}: expected sample events, got none`);
		for (const event of events) {
			ensure(
				event.event === 'valueCrossed' && event.field === 'temperature' && event.direction === 'above' && event.threshold === 8,
				`${TRIGGER}: expected temperature-above-8 events, got ${JSON.stringify(event)}`,
			);
			ensure(typeof event.value === 'number' && event.value > 8, `${TRIGGER}: expected a value above 8, got ${JSON.stringify(event.value)}`);
		}

		const messages = await sinkEntries(ctx, SINK);
		ensure(messages.length === events.length, `sink /${SINK}: expected ${events.length} message(s) (one per event), got ${messages.length}`);
		for (const [i, event] of events.entries()) {
			const text = (messages[i].body as Record<string, unknown> | undefined)?.text;
			const expected = `${String(event.deviceName)} (${String(event.deviceId)}): temperature ${String(event.value)} °C, above 8 °C`;
			ensure(messages[i].method === 'POST', `sink /${SINK} message ${i}: expected POST, got ${messages[i].method}`);
			ensure(typeof text === 'string' && text.includes(expected), `sink /${SINK} message ${i}: expected "${expected}", got ${JSON.stringify(messages[i].body)}`);
		}
	},
};

export default expectation;
