import * as net from 'node:net';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox } from '../../sandbox/server';
import { generateSelfSignedCert } from '../../sandbox/tls';
import { TOKEN_PATH } from '../../nodes/shared/wire';
import { TOKEN_TIMEOUT_FIELD } from '../../nodes/shared/transport/token';
import { byId, useSandbox } from '../support/sandboxed';

/**
 * The credential dialog's Test says what a run says (issue 24): n8n's declarative test showed a bare
 * `ECONNREFUSED` for an unreachable Base URL once a token was stored, and "Invalid URL" for a Base
 * URL with a trailing space that every run trims.
 */
describe('credential Test', () => {
	const ctx = useSandbox();
	const stored = () => ctx.engine.credentials.read('cred-sandbox');

	beforeAll(async () => {
		// A working token is stored, as after the user's first successful Test or run.
		await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId('device001') });
		expect(stored().token).not.toBe('');
	});

	const test = async (changes: ICredentialDataDecryptedObject) => await ctx.engine.testCredential({ ...stored(), ...changes });

	it('passes with the sandbox key, and with a Base URL carrying spaces and a trailing slash, as runs accept it', async () => {
		expect(await test({})).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await test({ baseUrl: `  ${ctx.sandbox.url}/ ` })).toEqual({ status: 'OK', message: 'Connection successful!' });
		const run = await ctx.engine.runNode({ resource: 'device', operation: 'get', deviceId: byId('device001') });
		expect(run.error).toBeUndefined();
	});

	it("a wrong key shows the service's own text", async () => {
		expect(await test({ apiKey: 'wrong-key-123' })).toEqual({ status: 'Error', message: 'Authentication failed: Invalid API key or username.' });
	});

	it('an edited Base URL nothing listens on says the connection was refused there, over a stored token', async () => {
		const closed = await startSandbox({ port: 0 });
		const url = closed.url;
		await closed.close();
		const result = await test({ baseUrl: url });
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`Could not get an answer from the tracking API at ${url}${TOKEN_PATH}: the connection was refused. ` +
				'Check the Base URL in the credential (scheme, host, port and any path prefix), and that n8n can reach that address (firewall, proxy, VPN).',
		);
	});

	it('an unknown host says the host name was not found', async () => {
		const result = await test({ baseUrl: 'http://tracking.invalid' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Could not get an answer from the tracking API at http:\/\/tracking\.invalid\/api\/Auth\/Token: the host name (was not found|could not be resolved)\. Check the Base URL/);
	});

	it('a server that never answers says no answer came within the timeout', async () => {
		const sockets: net.Socket[] = [];
		const silent = net.createServer((socket) => sockets.push(socket));
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
		const { port } = silent.address() as net.AddressInfo;
		try {
			const result = await test({ baseUrl: `http://127.0.0.1:${port}`, [TOKEN_TIMEOUT_FIELD]: 300 });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(new RegExp(`^Could not get an answer from the tracking API at http://127.0.0.1:${port}/api/Auth/Token: no answer came within the timeout`));
		} finally {
			sockets.forEach((socket) => socket.destroy());
			silent.close();
		}
	});

	it('a self-signed certificate says so and names the switch that accepts it; with the switch on it passes', async () => {
		const tls = await startSandbox({ port: 0, https: generateSelfSignedCert() });
		try {
			const strict = await test({ baseUrl: tls.url, allowUnauthorizedCerts: false });
			expect(strict).toEqual({
				status: 'Error',
				message:
					"The server's TLS certificate could not be verified. If this is a test server with a self-signed certificate, turn on \"Allow Unauthorized Certificates\" in the credential.",
			});
			expect(await test({ baseUrl: tls.url, allowUnauthorizedCerts: true })).toEqual({ status: 'OK', message: 'Connection successful!' });
		} finally {
			await tls.close();
		}
	});

	it('a Base URL that is no web address says so instead of "Invalid URL"', async () => {
		expect(await test({ baseUrl: 'api.plaspy.com' })).toEqual({
			status: 'Error',
			message: 'The Base URL "api.plaspy.com" is not a web address. Enter it with its scheme, e.g. https://api.plaspy.com',
		});
	});

	it('never shows the key, even when the service quotes it back', async () => {
		const result = await test({ apiKey: DEMO_API_KEY.split('').reverse().join(''), userName: DEMO_USER_NAME });
		expect(result.message).not.toContain(DEMO_API_KEY.split('').reverse().join(''));
	});
});
