/** Which of the account's devices the trigger watches. Pure. */
import { filterDevices } from '../../shared/devices';
import type { Device } from '../../shared/wire';

export type DeviceSelection =
	| { by: 'all' }
	| { by: 'ids'; ids: string[] }
	| { by: 'group'; groupId: string }
	| { by: 'tag'; key: string; value: string };

/**
 * The selected devices that the account still lists, ordered by id so that round robin and output
 * order stay stable between polls. `groupDeviceIds` is the group's member list for `by: 'group'`.
 */
export function selectDevices(devices: Device[], selection: DeviceSelection, groupDeviceIds: string[] = []): Device[] {
	let chosen: Device[];
	if (selection.by === 'ids' || selection.by === 'group') {
		const wanted = new Set(selection.by === 'ids' ? selection.ids : groupDeviceIds);
		chosen = devices.filter((device) => wanted.has(device.id));
	} else if (selection.by === 'tag') {
		chosen = filterDevices(devices, { tagKey: selection.key, tagValue: selection.value }, new Date(0));
	} else {
		chosen = devices;
	}
	const unique = new Map(chosen.map((device) => [device.id, device]));
	return [...unique.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
