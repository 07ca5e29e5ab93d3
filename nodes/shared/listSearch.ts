import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { TrackingApiClient } from './transport';

/** Lists one kind of resource and keeps those whose searchable texts contain the filter. */
async function search<T>(
	context: ILoadOptionsFunctions,
	list: (client: TrackingApiClient) => Promise<T[]>,
	filter: string | undefined,
	searchable: (resource: T) => Array<string | null | undefined>,
	toResult: (resource: T) => { name: string; value: string },
): Promise<INodeListSearchResult> {
	const client = await TrackingApiClient.create(context, { maxConcurrency: 1 });
	const needle = filter?.trim().toLowerCase() ?? '';
	const resources = await list(client);
	return {
		results: withIdWhereNamesRepeat(
			resources.filter((resource) => needle === '' || searchable(resource).some((text) => (text ?? '').toLowerCase().includes(needle))).map(toResult),
		),
	};
}

/**
 * Two devices (or groups) may share a name, and a list of names alone would not tell them apart: those
 * show their id beside the name. Unique names stay as they are, to keep the list short.
 */
function withIdWhereNamesRepeat(results: Array<{ name: string; value: string }>): Array<{ name: string; value: string }> {
	const uses = new Map<string, number>();
	for (const { name } of results) uses.set(name, (uses.get(name) ?? 0) + 1);
	return results.map((result) => ((uses.get(result.name) ?? 0) > 1 && result.value !== result.name ? { ...result, name: `${result.name} (${result.value})` } : result));
}

export async function searchDevices(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, (client) => client.request('listDevices'), filter, (device) => [device.name, device.id], (device) => ({
		name: device.name || device.id,
		value: device.id,
	}));
}

export async function searchGroups(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, (client) => client.request('listGroups'), filter, (group) => [group.name, group.id], (group) => ({
		name: group.name || group.id,
		value: group.id,
	}));
}

/** A user's group is set by the group's name (see userFields.ts), so the list offers names as values. */
export async function searchGroupNames(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, (client) => client.request('listGroups'), filter, (group) => [group.name], (group) => ({
		name: group.name,
		value: group.name,
	}));
}

export async function searchUsers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await search(this, (client) => client.request('listUsers'), filter, (user) => [user.name, user.email], (user) => ({
		name: `${user.name} <${user.email}>`,
		value: user.id,
	}));
}
