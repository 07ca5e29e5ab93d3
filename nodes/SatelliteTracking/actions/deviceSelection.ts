/**
 * One, selected or all devices, for the operations that report per device (Get Notification
 * Counters, Get Trips and Stops, Get Daily Summary): the parameters, the ids they pick, the names
 * of the output, and one read per device with errors in the devices' order.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deviceLocator, deviceLocatorList } from '../../shared/descriptions';
import { getResourceId } from '../../shared/parameters';
import { idsNamed, type TrackingApiClient } from '../../shared/transport';
import type { Device } from '../../shared/wire';
import { isToolRun, toolDeviceId } from './toolMode';

/**
 * `listName` is the Selected Devices list's parameter: Get Notification Counters stored it as
 * `selectedDevices` before the others came, which store it as `devices`.
 */
export function deviceSelectionProperties(listName: string, description: { perItem: string; device: string }): INodeProperties[] {
	return [
		{
			displayName: 'Devices',
			name: 'deviceSelection',
			type: 'options',
			noDataExpression: true,
			default: 'one',
			options: [
				{ name: 'One Device', value: 'one', description: 'The device chosen below, which may come from the input item' },
				{ name: 'Selected Devices', value: 'selected', description: 'The devices listed below' },
				{ name: 'All Devices', value: 'all', description: 'Every device of the account' },
			],
			description: description.perItem,
		},
		{ ...deviceLocator, description: description.device, displayOptions: { show: { deviceSelection: ['one'] } } },
		{ ...deviceLocatorList(listName, description.device), displayOptions: { show: { deviceSelection: ['selected'] } } },
	];
}

/** The account's devices, listed once per run: the names for the output, and the set for All Devices. */
export async function listDevices(this: IExecuteFunctions, api: TrackingApiClient): Promise<Device[]> {
	return await api.request('listDevices');
}

/** The devices the item asks for; as a tool, a name is taken where an ID is expected, as everywhere (toolMode). */
export async function selectedDeviceIds(
	context: IExecuteFunctions,
	itemIndex: number,
	api: TrackingApiClient,
	listing: Device[],
	listName: string,
): Promise<string[]> {
	const given = givenDeviceIds(context, itemIndex, listing, listName);
	if (!isToolRun(context) || context.getNodeParameter('deviceSelection', itemIndex, 'one') === 'all') return given;
	const ids = await Promise.all(given.map(async (one) => await toolDeviceId(context, itemIndex, api, listing, one, 'Device')));
	return [...new Set(ids)];
}

function givenDeviceIds(context: IExecuteFunctions, itemIndex: number, listing: Device[], listName: string): string[] {
	switch (context.getNodeParameter('deviceSelection', itemIndex, 'one') as string) {
		case 'all':
			return listing.map((device) => device.id);
		case 'selected': {
			const rows = context.getNodeParameter(`${listName}.device`, itemIndex, []) as IDataObject[];
			const ids = rows.map((_, row) => getResourceId(context, itemIndex, `${listName}.device[${row}].deviceId`, 'Device'));
			return [...new Set(ids)];
		}
		default:
			return [getResourceId(context, itemIndex, 'deviceId', 'Device')];
	}
}

/**
 * `read` for every device at once (the client's pacer keeps Max Concurrent Requests), each result
 * with its device's name. allSettled, so the error shown is the first failing device's in order,
 * not the quickest to fail.
 */
export async function perDevice<T>(
	api: TrackingApiClient,
	itemIndex: number,
	deviceIds: string[],
	listing: Device[],
	read: (deviceId: string) => Promise<T>,
): Promise<Array<{ deviceId: string; deviceName: string; result: T }>> {
	const names = new Map(listing.map((device) => [device.id, device.name]));
	const settled = await Promise.allSettled(
		deviceIds.map(async (deviceId) => {
			const result = await read(deviceId);
			// The listing may leave a device out (the vendor lists the account's active devices); ask for its name.
			const deviceName = names.get(deviceId) ?? (await api.request('getDevice', { params: { deviceId }, itemIndex })).name;
			return { deviceId, deviceName, result };
		}),
	);
	return settled.map((outcome, index) => {
		if (outcome.status === 'rejected') throw deviceIds.length > 1 ? namingDevice(outcome.reason, deviceIds[index]) : outcome.reason;
		return outcome.value;
	});
}

/** Refusals of the account or the service (a token, the rate, an outage), not of one device's request. */
const NOT_THE_DEVICES = new Set([401, 408, 429]);

/**
 * Of many devices read for one item, a refusal of one device's request says which device: the
 * vendor's message seldom does ("Daily results limit reached for this device."), named as the
 * transport names a 404's ids. A failure of the account or the service is no device's, whichever came first.
 */
function namingDevice(error: unknown, deviceId: string): unknown {
	const status = Number((error as { httpCode?: unknown } | null)?.httpCode);
	const devicesOwn = status >= 400 && status < 500 && !NOT_THE_DEVICES.has(status);
	const named = idsNamed({ deviceId });
	if (devicesOwn && error instanceof Error && !error.message.includes(named)) error.message = `${error.message} ${named}`;
	return error;
}
