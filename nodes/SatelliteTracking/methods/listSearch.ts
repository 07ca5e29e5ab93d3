import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { TrackingApiClient } from '../../shared/transport';
import type { Device, Group, User } from '../../shared/wire';

function matches(filter: string | undefined, ...texts: Array<string | null | undefined>): boolean {
	const needle = filter?.trim().toLowerCase() ?? '';
	return needle === '' || texts.some((text) => (text ?? '').toLowerCase().includes(needle));
}

async function client(context: ILoadOptionsFunctions) {
	return await TrackingApiClient.create(context, { maxConcurrent: 1 });
}

export async function searchDevices(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const devices = await (await client(this)).request<Device[]>('listDevices');
	return {
		results: devices
			.filter((device) => matches(filter, device.name, device.id))
			.map((device) => ({ name: device.name || device.id, value: device.id })),
	};
}

export async function searchGroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const groups = await (await client(this)).request<Group[]>('listGroups');
	return {
		results: groups
			.filter((group) => matches(filter, group.name, group.id))
			.map((group) => ({ name: group.name || group.id, value: group.id })),
	};
}

export async function searchUsers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const users = await (await client(this)).request<User[]>('listUsers');
	return {
		results: users
			.filter((user) => matches(filter, user.name, user.email))
			.map((user) => ({ name: `${user.name} <${user.email}>`, value: user.id })),
	};
}
