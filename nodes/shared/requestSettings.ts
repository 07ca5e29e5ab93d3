import { NodeOperationError, type IDataObject, type INode, type INodeProperties } from 'n8n-workflow';

import { DEFAULT_NEAR_SHARE } from './notifications';
import { DEFAULT_TIMEOUT_SECONDS, MAX_RETRIES, type ClientOptions } from './transport';
import { toNumberInRange, type Check } from './validation';

// Enough in flight to outpace a typical per-account quota despite n8n's per-request overhead
// (about 30 ms here), so the quota, not the client, sets the pace; the pacer keeps it under.
export const DEFAULT_CONCURRENCY = 8;

const MAX_CONCURRENCY = 50;
const MAX_RETRY_LIMIT = 10;
/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one fires at once. */
const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

// The names below are stored in saved workflows: add, never rename (`maxConcurrency` shows as
// "Max Concurrent Requests", and is `maxConcurrency` in the transport too).
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
			typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
			default: DEFAULT_CONCURRENCY,
			description: 'How many requests may be under way at once. On a 429 answer the node halves this for a while and pauses all requests.',
		},
		{
			displayName: 'Max Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Cap on requests the account is sent in any 60-second window, counting every workflow in this n8n process that uses the same credential; 0 for no cap. Set it below the account quota to never see a 429.',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_RETRY_LIMIT },
			default: MAX_RETRIES,
			description:
				'How often to resend a request the service asked to retry (429, 503), and a read that failed on the way (lost connection, 5xx). Writes that may have been applied are never resent.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_SECONDS },
			default: DEFAULT_TIMEOUT_SECONDS,
			description: 'How long to wait for one answer, the token exchange included, before giving up on it',
		},
	],
};

/** The action node's Request Settings: the shared ones, and what its usage hint after a run compares with. */
export const actionRequestSettings: INodeProperties = {
	...requestSettings,
	options: [
		...(requestSettings.options ?? []),
		{
			displayName: 'Daily Request Limit',
			name: 'dailyRequestLimit',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				"The account's daily request allowance, if your provider gave you one; 0 for none. After a run the node shows the day's usage the service reports, with a warning once it reaches Warn at Share of this.",
		},
		{
			displayName: 'Warn at Share of Daily Limit',
			name: 'dailyLimitWarnShare',
			type: 'number',
			typeOptions: { minValue: 0.01, maxValue: 1, numberPrecision: 2 },
			default: DEFAULT_NEAR_SHARE,
			description: 'Warn when the day\'s usage reaches this share of the Daily Request Limit, e.g. 0.8 for 80%',
		},
	],
};

export interface RequestSettings extends ClientOptions {
	/** Undefined when the user entered none. */
	dailyRequestLimit?: number;
	dailyLimitWarnShare: number;
}

/**
 * The Request Settings collection, checked: both nodes read it here, so a value from an
 * expression ("abc", -1) is refused by name instead of stalling the pacer or timing out at NaN.
 */
export function readRequestSettings(node: INode, settings: IDataObject): RequestSettings {
	const read = (label: string, value: unknown, fallback: number, check: (value: unknown) => Check<number>): number => {
		if (value === undefined || value === null || value === '') return fallback;
		const result = check(value);
		if (!result.ok) throw new NodeOperationError(node, `Invalid "${label}": ${label} ${result.problem}`);
		return result.value;
	};
	const dailyRequestLimit = read('Daily Request Limit', settings.dailyRequestLimit, 0, atLeast(0));
	return {
		maxConcurrency: read('Max Concurrent Requests', settings.maxConcurrency, DEFAULT_CONCURRENCY, wholeBetween(1, MAX_CONCURRENCY)),
		requestsPerMinute: read('Max Requests per Minute', settings.requestsPerMinute, 0, noneOrAtLeastOne),
		maxRetries: read('Max Retries', settings.maxRetries, MAX_RETRIES, wholeBetween(0, MAX_RETRY_LIMIT)),
		timeoutMs:
			read('Timeout (Seconds)', settings.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS, above(0, MAX_TIMEOUT_SECONDS)) * 1000,
		dailyRequestLimit: dailyRequestLimit > 0 ? dailyRequestLimit : undefined,
		dailyLimitWarnShare: read('Warn at Share of Daily Limit', settings.dailyLimitWarnShare, DEFAULT_NEAR_SHARE, above(0, 1)),
	};
}

const atLeast = (min: number) => (value: unknown) => toNumberInRange(value, min, Infinity);

/** A cap counts whole requests in a minute: below one would be no cap at all, which is not what was asked. */
function noneOrAtLeastOne(value: unknown): Check<number> {
	const number = toNumberInRange(value, 0, Infinity);
	if (!number.ok || number.value === 0 || number.value >= 1) return number;
	return { ok: false, problem: `must be 0 (no cap) or at least 1 (got ${number.value})` };
}

function wholeBetween(min: number, max: number) {
	return (value: unknown): Check<number> => {
		const number = toNumberInRange(value, min, max);
		if (!number.ok || Number.isInteger(number.value)) return number;
		return { ok: false, problem: `must be a whole number (got ${number.value})` };
	};
}

/** Above `min` (exclusive), at most `max`. */
function above(min: number, max = Infinity) {
	return (value: unknown): Check<number> => {
		const number = toNumberInRange(value, -Infinity, Infinity);
		if (!number.ok || (number.value > min && number.value <= max)) return number;
		const range = max === Infinity ? `above ${min}` : `above ${min} and at most ${max}`;
		return { ok: false, problem: `must be ${range} (got ${number.value})` };
	};
}
