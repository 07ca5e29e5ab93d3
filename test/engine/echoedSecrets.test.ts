/**
 * Issue 51, item 3: a service (or a proxy before it) that quotes the refused request back, headers
 * and body, in its 400 answer. The passwords users write, the API key and the token stay out of
 * every error message and description, Continue On Fail item, Sync item, n8n's stored run data and
 * n8n's log.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { Engine } from '../support/engine';
import { startFront, type Front } from '../support/hostileHosts';
import { byId, useSandbox } from '../support/sandboxed';
import { secretWatch } from '../reliability/support';

// With a `"` and a `\`, which a quoted JSON body escapes: `Quoted\"Horse\\Battery-51`.
const PASSWORD = 'Quoted"Horse\\Battery-51';
// Too short to take out wherever it stands; the service quotes it as a JSON string.
const SHORT_PASSWORD = 'Qx7';

const fromRow = { name: '={{ $json.name }}', email: '={{ $json.email }}', country: '={{ $json.country }}', timeZone: '={{ $json.timeZone }}' };

const person = (email: string) => ({ name: 'Quoted Person', email, country: 'DE', timeZone: 'Europe/Berlin' });

/**
 * Runs the node on `items` with Continue On Fail and without, scanning everything each run shows
 * (items, the error, run data, n8n's log): the leaks found, and every error message (each error
 * item's, then the stopping error's).
 */
async function runBothWays(engine: Engine, name: string, parameters: INodeParameters, items: IDataObject[]) {
	const leaksBefore = secretWatch.leaks.length;
	const continued = await engine.runNode(parameters, { items, continueOnFail: true });
	const stopped = await engine.runNode(parameters, { items });
	secretWatch.scanRun(`${name} continued`, continued);
	secretWatch.scanRun(`${name} stopped`, stopped);
	secretWatch.scanLogs();
	const errorItems = continued.items.filter((output) => output.json.error !== undefined);
	return { leaks: secretWatch.leaks.slice(leaksBefore), errorItems, messages: [...errorItems.map((output) => String(output.json.error)), stopped.error?.message] };
}

describe('a service that quotes the request back in its 400 answer', () => {
	const ctx = useSandbox();
	let front: Front;
	let engine: Engine;
	let userId: string;

	beforeAll(async () => {
		front = await startFront(ctx.sandbox.url);
		engine = new Engine({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		userId = ctx.sandbox.store.createUser({ ...person('quoted.existing@example.com'), password: 'old-secret' }).id;
		front.rules.push(
			{ method: 'POST', path: '/api/users', answer: 'quoteRequest' },
			{ method: 'PUT', path: `/api/users/${userId}`, answer: 'quoteRequest' },
			{ method: 'PATCH', path: `/api/users/${userId}`, answer: 'quoteRequest' },
		);
		secretWatch.captureLogs();
		secretWatch.watchSandbox(ctx.sandbox);
		// The password's own text, and its parts as they stand in a quoted body.
		for (const secret of [PASSWORD, 'Horse', 'Battery-51', SHORT_PASSWORD]) secretWatch.addSecret(secret);
	});
	afterAll(() => front.close());

	const cases: Array<[string, INodeParameters, IDataObject[]]> = [
		['User Create', { resource: 'user', operation: 'create', ...person('quoted.create@example.com'), additionalFields: { password: PASSWORD } }, [{}, {}]],
		['User Replace', { resource: 'user', operation: 'replace', userId: byId('placeholder'), ...person('quoted.replace@example.com'), additionalFields: { password: PASSWORD } }, [{}, {}]],
		['User Update', { resource: 'user', operation: 'update', userId: byId('placeholder'), updateFields: { password: PASSWORD } }, [{}, {}]],
		['User Update, short password', { resource: 'user', operation: 'update', userId: byId('placeholder'), updateFields: { password: SHORT_PASSWORD } }, [{}, {}]],
		[
			'User Update, JSON Patch by hand',
			{ resource: 'user', operation: 'update', userId: byId('placeholder'), patchMode: 'jsonPatch', jsonPatch: JSON.stringify([{ op: 'replace', path: '/password', value: PASSWORD }]) },
			[{}, {}],
		],
		[
			'User Update, JSON Patch by hand, the field named in another case (as ASP.NET reads it)',
			{ resource: 'user', operation: 'update', userId: byId('placeholder'), patchMode: 'jsonPatch', jsonPatch: JSON.stringify([{ op: 'add', path: '/Password', value: PASSWORD }]) },
			[{}, {}],
		],
		['User Upsert (new users)', { resource: 'user', operation: 'upsert', ...fromRow, additionalFields: { password: PASSWORD } }, [person('quoted.upsert1@example.com'), person('quoted.upsert2@example.com')]],
		[
			'User Sync (joiners)',
			{
				resource: 'user',
				operation: 'sync',
				mode: 'apply',
				scopeTagValue: 'quoted-sync',
				...fromRow,
				additionalFields: { password: PASSWORD },
			},
			[person('quoted.sync1@example.com'), person('quoted.sync2@example.com')],
		],
	];

	it.each(cases)('%s: the error says what the service answered, with no secret in it, with and without Continue On Fail', async (name, parameters, items) => {
		const withUser = JSON.parse(JSON.stringify(parameters).replace('"placeholder"', JSON.stringify(userId))) as INodeParameters;

		const { leaks, errorItems, messages } = await runBothWays(engine, name, withUser, items);

		expect(leaks).toEqual([]);
		expect(errorItems).toHaveLength(2);
		for (const message of messages) {
			expect(message).toMatch(/^The tracking API answered 400: Bad request: \{"headers":.*"authorization":"Bearer \[redacted\]".*"body":.*\[redacted\]/);
		}
	});
});

describe('a service that quotes the password back as other software writes it', () => {
	const ctx = useSandbox();
	let front: Front;
	let engine: Engine;
	let userId: string;

	// Not ASCII, with spaces: a form writes it `Gr%C3%BC%C3%9Fe+an+Oma+%F0%9F%99%82`.
	const UNICODE_PASSWORD = 'Grüße an Oma 🙂';
	// Five characters: too short to take out wherever it stands, quoted as a message quotes a value.
	const SHORT_PASSWORD = 'Ab1!x';
	// An Update sends a JSON Patch: the operation on /password carries it.
	const passwordSent = (request: { body: string }) =>
		(JSON.parse(request.body) as Array<{ path: string; value: string }>).find((operation) => operation.path === '/password')?.value;
	const formEncoded = (request: { body: string }) => new URLSearchParams(JSON.parse(request.body) as Record<string, string>).toString();

	beforeAll(async () => {
		front = await startFront(ctx.sandbox.url);
		engine = new Engine({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
		userId = ctx.sandbox.store.createUser({ ...person('encoded.existing@example.com'), password: 'old-secret' }).id;
		front.rules.push(
			{ method: 'POST', path: '/api/users', answer: { status: 400, error: (request) => `Refused: ${formEncoded(request)}` } },
			{
				method: 'PATCH',
				path: `/api/users/${userId}`,
				answer: { status: 400, error: (request) => `The password '${passwordSent(request)}' is too short` },
			},
		);
		secretWatch.captureLogs();
		secretWatch.watchSandbox(ctx.sandbox);
		for (const secret of [UNICODE_PASSWORD, encodeURIComponent(UNICODE_PASSWORD), 'Gr%C3%BC%C3%9Fe+an+Oma', SHORT_PASSWORD]) secretWatch.addSecret(secret);
	});
	afterAll(() => front.close());

	it('User Create, the body quoted form-encoded (UTF-8 percent-encoding, + for a space): no password in any error, item, run data or log', async () => {
		const create = { resource: 'user', operation: 'create', ...person('encoded.create@example.com'), additionalFields: { password: UNICODE_PASSWORD } };

		const { leaks, errorItems, messages } = await runBothWays(engine, 'form-encoded', create, [{}]);

		expect(leaks).toEqual([]);
		expect(errorItems).toHaveLength(1);
		for (const message of messages) {
			expect(message).toMatch(/^The tracking API answered 400: Refused: .*&password=\[redacted\]/);
		}
	});

	it('User Update with a five-character password the service quotes in its message: taken out, with and without Continue On Fail', async () => {
		const update = { resource: 'user', operation: 'update', userId: byId(userId), updateFields: { password: SHORT_PASSWORD } };

		const { leaks, errorItems, messages } = await runBothWays(engine, 'short', update, [{}]);

		expect(leaks).toEqual([]);
		expect(errorItems).toHaveLength(1);
		for (const message of messages) {
			expect(message).toBe("The tracking API answered 400: The password '[redacted]' is too short");
		}
	});
});
