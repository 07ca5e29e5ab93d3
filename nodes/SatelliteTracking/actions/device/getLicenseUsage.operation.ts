import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { licenseUsage } from '../../../shared/licenses';
import { checked } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toNumberInRange } from '../../../shared/validation';
import type { Device } from '../../../shared/wire';
import { collection } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';

const MAX_DAYS = 3650;
const MAX_LICENSES = 10_000_000;

export const option: OperationOption = {
	name: 'Get License Usage',
	description: 'Count active, expiring and expired devices and free licenses',
	action: 'Get the license usage of the account',
};

export const properties: INodeProperties[] = [
	{
		displayName:
			'A device uses a license until it expires. An expired device no longer uses one, and it cannot be reactivated while no license is free.',
		name: 'licenseNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Expiring Within (Days)',
		name: 'expiringWithinDays',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 30,
		description: 'List the active devices that expire within this many days from now',
	},
	collection('options', 'Options', 'Add Option', [
		{
			displayName: 'Licenses Owned',
			name: 'licensesOwned',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description: 'How many licenses the account has; the output then says how many are free',
		},
	]),
];

/** One device listing per run, whatever the number of items. */
export async function prepareBatch(this: IExecuteFunctions, api: TrackingApiClient) {
	return await api.request('listDevices');
}

export async function execute(this: IExecuteFunctions, itemIndex: number, _api: TrackingApiClient, devices: Device[]) {
	const days = checked(this, itemIndex, 'Expiring Within (Days)', toNumberInRange(this.getNodeParameter('expiringWithinDays', itemIndex, 30), 0, MAX_DAYS));
	const { licensesOwned } = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const owned =
		licensesOwned === undefined ? undefined : Math.floor(checked(this, itemIndex, 'Licenses Owned', toNumberInRange(licensesOwned, 0, MAX_LICENSES)));
	return { ...licenseUsage(devices, new Date(), days, owned) };
}
