import { ensure, ensureRunSucceeded, nodeItems, type WorkflowExpectation } from '../lib';

interface LoggedRequest {
	route: string | null;
	headers: Record<string, string | undefined>;
}

// n8n's own HTTP Request node, with this package's credential as a predefined credential type:
// n8n authenticates the call with the token the credential's preAuthentication obtained and stored
// (the lane's single token exchange covers this workflow too; see TOKEN_CALLS_PER_LANE).
const expectation: WorkflowExpectation = {
	description: 'HTTP Request node, Predefined Credential Type satelliteTrackingApi → GET /api/users/timeZones',
	async check(run, ctx) {
		ensureRunSucceeded(run);

		const answers = nodeItems(run, 'Time zones');
		ensure(answers.length === 1, `Time zones: expected 1 item, got ${answers.length}`);
		const answer = answers[0];
		ensure(answer.success === true, `Time zones: expected success: true, got ${JSON.stringify(answer).slice(0, 300)}`);
		const timeZones = answer.timeZones as Record<string, unknown> | undefined;
		ensure(
			typeof timeZones === 'object' && timeZones !== null && !Array.isArray(timeZones),
			`Time zones: expected a timeZones map, got ${JSON.stringify(timeZones)?.slice(0, 300)}`,
		);
		ensure(typeof timeZones['Europe/London'] === 'string', `Time zones: the map has no Europe/London: ${Object.keys(timeZones).slice(0, 10).join(', ')}…`);

		const tokens = (await ctx.sandboxJson('/__sandbox/tokens')) as string[];
		const requests = (await ctx.sandboxJson('/__sandbox/requests')) as LoggedRequest[];
		const call = requests.filter((entry) => entry.route === 'GET /api/users/timeZones').pop();
		ensure(call !== undefined, 'the sandbox saw no GET /api/users/timeZones');
		ensure(
			call.headers.authorization === `Bearer ${tokens[tokens.length - 1]}`,
			`GET /api/users/timeZones was not sent with the token the credential obtained (Authorization: ${String(call.headers.authorization).slice(0, 20)}…)`,
		);
	},
};

export default expectation;
