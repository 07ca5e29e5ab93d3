/**
 * R5: the sandbox over HTTPS with a self-signed certificate made at test time. The default
 * credential refuses it with a message that says what is wrong and which switch accepts it; with
 * Allow Unauthorized Certificates on, the token call and the API calls go through.
 */
import { generateSelfSignedCert } from '../../sandbox/tls';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox } from '../../sandbox/server';
import { Engine } from '../support/engine';
import { byId } from '../support/sandboxed';
import { areaWallClock, secretWatch, summary } from './support';

const TOKEN_ROUTE = 'POST /api/Auth/Token';

export function describeTls(): void {
	describe('R5 TLS: a self-signed certificate', () => {
		let sandbox: Sandbox;
		const wall = areaWallClock();
		const figures = { refused: 0, refusedRequestsReached: 0, acceptedCalls: 0, message: '' };

		beforeAll(async () => {
			sandbox = await startSandbox({ port: 0, https: generateSelfSignedCert() });
			secretWatch.watchSandbox(sandbox);
		});
		beforeEach(() => sandbox.resetStats());
		afterAll(async () => {
			await sandbox?.close();
			summary(
				`R5 TLS: ${sandbox?.url.split(':')[0]} sandbox with a self-signed certificate; default credential refused=${figures.refused} ` +
					`(requests that reached the server: ${figures.refusedRequestsReached}, message: "${figures.message}"); ` +
					`with Allow Unauthorized Certificates: calls answered 200=${figures.acceptedCalls} wall=${wall()} s`,
			);
		});

		const engine = (allowUnauthorizedCerts: boolean) =>
			new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY, allowUnauthorizedCerts });

		it('the default credential refuses it, saying the certificate could not be verified and which switch accepts it', async () => {
			const strict = engine(false);
			const withItems = await strict.runNode(
				{ resource: 'device', operation: 'get', deviceId: byId('device001') },
				{ items: [{}, {}], continueOnFail: true },
			);
			const stopped = await strict.runNode({ resource: 'device', operation: 'get', deviceId: byId('device001') });
			secretWatch.scanRun('R5 refused items', withItems);
			secretWatch.scanRun('R5 refused stop', stopped);

			expect(sandbox.url).toMatch(/^https:/);
			expect(withItems.items).toHaveLength(2);
			for (const { json } of withItems.items) {
				expect(json.error).toBe("The server's TLS certificate could not be verified");
				expect(json.description).toMatch(/self-signed certificate.*"Allow Unauthorized Certificates"/);
			}
			expect(stopped.error?.message).toBe("The server's TLS certificate could not be verified");
			expect(stopped.error?.description).toContain('Allow Unauthorized Certificates');
			// The handshake failed: not even the token call reached the service.
			expect(sandbox.stats.requests).toBe(0);
			figures.refused += withItems.items.length + 1;
			figures.refusedRequestsReached += sandbox.stats.requests;
			figures.message = `${String(withItems.items[0].json.error)} — ${String(withItems.items[0].json.description)}`;
		});

		it('the trigger says the same when it polls', async () => {
			await expect(engine(false).poll({ events: ['locationUpdated'] }, {})).rejects.toThrow(
				"The server's TLS certificate could not be verified",
			);
			expect(sandbox.stats.requests).toBe(0);
			figures.refused++;
		});

		it('with Allow Unauthorized Certificates, the token call, reads, writes and the trigger go through', async () => {
			const lenient = engine(true);
			const read = await lenient.runNode({ resource: 'device', operation: 'get', deviceId: byId('device001') });
			const write = await lenient.runNode({ resource: 'device', operation: 'sendCommand', deviceId: byId('device001'), command: 'PING' });
			const polled = await lenient.poll({ events: ['locationUpdated'], options: { emitCurrentState: true } }, {});
			secretWatch.scanRun('R5 accepted read', read);
			secretWatch.scanRun('R5 accepted write', write);
			secretWatch.scan('R5 accepted poll', polled);

			expect(read.error).toBeUndefined();
			expect(read.items[0].json).toMatchObject({ id: 'device001' });
			expect(write.items[0].json).toMatchObject({ deviceId: 'device001', result: expect.any(String) });
			expect(polled?.[0].length).toBeGreaterThan(0);
			const routes = sandbox.requestLog.map((entry) => `${entry.route} ${entry.status}`);
			expect(routes).toContain(`${TOKEN_ROUTE} 200`);
			expect(routes).toContain('GET /api/devices/{deviceId} 200');
			expect(routes).toContain('POST /api/devices/{deviceId}/sendCommand 200');
			expect(sandbox.requestLog.every((entry) => entry.status === 200)).toBe(true);
			figures.acceptedCalls += sandbox.requestLog.length;
		});
	});
}
