/** The trigger's API reads: the devices to watch, then each device's fixes (and alerts, to count them). */

import { countNotifications } from '../shared/notifications';
import type { TrackingApiClient } from '../shared/transport';
import type { ReadOutcome } from './detection/advance';
import type { CountedDay, FixRead } from './detection/plan';
import { selectDevices, type DeviceSelection } from './detection/selection';
import type { DayCounts, DetectionSettings } from './detection/types';
import type { Device, Location } from '../shared/wire';

/** Calls a poll makes before reading any device: the device list, and the group in group mode. */
export function listingRequests(selection: DeviceSelection): number {
	return selection.by === 'group' ? 2 : 1;
}

/** Calls one device's read makes: its fixes, and its alerts when daily limits are watched. */
export function requestsPerDevice(detection: DetectionSettings): number {
	return detection.dailyLimit ? 2 : 1;
}

export async function readDevices(client: TrackingApiClient, selection: DeviceSelection): Promise<Device[]> {
	if (selection.by !== 'group') return selectDevices(await client.request('listDevices'), selection);
	const [devices, group] = await Promise.all([
		client.request('listDevices'),
		client.request('getGroup', { params: { groupId: selection.groupId } }),
	]);
	return selectDevices(devices, selection, group.devices ?? []);
}

/** Every read runs; the client's pacer keeps them within the concurrency and rate settings. */
export async function readFixes(client: TrackingApiClient, reads: FixRead[]): Promise<Map<string, ReadOutcome>> {
	const outcomes = await Promise.all(
		reads.map(async (read): Promise<[string, ReadOutcome]> => {
			try {
				const [fixes, notifications] = await Promise.all([readOne(client, read), countDays(client, read.deviceId, read.days)]);
				return [read.deviceId, notifications ? { ok: true, fixes, notifications } : { ok: true, fixes }];
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
		return (await client.find('getLocations', { params: { deviceId }, body: { from: read.from, to: read.to } })) ?? [];
	}
	const last = await client.find('getLastLocation', { params: { deviceId } });
	return last ? [last] : [];
}

/** One alerts call over the days, counted day by day; a device that failed either read is read again next poll. */
async function countDays(client: TrackingApiClient, deviceId: string, days?: CountedDay[]): Promise<DayCounts[] | undefined> {
	if (!days || days.length === 0) return undefined;
	const range = { from: days[0].from, to: days[days.length - 1].to };
	const alerts = (await client.find('getAlerts', { params: { deviceId }, body: range })) ?? [];
	return days.map(({ day, from, to }) => ({ day, counts: countNotifications(alerts, { from, to }) }));
}
