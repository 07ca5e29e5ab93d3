import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Critical alert';
const SINK = 'critical-alert-chat';

// examples/critical-alert-to-chat.json, run as the editor's "Fetch Test Event": the trigger's sample
// events (critical alerts when the sampled devices have one, else their last fix) are posted to the
// chat webhook, here the sandbox's sink.
const expectation: ExampleExpectation = {
	id: 'exampleCritAlert01',
	sinks: { 'Post to chat': SINK },
	description: 'examples/critical-alert-to-chat.json: trigger (Fetch Test Event) → chat message in the sink',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const events = nodeItems(run, TRIGGER);
		ensure(events.length >= 1, `${TRIGGER}: expected sample events, got none`);

		const messages = await sinkEntries(ctx, SINK);
		ensure(messages.length === events.length, `sink /${SINK}: expected ${events.length} message(s) (one per event), got ${messages.length}`);
		for (const [i, event] of events.entries()) {
			const message = messages[i];
			const text = (message.body as Record<string, unknown> | undefined)?.text;
			ensure(message.method === 'POST', `sink /${SINK} message ${i}: expected POST, got ${message.method}`);
			ensure(
				typeof text === 'string' && text.includes(String(event.deviceName)) && text.includes(String(event.deviceId)),
				`sink /${SINK} message ${i}: expected a text naming ${String(event.deviceName)} (${String(event.deviceId)}), got ${JSON.stringify(message.body)}`,
			);
		}
	},
};

export default expectation;
