import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked } from '../../shared/parameters';
import { parseServiceTime, toNumberInRange } from '../../shared/validation';
import { keepsNewest, rememberTotal } from './toolMode';

// n8n's lint wants the Limit default written as the literal 50 here; readLimit falls back to it.
const limitProperty: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitProperty,
];

/**
 * How many results an item asks for: Infinity with Return All. Read before the request, so that a
 * Limit of 0, -5 or "ten" from an expression is an error rather than a silent empty result.
 */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number {
	if (context.getNodeParameter('returnAll', itemIndex, false) === true) return Infinity;
	const limit = checked(context, itemIndex, 'Limit', toNumberInRange(context.getNodeParameter('limit', itemIndex, limitProperty.default), 1, Number.MAX_SAFE_INTEGER));
	return Math.floor(limit);
}

/** The API has no paging: lists come whole, and Limit trims them here, keeping their first results. */
export function applyLimit<T>(results: T[], limit: number): T[] {
	return limit >= results.length ? results : rememberTotal(results.slice(0, limit), results.length);
}

/** Limit over a date range: its oldest or its newest results (version 2.1), in time order either way. */
export function applyLimitOfRange<T extends { dateTime?: unknown }>(results: T[], limit: number, keepNewest: boolean): T[] {
	if (!keepNewest) return applyLimit(results, limit);
	const at = (result: T) => (typeof result.dateTime === 'string' ? parseServiceTime(result.dateTime) : NaN);
	// The vendor documents no order; a result without a readable time sorts first, so it is never taken for the newest.
	// A whole range stays in the service's order; a model's cap (toolResults) keeps its newest too.
	if (limit >= results.length) return keepsNewest(results);
	const inTimeOrder = [...results].sort((a, b) => (Number.isNaN(at(a)) ? -Infinity : at(a)) - (Number.isNaN(at(b)) ? -Infinity : at(b)));
	return keepsNewest(rememberTotal(inTimeOrder.slice(-limit), results.length));
}

/**
 * The last 24 hours unless the user says otherwise: a new node can run as it is instead of opening
 * with two empty, red fields. Expressions, so each run reads the range up to its own now.
 */
export const dateRange: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '={{ $now.minus({ hours: 24 }).toISO() }}',
		required: true,
		description: 'Start of the range (inclusive); by default 24 hours ago. Dates without a time zone are read as UTC.',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '={{ $now.toISO() }}',
		required: true,
		description: 'End of the range (inclusive); by default now',
	},
];

/** A date range comes whole from the API, so a Limit silently leaves out the rest of it: say so. */
export const returnAllAndLimitOfRange: INodeProperties[] = returnAllAndLimit.flatMap((property) =>
	property.name === 'limit'
		? [
				{
					...property,
					hint: 'Only the first results of the range are returned; turn on Return All to get the rest',
					displayOptions: { show: { ...property.displayOptions?.show, '@version': [{ _cnd: { lt: 2.1 } }] } },
				},
				{
					...property,
					hint: 'The newest results of the range are returned, oldest first; turn on Return All to get the rest',
					displayOptions: { show: { ...property.displayOptions?.show, '@version': [{ _cnd: { gte: 2.1 } }] } },
				},
			]
		: [property],
);

/** Tags and attributes are string maps on the wire; the UI edits them as key/value rows. */
export function keyValueCollection(name: string, label: string, description: string): INodeProperties {
	return {
		displayName: label,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description,
		options: [
			{
				displayName: 'Entry',
				name: 'entries',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

export function keyValueMap(collection: unknown): Record<string, string> {
	const entries = ((collection as IDataObject | undefined)?.entries ?? []) as Array<{ key?: unknown; value?: unknown }>;
	return Object.fromEntries(
		entries.filter((entry) => String(entry.key ?? '').trim() !== '').map((entry) => [String(entry.key).trim(), String(entry.value ?? '')]),
	);
}

/** The Name Contains filter of a getAll; `things` is the plural the description speaks of. */
export function nameContainsFilter(things: string): INodeProperties {
	return {
		displayName: 'Name Contains',
		name: 'nameContains',
		type: 'string',
		default: '',
		description: `Only ${things} whose name contains this text (case-insensitive)`,
	};
}
