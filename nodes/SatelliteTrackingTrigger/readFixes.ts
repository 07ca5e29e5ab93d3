/** The trigger's API reads: the devices to watch, then each device's fixes. */

import type { TrackingApiClient } from '../shared/transport';
import type { ReadOutcome } from '../shared/trigger/advance';
import type { FixRead } from '../shared/trigger/plan';
import { selectDevices, type DeviceSelection } from '../shared/trigger/selection';
import type { Device, Group, Location } from '../shared/wire';

/** Calls a poll makes before reading any device: the device list, and the group in group mode. */
export function listingRequests(selection: DeviceSelection): number {
	return selection.by === 'group' ? 2 : 1;
}

export async function readDevices(client: TrackingApiClient, selection: DeviceSelection): Promise<Device[]> {
	if (selection.by !== 'group') return selectDevices(await client.request<Device[]>('listDevices'), selection);
	const [devices, group] = await Promise.all([
		client.request<Device[]>('listDevices'),
		client.request<Group>('getGroup', { groupId: selection.groupId }),
	]);
	return selectDevices(devices, selection, group.devices ?? []);
}

/** Every read runs; the client's pacer keeps them within the concurrency and rate settings. */
export async function readFixes(client: TrackingApiClient, reads: FixRead[]): Promise<Map<string, ReadOutcome>> {
	const outcomes = await Promise.all(
		reads.map(async (read): Promise<[string, ReadOutcome]> => {
			try {
				return [read.deviceId, { ok: true, fixes: await readOne(client, read) }];
			} catch (error) {
				return [read.deviceId, { ok: false, error }];
			}
		}),
	);
	return new Map(outcomes);
}

async function readOne(client: TrackingApiClient, read: FixRead): Promise<Location[]> {
	const deviceId = read.deviceId;
	// 404: the device never reported, or left the account since the list was read. Nothing to report.
	if (read.kind === 'range') {
		return (await client.find<Location[]>('getLocations', { deviceId }, { from: read.from, to: read.to })) ?? [];
	}
	const last = await client.find<Location | null>('getLastLocation', { deviceId });
	return last ? [last] : [];
}
