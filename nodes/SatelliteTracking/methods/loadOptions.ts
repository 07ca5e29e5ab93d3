import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { TrackingApiClient } from '../../shared/transport';
import { countryList, timeZoneList } from '../../shared/users';

async function client(context: ILoadOptionsFunctions) {
	return await TrackingApiClient.create(context, { maxConcurrency: 1 });
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

export async function getCountries(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const countries = await (await client(this)).request('listCountries');
	return countryList(countries)
		.map(({ code, name }) => ({ name, value: code, description: code }))
		.sort(byName);
}

export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const timeZones = await (await client(this)).request('listTimeZones');
	return timeZoneList(timeZones)
		.map(({ id, name }) => ({ name: id, value: id, description: name }))
		.sort(byName);
}
