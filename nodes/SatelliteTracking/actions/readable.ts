import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deviceNames, type DeviceNames } from '../../shared/deviceNames';
import type { TrackingApiClient } from '../../shared/transport';
import { sameTotal } from './toolMode';
import { isVersion1 } from './versions';

/**
 * Version 2 of the node names the device on every fix and alert and simplifies them by default.
 * Version 1 stays as it was: a saved workflow's output keeps its shape, and it makes no device
 * lookups it did not make before (they count against the account's API quota).
 */
const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };

export const simplify: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a short set of fields (device name, time, latitude, longitude, speed, battery, map link, alerts) instead of the raw answer',
	displayOptions: { show: FROM_VERSION_2 },
};

/** What a fix or alert read shares across a run: device names, or none in version 1. */
export interface Naming {
	names?: DeviceNames;
}

/** One device lookup per device per run (`getDevice`), however many items read that device. */
export async function prepareNaming(this: IExecuteFunctions, api: TrackingApiClient): Promise<Naming> {
	if (isVersion1(this)) return {};
	return {
		names: deviceNames(async (deviceId) => (await api.request('getDevice', { params: { deviceId } })).name),
	};
}

export function wantsSimplify(context: IExecuteFunctions, itemIndex: number): boolean {
	return context.getNodeParameter('simplify', itemIndex, false) === true;
}

/**
 * A device's fixes or alerts as the node outputs them: raw with `deviceId` in version 1; named
 * (`deviceName` beside `deviceId`) in version 2, and simplified when the item asks for it.
 */
export async function readable<Record extends object>(
	context: IExecuteFunctions,
	itemIndex: number,
	naming: Naming,
	deviceId: string,
	records: Record[],
	simplified: (deviceId: string, deviceName: string, record: Record) => object,
): Promise<object[]> {
	if (naming.names === undefined) return sameTotal(records, records.map((record) => ({ deviceId, ...record })));
	const deviceName = await naming.names(deviceId);
	return sameTotal(
		records,
		wantsSimplify(context, itemIndex)
			? records.map((record) => simplified(deviceId, deviceName, record))
			: records.map((record) => ({ deviceId, deviceName, ...record })),
	);
}
