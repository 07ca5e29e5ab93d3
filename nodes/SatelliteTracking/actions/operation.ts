import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../shared/transport';

/** What one input item turns into: one result, several, or none. */
export type ItemResult = object | object[];

/**
 * One operation: its parameters and what it does with one input item. The item loop,
 * concurrency, pairing and Continue On Fail live in runItems, once for all operations.
 */
export interface OperationModule<Batch = unknown> {
	description: INodeProperties[];
	/** Runs once before the items, for operations that share one lookup across a whole run. */
	prepareBatch?(this: IExecuteFunctions, api: TrackingApiClient): Promise<Batch>;
	execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, batch: Batch): Promise<ItemResult>;
}
