/**
 * Issue 47 item 9 on a host that has it: n8n 2.41's NodeApiError and NodeOperationError take a
 * `failure` option, and n8n's durable scheduler reads a failed poll's cause and wait from it
 * (pollFailureFromError, packages/cli/src/workflows/triggers/poll-backoff-policy.ts). The trigger polls
 * in n8n 2.41.1's own n8n-core and n8n-workflow (jest.host.config.js) against the sandbox; n8n's own
 * reader, loaded from the same install, says how the scheduler takes each failure, and
 * test/host/n8nWorkflow.ts says whether the failure reached n8n's constructor as its option.
 */
import { join } from 'node:path';

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
	/** How n8n 2.41's scheduler reads `error`, and the `failure` option n8n's error constructor was given. */
	const asN8nReadsIt = (error: Error & { failure?: unknown }) => ({
		read: pollFailureFromError(error, new Date()),
		option: hostWorkflow.failureOptionGiven(error),
		failure: error.failure,
		isN8nError: error instanceof hostWorkflow.NodeApiError || error instanceof hostWorkflow.NodeOperationError,
	});

	describe(`a failed poll as n8n ${HOST_N8N_VERSION}'s scheduler reads it, declared through n8n's failure option`, () => {
		it('runs in that n8n', () => {
			expect(require.resolve('n8n-core')).toContain(HOST_MODULES);
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			expect((require(join(HOST_MODULES, 'n8n-core', 'package.json')) as { version: string }).version).toBe(HOST_N8N_VERSION);
			expect((hostWorkflow as { ACTIONABLE_CAUSES?: unknown }).ACTIONABLE_CAUSES).toContain('configuration-invalid');
		});

		it('a 500: an outage, retried on n8n\'s curve', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				h.sandbox.faults.inject({ match: { path: /\/lastLocation$/ }, kind: 'status', status: 500 });
				const error = await failedPoll(h, { events: ['locationUpdated'], requestSettings: { maxRetries: 0 } });
				expect(asN8nReadsIt(error)).toEqual({
					read: { type: 'transient', retryAfterMs: null, cause: 'temporarily-unavailable' },
					option: { cause: 'temporarily-unavailable' },
					failure: { cause: 'temporarily-unavailable' },
					isN8nError: true,
				});
			});
		});

		it('a 429 with Retry-After: rate-limited, after the wait the service asked', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				h.sandbox.faults.inject({ match: { path: /\/lastLocation$/ }, kind: 'status', status: 429, retryAfter: 600 });
				const error = await failedPoll(h, { events: ['locationUpdated'], requestSettings: { maxPollSeconds: 2 } });
				expect(asN8nReadsIt(error)).toEqual({
					read: { type: 'transient', retryAfterMs: 600_000, cause: 'rate-limited' },
					option: { cause: 'rate-limited', retryAfterMs: 600_000 },
					failure: { cause: 'rate-limited', retryAfterMs: 600_000 },
					isN8nError: true,
				});
			});
		});

		it('a 200 carrying the vendor\'s error envelope "Internal Server Error": an outage, not a node defect', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				h.sandbox.faults.inject({ match: { path: /\/lastLocation$/ }, kind: 'successFalse200', message: 'Internal Server Error' });
				const error = await failedPoll(h, { events: ['locationUpdated'], requestSettings: { maxRetries: 0 } });
				expect(error.message).toMatch(/Internal Server Error/);
				expect(asN8nReadsIt(error)).toEqual({
					read: { type: 'transient', retryAfterMs: null, cause: 'temporarily-unavailable' },
					option: { cause: 'temporarily-unavailable' },
					failure: { cause: 'temporarily-unavailable' },
					isN8nError: true,
				});
			});
		});

		it('a refused token: the credential, permanent until the user reconnects it', async () => {
			await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
				h.sandbox.faults.inject({ match: { path: '/api/Auth/Token' }, kind: 'status', status: 401, message: 'Invalid API key' });
				const error = await failedPoll(h, { events: ['locationUpdated'] });
				expect(asN8nReadsIt(error)).toEqual({
					read: { type: 'permanent', retryAfterMs: null, cause: 'credential-invalid' },
					option: { cause: 'credential-invalid' },
					failure: { cause: 'credential-invalid' },
					isN8nError: true,
				});
			});
		});

		it('a NodeOperationError (a device group that no longer exists): the configuration, permanent', async () => {
			await withTriggerSandbox({ deviceCount: 2 }, async (h) => {
				const error = await failedPoll(h, { events: ['locationUpdated'], deviceSelection: 'group', groupId: { __rl: true, mode: 'id', value: 'grp-999' } });
				expect(error).toBeInstanceOf(hostWorkflow.NodeOperationError);
				expect(asN8nReadsIt(error)).toEqual({
					read: { type: 'permanent', retryAfterMs: null, cause: 'configuration-invalid' },
					option: { cause: 'configuration-invalid' },
					failure: { cause: 'configuration-invalid' },
					isN8nError: true,
				});
			});
		});
	});
}
