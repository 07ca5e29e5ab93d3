import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import type { TrackingApiClient } from '../../shared/transport';
import type { ItemResult, OperationModule } from './operation';
import { isToolRun, toolResults } from './toolMode';

function toExecutionData(result: ItemResult, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json: json as IDataObject,
		pairedItem: { item: itemIndex },
	}));
}

function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
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
 * Runs an operation over every input item with at most `concurrency` items at once. Output keeps
 * input order and pairing; under Continue On Fail each failed item yields exactly one error item,
 * otherwise the first failing item (by index) stops the run once the items in flight settle.
 */
export async function runItems<Batch>(
	context: IExecuteFunctions,
	api: TrackingApiClient,
	operation: OperationModule<Batch>,
	concurrency: number,
): Promise<INodeExecutionData[]> {
	const itemCount = context.getInputData().length;
	const continueOnFail = context.continueOnFail();
	const answer = isToolRun(context) ? (result: ItemResult) => (Array.isArray(result) ? toolResults(result) : result) : (result: ItemResult) => result;
	let batch: Batch;
	try {
		batch = operation.prepareBatch ? await operation.prepareBatch.call(context, api) : (undefined as Batch);
	} catch (error) {
		// Without the shared lookup no item can run; each still gets its one output item.
		return failEveryItem(context, error);
	}
	const results: INodeExecutionData[][] = new Array(itemCount);
	const failures = new Map<number, NodeApiError | NodeOperationError>();
	let next = 0;

	const worker = async () => {
		while (next < itemCount && failures.size === 0) {
			const itemIndex = next++;
			try {
				results[itemIndex] = toExecutionData(answer(await operation.execute.call(context, itemIndex, api, batch)), itemIndex);
			} catch (error) {
				const nodeError = asNodeError(context, error, itemIndex);
				if (continueOnFail) {
					results[itemIndex] = [errorItem(nodeError, itemIndex)];
				} else {
					failures.set(itemIndex, nodeError);
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, itemCount)) }, worker));

	if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
	return results.flat();
}
