import { NodeOperationError, type IExecuteFunctions, type IPollFunctions } from 'n8n-workflow';

import type { DateRange } from './wire';
import { toIsoDateTime, toResourceId, type Check } from './validation';

type ParameterContext = IExecuteFunctions | IPollFunctions;

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

/** Reads a resource locator (`list` or `id` mode) and checks the id can travel in a path. */
export function getResourceId(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	const value = context.getNodeParameter(name, itemIndex, '', { extractValue: true });
	return checked(context, itemIndex, label, toResourceId(value));
}

export function getDateRange(context: IExecuteFunctions, itemIndex: number): DateRange {
	const from = checked(context, itemIndex, 'From', toIsoDateTime(context.getNodeParameter('from', itemIndex)));
	const to = checked(context, itemIndex, 'To', toIsoDateTime(context.getNodeParameter('to', itemIndex)));
	if (Date.parse(from) > Date.parse(to)) {
		throw invalidInput(context, itemIndex, 'From', `must not be after To (${from} > ${to})`);
	}
	return { from, to };
}
