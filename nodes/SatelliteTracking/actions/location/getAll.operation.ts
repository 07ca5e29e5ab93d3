import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getDateRange } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import type { LocationsRequest } from '../../../shared/wire';
import { deviceLocator } from '../../../shared/descriptions';
import { applyLimitOfRange, dateRange, readLimit, returnAllAndLimitOfRange } from '../common.descriptions';
import type { OperationOption } from '../operation';
import { limitKeepsNewest, zonelessDateReading } from '../versions';
import { readDeviceId } from '../toolMode';
import { prepareNaming, readable, simplify, type Naming } from '../readable';
import { simplifyFix } from '../../../shared/simplify';

export const option: OperationOption = {
	name: 'Get Many',
	description: "Where a device was: its fixes within a date range",
	action: 'Get locations of a device in a time range: where it was',
};

export const properties: INodeProperties[] = [
	{ ...deviceLocator, description: 'The device whose fixes to get' },
	...dateRange,
	...returnAllAndLimitOfRange,
	simplify,
];

export const prepareBatch = prepareNaming;

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, naming: Naming) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	const body: LocationsRequest = getDateRange(this, itemIndex, zonelessDateReading(this));
	const limit = readLimit(this, itemIndex);
	const locations = await api.request('getLocations', { params: { deviceId }, body, itemIndex });
	return await readable(this, itemIndex, naming, deviceId, applyLimitOfRange(locations, limit, limitKeepsNewest(this)), simplifyFix);
}
