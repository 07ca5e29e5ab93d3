import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { countryList } from '../../../shared/users';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Get Countries',
	description: 'List the country codes users can have',
	action: 'Get countries',
};

export const properties: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	return countryList(await api.request('listCountries', { itemIndex }));
}
