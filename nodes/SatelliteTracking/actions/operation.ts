import {
	updateDisplayOptions,
	type IBinaryKeyData,
	type IExecuteFunctions,
	type INodeProperties,
	type INodePropertyOptions,
	type NodeApiError,
	type NodeOperationError,
} from 'n8n-workflow';

import type { TrackingApiClient } from '../../shared/transport';

/** What one input item turns into: one result, several, or none. */
export type ItemResult = object | object[];

/** A result with files: n8n binary data (from `helpers.prepareBinaryData`) beside its JSON. */
export class WithBinary {
	constructor(
		readonly json: object,
		readonly binary: IBinaryKeyData,
	) {}
}

/** How an operation shows in the Operation picker; its value is its key in the resource's map. */
export interface OperationOption {
	name: string;
	description: string;
	action: string;
}

/**
 * One operation: its parameters and what it does with one input item. The item loop,
 * concurrency, pairing and Continue On Fail live in runItems, once for all operations.
 */
export interface OperationModule<Batch = unknown> {
	option: OperationOption;
	/** Shown only for this operation: defineResource adds the displayOptions. */
	properties: INodeProperties[];
	/** Runs once before the items, for operations that share one lookup across a whole run. */
	prepareBatch?(this: IExecuteFunctions, api: TrackingApiClient): Promise<Batch>;
	execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, batch: Batch): Promise<ItemResult>;
}

/** One piece of a run's work: the input item its output pairs with (none for work no item asked for), and the work. */
export interface Task {
	itemIndex?: number;
	run(): Promise<ItemResult>;
	/** Put in the task's error item under Continue On Fail, to say what failed when no input item does. */
	errorFields?: Record<string, unknown>;
}

/**
 * An operation over all input items at once (the items are one list, such as an HR roster), whose
 * output need not be one item per input: it plans its tasks from the whole input, and runItems runs
 * them with the same concurrency, order, pairing and Continue On Fail as item operations.
 */
export interface WholeInputOperation {
	option: OperationOption;
	properties: INodeProperties[];
	planTasks(this: IExecuteFunctions, api: TrackingApiClient): Promise<Task[]>;
	/**
	 * When a failing task stops the run (no Continue On Fail): adds to its error which tasks had done
	 * their work and which had not (the failed one among them), so a stop part way is never silent.
	 */
	explainStop?(error: NodeApiError | NodeOperationError, finished: readonly Task[], unfinished: readonly Task[]): void;
}

export type AnyOperation = OperationModule | WholeInputOperation;

export interface Resource {
	option: INodePropertyOptions;
	operations: Record<string, AnyOperation>;
	/** The Operation picker, then every operation's parameters. */
	properties: INodeProperties[];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * A resource from its operations map, the one place an operation's name is written: the picker's
 * options and each operation's displayOptions are derived from it, so an operation cannot be
 * routed yet missing from the UI, or shown under a name the router does not know.
 */
export function defineResource<Operations extends Record<string, AnyOperation>>(
	name: string,
	displayName: string,
	operations: Operations,
	defaultOperation: keyof Operations & string,
): Resource {
	const picker: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options: Object.entries(operations)
			.map(([value, operation]) => ({ ...operation.option, value }))
			.sort(byName),
		default: defaultOperation,
	};
	const parameters = Object.entries(operations).flatMap(([value, operation]) =>
		updateDisplayOptions({ show: { resource: [name], operation: [value] } }, operation.properties),
	);
	return { option: { name: displayName, value: name }, operations, properties: [picker, ...parameters] };
}

/** The Resource picker over every resource, then each resource's properties. */
export function resourceProperties(resources: Record<string, Resource>, defaultResource: string): INodeProperties[] {
	const all = Object.values(resources);
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: all.map((resource) => resource.option).sort(byName),
			default: defaultResource,
		},
		...all.flatMap((resource) => resource.properties),
	];
}

/**
 * The canvas subtitle in words, e.g. "Get Last Location: Device": the labels are looked up from the
 * resources map inside the expression, since n8n evaluates the subtitle with the parameters' values
 * only. An operation set by an expression, or one the map does not know, shows its value.
 */
export function subtitle(resources: Record<string, Resource>): string {
	const operations: Record<string, string> = {};
	const resourceNames: Record<string, string> = {};
	for (const [resourceValue, resource] of Object.entries(resources)) {
		resourceNames[resourceValue] = resource.option.name;
		for (const [operationValue, operation] of Object.entries(resource.operations)) {
			operations[`${resourceValue}:${operationValue}`] = operation.option.name;
		}
	}
	const resource = '$parameter["resource"]';
	const operation = '$parameter["operation"]';
	return (
		`={{ (${JSON.stringify(operations)}[${resource} + ":" + ${operation}] || ${operation})` +
		` + ": " + (${JSON.stringify(resourceNames)}[${resource}] || ${resource}) }}`
	);
}
