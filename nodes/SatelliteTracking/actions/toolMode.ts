import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { matchDevice, namesADevice } from '../../shared/deviceRef';
import { toDeviceIds } from '../../shared/groups';
import { checked, getResourceId, runNode } from '../../shared/parameters';
import type { TrackingApiClient } from '../../shared/transport';
import { parseServiceTime } from '../../shared/validation';
import type { Device } from '../../shared/wire';

/**
 * What changes when an AI agent or an MCP client calls the node as a tool. n8n offers a node with
 * `usableAsTool` a second time as `<type>Tool` (its tool variant), and runs that type when a model
 * calls it; a workflow that uses the node itself never takes these paths, so its output stays as
 * saved workflows know it.
 */
export function isToolRun(context: IExecuteFunctions): boolean {
	return runNode(context).type.endsWith('Tool');
}

/** At most this many results reach the model per call, whatever the Limit or Return All say. */
export const TOOL_MAX_RESULTS = 25;

/** How many results there were before Limit cut a list. */
const totals = new WeakMap<object[], number>();

/** `kept` is what Limit left of `total` results: a tool says what it left out. */
export function rememberTotal<T>(kept: T[], total: number): T[] {
	totals.set(kept as object[], total);
	return kept;
}

/** Lists in time order whose newest results matter most (a date range at version 2.1). */
const newestFirstKept = new WeakSet<object[]>();

/** `results` are in time order, and a cut keeps their newest (Limit over a date range at version 2.1). */
export function keepsNewest<T>(results: T[]): T[] {
	newestFirstKept.add(results as object[]);
	return results;
}

/** `to` (mapped from `from`) stands for as many results as `from` did, and keeps the same end. */
export function sameTotal<T extends object[]>(from: object[], to: T): T {
	const total = totals.get(from);
	if (total !== undefined) totals.set(to, total);
	if (newestFirstKept.has(from)) newestFirstKept.add(to);
	return to;
}

/**
 * One item's results as a tool answers: at most {@link TOOL_MAX_RESULTS}, and a last entry saying
 * how many there were when some were left out, so the model neither takes a part for the whole
 * nor floods its context.
 */
export function toolResults(results: object[]): object[] {
	const total = Math.max(totals.get(results) ?? results.length, results.length);
	// A date range at 2.1 keeps its newest results under the cap too, as under Limit: "the last N
	// positions", in time order (a result without a readable time counts as the oldest).
	const shown = newestFirstKept.has(results) ? newest(results, TOOL_MAX_RESULTS) : results.slice(0, TOOL_MAX_RESULTS);
	if (total <= shown.length) return shown;
	return [
		...shown,
		{
			note:
				`Showing ${shown.length} of ${total} results. Ask for fewer or narrower results (a filter, a shorter ` +
				`time range) rather than more: a call returns at most ${TOOL_MAX_RESULTS}.`,
		},
	];
}

/** A whole run's items as a tool answers (see toolResults): the items kept keep their pairing. */
export function toolItems(items: INodeExecutionData[]): INodeExecutionData[] {
	const shown = toolResults(items.map((item) => item.json));
	return shown.map((json, index) => (items[index]?.json === json ? items[index] : { json: json as IDataObject }));
}

function newest(results: object[], count: number): object[] {
	if (results.length <= count) return results;
	const at = (result: object) => {
		const time = parseServiceTime((result as { dateTime?: unknown }).dateTime);
		return Number.isNaN(time) ? -Infinity : time;
	};
	return [...results].sort((a, b) => at(a) - at(b)).slice(-count);
}

const deviceLists = new WeakMap<TrackingApiClient, Promise<Device[]>>();

/** One device list per run, however many ids the run resolves. */
function listDevices(api: TrackingApiClient): Promise<Device[]> {
	let list = deviceLists.get(api);
	if (!list) {
		list = api.request('listDevices');
		deviceLists.set(api, list);
		list.catch(() => deviceLists.delete(api));
	}
	return list;
}

/**
 * The device a model means by `given`, among the account's `devices`: see matchDevice. The listing
 * holds the account's active devices only, so a value that is neither a listed ID nor a name is asked
 * for as an ID (a retired device still in a group): a workflow would send it so, and it works there.
 */
export async function toolDeviceId(
	context: IExecuteFunctions,
	itemIndex: number,
	api: TrackingApiClient,
	devices: Device[],
	given: string,
	label: string,
): Promise<string> {
	const match = matchDevice(devices, given);
	if (match.ok || namesADevice(devices, given)) return checked(context, itemIndex, label, match);
	const unlisted = await api.find('getDevice', { params: { deviceId: given }, itemIndex });
	return unlisted === undefined ? checked(context, itemIndex, label, match) : given;
}

/**
 * The item's Device. As a tool, a model may give a device's name where its ID is expected ("van 12"):
 * the run lists the devices once and takes the one of that name, or fails naming the candidates.
 * Outside a tool the value is the ID, as always, and nothing extra is asked of the API.
 */
export async function readDeviceId(context: IExecuteFunctions, itemIndex: number, api: TrackingApiClient): Promise<string> {
	const given = getResourceId(context, itemIndex, 'deviceId', 'Device');
	if (!isToolRun(context)) return given;
	return await toolDeviceId(context, itemIndex, api, await listDevices(api), given, 'Device');
}

/** The item's Devices (ids, comma-separated or a list); as a tool, names are taken as in {@link readDeviceId}. */
export async function readDeviceIds(context: IExecuteFunctions, itemIndex: number, api: TrackingApiClient): Promise<string[]> {
	const given = checked(context, itemIndex, 'Devices', toDeviceIds(context.getNodeParameter('devices', itemIndex)));
	if (!isToolRun(context) || given.length === 0) return given;
	const devices = await listDevices(api);
	return await Promise.all(given.map(async (one) => await toolDeviceId(context, itemIndex, api, devices, one, 'Devices')));
}
