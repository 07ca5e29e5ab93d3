/**
 * The credential inside n8n's own HTTP Request node, loaded from the real n8n install the e2e caches
 * (n8n-nodes-base is not a dependency of this package). Skipped, saying why, when it is absent.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { ICredentialType, INode, INodeProperties, INodeType, IVersionedNodeType } from 'n8n-workflow';

import { SatelliteTrackingApi } from '../../credentials/SatelliteTrackingApi.credentials';
import { timeZones } from '../../sandbox/reference';
import { DEMO_API_KEY, DEMO_USER_NAME } from '../../sandbox/server';
import { CREDENTIAL_TYPE, ENDPOINTS } from '../../nodes/shared/wire';
import { registerNodeType } from '../support/engine';
import { startCatcher, startFront } from '../support/hostileHosts';
import { byId, useSandbox } from '../support/sandboxed';

const N8N_VERSION = '2.8.4';
const CACHE = process.env.SATELLITE_E2E_CACHE || join(homedir(), '.cache', 'n8n-nodes-satellite-tracking');
const HTTP_REQUEST_DIR = join(CACHE, `n8n-${N8N_VERSION}`, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest');
const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';
const HTTP_REQUEST_VERSION = 4.2;
const TIME_ZONES_ROUTE = `GET ${ENDPOINTS.listTimeZones.path}`;

const installed = existsSync(join(HTTP_REQUEST_DIR, 'HttpRequest.node.js'));

/**
 * The editor's rule for a `credentialsSelect` parameter (CredentialsSelect.vue, isSupported): a
 * credential type qualifies through `has:<field>` when its description sent to the editor has that
 * field, or `extends:<type>` when it extends that type. The description goes through the loader's
 * toJSON (n8n-core directory-loader.ts), which keeps a generic `authenticate` and turns a function
 * into `{}`.
 */
function offeredBy(parameter: INodeProperties, credential: ICredentialType): boolean {
	const { authenticate } = credential;
	const sent = JSON.parse(
		JSON.stringify({ ...credential, authenticate: typeof authenticate === 'function' ? {} : authenticate }),
	) as Record<string, unknown>;
	return (parameter.credentialTypes ?? []).some((rule) => {
		const [kind, name] = rule.split(':');
		if (kind === 'has') return sent[name] !== undefined && !(name === 'authenticate' && sent.genericAuth === true);
		return kind === 'extends' && Array.isArray(sent.extends) && sent.extends.includes(name);
	});
}

if (!installed) {
	const reason = `SKIPPED: the HTTP Request node of n8n ${N8N_VERSION} is not at ${HTTP_REQUEST_DIR}; \`bash scripts/e2e/install-n8n.sh 2.8\` installs it`;
	console.warn(reason);
	describe("credential in n8n's HTTP Request node", () => {
		it.skip(reason, () => undefined);
	});
} else {
	describe(`credential in n8n's HTTP Request node (n8n ${N8N_VERSION})`, () => {
		const ctx = useSandbox();
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { HttpRequest } = require(join(HTTP_REQUEST_DIR, 'HttpRequest.node.js')) as { HttpRequest: new () => IVersionedNodeType };
		const httpRequest: INodeType = new HttpRequest().getNodeType(HTTP_REQUEST_VERSION);

		beforeAll(() => registerNodeType(HTTP_REQUEST_TYPE, httpRequest));
		beforeEach(() => {
			ctx.engine.setCredential({ baseUrl: ctx.sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
			ctx.sandbox.resetStats();
		});

		const httpRequestNode = (url: string): INode => ({
			...ctx.engine.node('HTTP', HTTP_REQUEST_TYPE, {
				method: 'GET',
				url,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: CREDENTIAL_TYPE,
				options: {},
			}, [300, 0]),
			typeVersion: HTTP_REQUEST_VERSION,
		});

		const callTimeZones = async () => {
			const run = await ctx.engine.runWorkflow([httpRequestNode(`${ctx.sandbox.url}${ENDPOINTS.listTimeZones.path}`)]);
			const task = run.data.resultData.runData.HTTP?.[0];
			return { error: task?.error ?? run.data.resultData.error, items: task?.data?.main?.[0] ?? [] };
		};

		it('is offered under Predefined Credential Type, by the rule the editor applies', () => {
			const picker = httpRequest.description.properties.find((property) => property.name === 'nodeCredentialType')!;
			expect(picker.type).toBe('credentialsSelect');
			expect(offeredBy(picker, new SatelliteTrackingApi())).toBe(true);
			// The rule itself: a credential without authenticate (and no OAuth parent) is not offered.
			expect(offeredBy(picker, { ...new SatelliteTrackingApi(), authenticate: undefined })).toBe(false);
		});

		it('calls /api/users/timeZones with a token n8n exchanged through the credential, and stores it', async () => {
			const { error, items } = await callTimeZones();
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({ success: true, timeZones: timeZones() });
			expect(ctx.sandbox.stats.tokenCalls).toBe(1);
			expect(ctx.engine.storedToken).toBe(ctx.sandbox.issuedTokens.at(-1));
			const call = ctx.sandbox.requestLog.find((entry) => entry.route === TIME_ZONES_ROUTE);
			expect(call?.headers.authorization).toBe(`Bearer ${ctx.engine.storedToken}`);
		});

		it('reuses the token the Satellite Tracking node stored, in the same credential', async () => {
			const ownNode = await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId('device001') });
			expect(ownNode.error).toBeUndefined();
			const { error } = await callTimeZones();
			expect(error).toBeUndefined();
			expect(ctx.sandbox.stats.tokenCalls).toBe(1);
		});

		it('gets a new token once when the stored one is refused, and retries the call', async () => {
			await callTimeZones();
			const before = ctx.engine.storedToken;
			ctx.sandbox.revokeTokens();
			ctx.sandbox.resetStats();

			const { error, items } = await callTimeZones();

			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ success: true });
			expect(ctx.sandbox.stats.tokenCalls).toBe(1);
			expect(ctx.sandbox.stats.statusCounts['401']).toBe(1);
			expect(ctx.engine.storedToken).not.toBe(before);
			expect(ctx.engine.storedToken).toBe(ctx.sandbox.issuedTokens.at(-1));
		});

		it('follows a redirect to another host, as the node is set to, without the token', async () => {
			const front = await startFront(ctx.sandbox.url);
			const otherHost = await startCatcher({ host: '127.0.0.2' });
			try {
				front.rules.push({ method: 'GET', path: ENDPOINTS.listTimeZones.path, answer: { redirect: 302, location: `${otherHost.url}/elsewhere` } });
				ctx.engine.setCredential({ baseUrl: front.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });

				const run = await ctx.engine.runWorkflow([httpRequestNode(`${front.url}${ENDPOINTS.listTimeZones.path}`)]);

				expect(run.data.resultData.error).toBeUndefined();
				expect(front.received.find((request) => request.path === ENDPOINTS.listTimeZones.path)?.headers.authorization).toBe(`Bearer ${ctx.engine.storedToken}`);
				expect(otherHost.received.map((request) => [request.path, request.headers.authorization])).toEqual([['/elsewhere', undefined]]);
			} finally {
				await front.close();
				await otherHost.close();
			}
		});

		it('never sends a token fetched with another key: the call goes without it, and n8n fetches one for the key entered', async () => {
			await callTimeZones();
			const before = ctx.engine.storedToken;
			const data = ctx.engine.credentials.read('cred-sandbox');
			// The key was regenerated in the web app and pasted in: the service knows only the new one.
			ctx.sandbox.setOptions({ accounts: [{ userName: DEMO_USER_NAME, apiKey: 'regenerated-key' }] });
			ctx.engine.credentials.save({ id: 'cred-sandbox', name: 'Sandbox', type: CREDENTIAL_TYPE, data: { ...data, apiKey: 'regenerated-key' } });
			ctx.sandbox.resetStats();
			try {
				const { error, items } = await callTimeZones();

				expect(error).toBeUndefined();
				expect(items[0].json).toMatchObject({ success: true });
				expect(ctx.sandbox.requestLog.map((entry) => entry.headers.authorization)).not.toContain(`Bearer ${before}`);
				expect(ctx.sandbox.stats.tokenCalls).toBe(1);
			} finally {
				ctx.sandbox.setOptions({ accounts: [{ userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY }] });
			}
		});
	});
}
