/**
 * Issue 47 item 9 on a host that has it: n8n 2.41's NodeApiError and NodeOperationError take a
 * `failure` option, and n8n's durable scheduler reads a failed poll's cause and wait from it
 * (pollFailureFromError, packages/cli/src/workflows/triggers/poll-backoff-policy.ts). The trigger polls
 * in n8n 2.41.1's own n8n-core and n8n-workflow (jest.host.config.js) against the sandbox; n8n's own
 * reader, loaded from the same install, says how the scheduler takes each failure, and
 * test/host/n8nWorkflow.ts says whether the failure reached n8n's constructor as its option.
 */
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { withTriggerSandbox, type TriggerHarness } from '../support/trigger';
import { HOST_MODULES, HOST_N8N_VERSION, hostInstalled, hostRequired } from './host';

/** n8n's reading of a failed poll: permanent (a 30-minute backoff) or transient, after how long, why. */
interface PollFailure {
	type: 'permanent' | 'transient';
	retryAfterMs: number | null;
	cause?: string;
}

const failedPoll = async (h: TriggerHarness, parameters: Parameters<TriggerHarness['poll']>[0]) =>
	await h.poll(parameters, {}).then(
		() => {
			throw new Error('the poll did not fail');
		},
		(thrown: Error & { failure?: unknown }) => thrown,
	);

if (!hostInstalled) {
	const reason = `SKIPPED: n8n ${HOST_N8N_VERSION} is not installed at ${HOST_MODULES}; \`bash scripts/e2e/install.sh ${HOST_N8N_VERSION.replace(/\.\d+$/, '')}\` installs it`;
	if (hostRequired) {
		it(`n8n ${HOST_N8N_VERSION} is installed (SATELLITE_HOST_SUITES_REQUIRED=1: .ci/run installs it before this suite)`, () => {
			throw new Error(reason);
		});
	} else {
		console.warn(reason);
		it.skip(reason, () => undefined);
	}
} else {
	// Loaded only with the install there: they read from it.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const hostWorkflow = require('./n8nWorkflow') as typeof import('./n8nWorkflow');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { pollFailureFromError } = require(join(HOST_MODULES, 'n8n', 'dist', 'workflows', 'triggers', 'poll-backoff-policy.js')) as {
		pollFailureFromError: (error: unknown, now: Date) => PollFailure;
	};
	/**
	 * How n8n's scheduler reads `error`, and the `failure` option n8n's error constructor was given for
	 * it, against what a declared `failure` should come to.
	 */
	const expectReadAs = (error: Error & { failure?: unknown }, failure: { cause: string; retryAfterMs?: number }, type: PollFailure['type']) =>
		expect({
			read: pollFailureFromError(error, new Date()),
			option: hostWorkflow.failureOptionGiven(error),
			failure: error.failure,
			isN8nError: error instanceof hostWorkflow.NodeApiError || error instanceof hostWorkflow.NodeOperationError,
		}).toEqual({ read: { type, retryAfterMs: failure.retryAfterMs ?? null, cause: failure.cause }, option: failure, failure, isN8nError: true });

	const LAST_LOCATION = { path: /\/lastLocation$/ };
	const NO_RETRIES: INodeParameters = { events: ['locationUpdated'], requestSettings: { maxRetries: 0 } };
	type Sandbox = TriggerHarness['sandbox'];
	/** What the poll meets, its parameters, the failure it should declare, and how n8n should take that. */
	type Case = [string, (sandbox: Sandbox) => unknown, INodeParameters, { cause: string; retryAfterMs?: number }, PollFailure['type']];

	describe(`a failed poll as n8n ${HOST_N8N_VERSION}'s scheduler reads it, declared through n8n's failure option`, () => {
		it('runs in that n8n', () => {
			expect(require.resolve('n8n-core')).toContain(HOST_MODULES);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			expect((require(join(HOST_MODULES, 'n8n-core', 'package.json')) as { version: string }).version).toBe(HOST_N8N_VERSION);
			expect((hostWorkflow as { ACTIONABLE_CAUSES?: unknown }).ACTIONABLE_CAUSES).toContain('configuration-invalid');
		});

		it.each<Case>([
			["a 500: an outage, retried on n8n's curve", (sandbox: Sandbox) => sandbox.faults.inject({ match: LAST_LOCATION, kind: 'status', status: 500 }), NO_RETRIES, { cause: 'temporarily-unavailable' }, 'transient'],
			[
				'a 429 with Retry-After: rate-limited, after the wait the service asked',
				(sandbox: Sandbox) => sandbox.faults.inject({ match: LAST_LOCATION, kind: 'status', status: 429, retryAfter: 600 }),
				{ events: ['locationUpdated'], requestSettings: { maxPollSeconds: 2 } },
				{ cause: 'rate-limited', retryAfterMs: 600_000 },
				'transient',
			],
			[
				'a 200 carrying the vendor\'s error envelope "Internal Server Error": an outage, not a node defect',
				(sandbox: Sandbox) => sandbox.faults.inject({ match: LAST_LOCATION, kind: 'successFalse200', message: 'Internal Server Error' }),
				NO_RETRIES,
				{ cause: 'temporarily-unavailable' },
				'transient',
			],
			[
				'a refused token: the credential, permanent until the user reconnects it',
				(sandbox: Sandbox) => sandbox.faults.inject({ match: { path: '/api/Auth/Token' }, kind: 'status', status: 401, message: 'Invalid API key' }),
				{ events: ['locationUpdated'] },
				{ cause: 'credential-invalid' },
				'permanent',
			],
			[
				'a NodeOperationError (a device group that no longer exists): the configuration, permanent',
				() => undefined,
				{ events: ['locationUpdated'], deviceSelection: 'group', groupId: { __rl: true, mode: 'id', value: 'grp-999' } },
				{ cause: 'configuration-invalid' },
				'permanent',
			],
		])('%s', async (_, fault, parameters, failure, type) => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				fault(h.sandbox);
				expectReadAs(await failedPoll(h, parameters), failure, type);
			});
		});

		it('the vendor envelope\'s own text stays the message', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				h.sandbox.faults.inject({ match: LAST_LOCATION, kind: 'successFalse200', message: 'Internal Server Error' });
				const error = await failedPoll(h, NO_RETRIES);
				expect(error.message).toMatch(/Internal Server Error/);
				expect(error).toBeInstanceOf(hostWorkflow.NodeApiError);
			});
		});

		it('the group gone is n8n\'s NodeOperationError', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				const error = await failedPoll(h, { events: ['locationUpdated'], deviceSelection: 'group', groupId: { __rl: true, mode: 'id', value: 'grp-999' } });
				expect(error).toBeInstanceOf(hostWorkflow.NodeOperationError);
			});
		});
	});
}
