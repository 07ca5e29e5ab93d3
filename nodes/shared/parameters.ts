import { NodeOperationError, type IExecuteFunctions, type IGetNodeParameterOptions, type INode, type IPollFunctions, type NodeParameterValueType } from 'n8n-workflow';

import type { DateRange } from './wire';
import { toIsoDateTime, toResourceId, type Check } from './validation';

type ParameterContext = IExecuteFunctions | IPollFunctions;

const runNodes = new WeakMap<ParameterContext, INode>();

/**
 * The node of this run, read once: n8n's getNode() deep-copies the node on every call, and asking
 * its type or version for each item cost some 12 µs an item (a profile of bench P2). A run's node
 * does not change while it runs; each run has its own context.
 */
export function runNode(context: ParameterContext): INode {
	let node = runNodes.get(context);
	if (node === undefined) {
		node = context.getNode();
		runNodes.set(context, node);
	}
	return node;
}

/** A NodeOperationError that names the item and the field, as users need to find the bad input. */
export function invalidInput(
	context: ParameterContext,
	itemIndex: number,
	label: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Invalid "${label}" in item ${itemIndex}: ${label} ${problem}`, {
		itemIndex,
	});
}

export function checked<T>(context: ParameterContext, itemIndex: number, label: string, check: Check<T>): T {
	if (!check.ok) throw invalidInput(context, itemIndex, label, check.problem);
	return check.value;
}

/** The whole value is one field of the input item: `={{ $json.email }}`. */
const ITEM_FIELD = /^=\{\{\s*\$json\.([A-Za-z_$][\w$]*)\s*\}\}$/;

function itemFieldOf(raw: unknown): string | undefined {
	// A resource locator by id holds the expression as its value.
	const value = typeof raw === 'object' && raw !== null && (raw as { __rl?: unknown; mode?: unknown }).__rl === true && (raw as { mode?: unknown }).mode === 'id'
		? (raw as { value?: unknown }).value
		: raw;
	return typeof value === 'string' ? ITEM_FIELD.exec(value)?.[1] : undefined;
}

/**
 * A parameter's value for one item. Workflows mostly map a column straight in (`{{ $json.email }}`),
 * and n8n's expression engine builds a whole data proxy for each such value: profiled, four per
 * item made an upsert of 10,000 rows take twice the time of its 4,000 requests. When the field is
 * the item's own text, number or boolean, that is what n8n resolves it to, so it is read from the
 * item; anything else (a missing field, an object, any other expression) goes through n8n.
 */
export function getParameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: NodeParameterValueType,
	options?: IGetNodeParameterOptions,
): NodeParameterValueType | object {
	const field = itemFieldOf(context.getNodeParameter(name, itemIndex, fallback, { rawExpressions: true }));
	if (field !== undefined) {
		const json = context.getInputData()[itemIndex]?.json;
		const value = json !== undefined && Object.prototype.hasOwnProperty.call(json, field) ? json[field] : undefined;
		if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
	}
	return context.getNodeParameter(name, itemIndex, fallback, options);
}

/** Reads a resource locator (`list` or `id` mode) and checks the id can travel in a path. */
export function getResourceId(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = getParameter(context, name, itemIndex, '', { extractValue: true });
	return checked(context, itemIndex, label, toResourceId(value));
}

/**
 * From and To as ISO UTC. `zoneless`: how a date-time without a zone is read (node version 2.2: in the
 * workflow's time zone, as n8n's date picker shows it); UTC without it.
 */
export function getDateRange(context: IExecuteFunctions, itemIndex: number, zoneless?: (utcFieldsMs: number) => number): DateRange {
	const from = checked(context, itemIndex, 'From', toIsoDateTime(context.getNodeParameter('from', itemIndex), zoneless));
	const to = checked(context, itemIndex, 'To', toIsoDateTime(context.getNodeParameter('to', itemIndex), zoneless));
	if (Date.parse(from) > Date.parse(to)) {
		throw invalidInput(context, itemIndex, 'From', `must not be after To (${from} > ${to})`);
	}
	return { from, to };
}
