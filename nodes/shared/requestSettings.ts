import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { MAX_RETRIES, type ClientOptions } from './transport';

// Enough in flight to outpace a typical per-account quota despite n8n's per-request overhead
// (about 30 ms here), so the quota, not the client, sets the pace; the pacer keeps it under.
export const DEFAULT_CONCURRENCY = 8;

export const requestSettings: INodeProperties = {
	displayName: 'Request Settings',
	name: 'requestSettings',
	type: 'collection',
	placeholder: 'Add Setting',
	default: {},
	description: "How this node spends the account's request quota",
	options: [
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: DEFAULT_CONCURRENCY,
			description: 'How many requests may be under way at once. On a 429 answer the node halves this for a while and pauses all requests.',
		},
		{
			displayName: 'Max Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'Cap on requests this node sends in any 60-second window; 0 for no cap. Set it below the account quota to never see a 429.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: MAX_RETRIES,
			description:
				'How often to resend a request the service asked to retry (429, 503), and a read that failed on the way (lost connection, 5xx). Writes that may have been applied are never resent.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'How long to wait for one answer before giving up on it',
		},
	],
};

export function readRequestSettings(context: IExecuteFunctions): ClientOptions {
	return clientOptions(context.getNodeParameter('requestSettings', 0, {}) as IDataObject);
}

/** The transport's options from a Request Settings collection; the trigger reads the same collection. */
export function clientOptions(settings: IDataObject): ClientOptions {
	return {
		maxConcurrent: Number(settings.maxConcurrency ?? DEFAULT_CONCURRENCY),
		requestsPerMinute: Number(settings.requestsPerMinute ?? 0),
		timeoutMs: Number(settings.timeoutSeconds ?? 30) * 1000,
		maxRetries: Number(settings.maxRetries ?? MAX_RETRIES),
	};
}
