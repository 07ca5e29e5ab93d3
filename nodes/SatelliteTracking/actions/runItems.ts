import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { TrackingApiClient } from '../../shared/transport';
import { WithBinary, type AnyOperation, type ItemResult, type OperationModule, type Task, type WholeInputOperation } from './operation';
import { isToolRun, toolItems, toolResults } from './toolMode';

/** Items a task yields, paired with its input item when it has one. */
function toExecutionData(result: ItemResult, itemIndex: number | undefined): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) =>
		json instanceof WithBinary ? { ...pairedItem(json.json as IDataObject, itemIndex), binary: json.binary } : pairedItem(json as IDataObject, itemIndex),
	);
}

/** Built whole rather than spread and extended: on Node 20 that cost some 2 µs an item. */
function pairedItem(json: IDataObject, itemIndex: number | undefined): INodeExecutionData {
	return itemIndex === undefined ? { json } : { json, pairedItem: { item: itemIndex } };
}

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number | undefined) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, itemIndex === undefined ? {} : { itemIndex });
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number | undefined, fields: IDataObject = {}): INodeExecutionData {
	const json: IDataObject = { ...fields, error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return pairedItem(json, itemIndex);
}

/**
 * A failure before any item could run (a bad Request Setting, a failed shared lookup): without
 * Continue On Fail it stops the node; with it each input gets its one error item, where n8n's own
 * fallback would pass the inputs through unchanged, which reads downstream as success.
 */
export function failEveryItem(context: IExecuteFunctions, error: unknown): INodeExecutionData[] {
	if (!context.continueOnFail()) throw asNodeError(context, error, 0);
	const itemCount = context.getInputData().length;
	return Array.from({ length: itemCount }, (_, itemIndex) => errorItem(asNodeError(context, error, itemIndex), itemIndex));
}

/**
 * Runs an operation: an item operation over every input item, a whole-input operation over the
 * tasks it plans. A failure before any task could run fails every input item (see failEveryItem).
 */
export async function runOperation(
	context: IExecuteFunctions,
	api: TrackingApiClient,
	operation: AnyOperation,
	concurrency: number,
): Promise<INodeExecutionData[]> {
	let tasks: Task[];
	try {
		tasks = 'planTasks' in operation ? await operation.planTasks.call(context, api) : await itemTasks(context, api, operation);
	} catch (error) {
		// Without the shared lookup no item can run; each still gets its one output item.
		const failed = failEveryItem(context, error);
		return 'planTasks' in operation ? wholeAnswer(context, failed) : failed;
	}
	if (!('planTasks' in operation)) return await runTasks(context, tasks, concurrency);
	return wholeAnswer(context, await runTasks(context, tasks, concurrency, operation.explainStop));
}

/** A whole-input operation's items, its failure's too, are one answer; as a tool, capped as every list is. */
function wholeAnswer(context: IExecuteFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	return isToolRun(context) ? toolItems(items) : items;
}

/** One task per input item, all sharing what the operation's prepareBatch looked up once. */
async function itemTasks<Batch>(context: IExecuteFunctions, api: TrackingApiClient, operation: OperationModule<Batch>): Promise<Task[]> {
	const batch = operation.prepareBatch ? await operation.prepareBatch.call(context, api) : (undefined as Batch);
	return context.getInputData().map((_, itemIndex) => ({
		itemIndex,
		run: async () => await operation.execute.call(context, itemIndex, api, batch),
	}));
}

/**
 * Runs the tasks with at most `concurrency` at once. Output keeps task order and pairing; under
 * Continue On Fail each failed task yields exactly one error item, otherwise the first failing task
 * (in order) stops the run once the tasks in flight settle.
 */
async function runTasks(
	context: IExecuteFunctions,
	tasks: Task[],
	concurrency: number,
	explainStop?: WholeInputOperation['explainStop'],
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const answer = isToolRun(context) ? (result: ItemResult) => (Array.isArray(result) ? toolResults(result) : result) : (result: ItemResult) => result;
	const results: INodeExecutionData[][] = new Array(tasks.length);
	const failures = new Map<number, NodeApiError | NodeOperationError>();
	let next = 0;

	const worker = async () => {
		while (next < tasks.length && failures.size === 0) {
			const position = next++;
			const { itemIndex, run, errorFields } = tasks[position];
			try {
				results[position] = toExecutionData(answer(await run()), itemIndex);
			} catch (error) {
				const nodeError = asNodeError(context, error, itemIndex);
				if (continueOnFail) {
					results[position] = [errorItem(nodeError, itemIndex, errorFields as IDataObject)];
				} else {
					failures.set(position, nodeError);
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker));

	if (failures.size > 0) {
		const first = failures.get(Math.min(...failures.keys()))!;
		explainStop?.(
			first,
			tasks.filter((_, position) => results[position] !== undefined),
			tasks.filter((_, position) => results[position] === undefined),
		);
		throw first;
	}
	return results.flat();
}
