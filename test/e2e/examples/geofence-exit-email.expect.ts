import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Left the depot';
const SINK = 'geofence-exit-email';

// examples/geofence-exit-email.json, run as the editor's "Fetch Test Event" over the north fleet's
// devices: each sample event becomes one e-mail request to the (placeholder) e-mail API, here the sink.
const expectation: ExampleExpectation = {
	id: 'exampleGeofence01',
	sinks: { 'Send e-mail': SINK },
	description: 'examples/geofence-exit-email.json: trigger on the north fleet (Fetch Test Event) → e-mail request in the sink',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const events = nodeItems(run, TRIGGER);
		ensure(events.length >= 1, `${TRIGGER}: expected sample events, got none`);

		const mails = await sinkEntries(ctx, SINK);
		ensure(mails.length === events.length, `sink /${SINK}: expected ${events.length} e-mail request(s), got ${mails.length}`);
		for (const [i, event] of events.entries()) {
			const body = (mails[i].body ?? {}) as Record<string, unknown>;
			ensure(body.to === 'dispatch@example.com', `sink /${SINK} e-mail ${i}: expected to dispatch@example.com, got ${JSON.stringify(body)}`);
			ensure(
				typeof body.subject === 'string' && body.subject.includes(String(event.deviceName)),
				`sink /${SINK} e-mail ${i}: expected a subject naming ${String(event.deviceName)}, got ${JSON.stringify(body.subject)}`,
			);
			ensure(
				typeof body.text === 'string' && body.text.includes(String(event.deviceId)),
				`sink /${SINK} e-mail ${i}: expected a text with device id ${String(event.deviceId)}, got ${JSON.stringify(body.text)}`,
			);
		}
	},
};

export default expectation;
