import type { Device } from './wire';
import { DAY_MS } from './zonedDay';

/** A device past its `expires` no longer uses a license; null or no date means it never expires. */
export function isExpired(device: Pick<Device, 'expires'>, now: Date): boolean {
	if (!device.expires) return false;
	const expires = Date.parse(device.expires);
	return !Number.isNaN(expires) && expires <= now.getTime();
}

/** Not expired yet, but will be within `days` days of now. */
export function isExpiringWithin(device: Pick<Device, 'expires'>, now: Date, days: number): boolean {
	if (!device.expires || isExpired(device, now)) return false;
	const expires = Date.parse(device.expires);
	return !Number.isNaN(expires) && expires <= now.getTime() + days * DAY_MS;
}

export type DeviceStatus = 'all' | 'active' | 'expired';

export interface DeviceFilters {
	status?: DeviceStatus;
	nameContains?: string;
	tagKey?: string;
	tagValue?: string;
}

export function filterDevices(devices: Device[], filters: DeviceFilters, now: Date): Device[] {
	const name = filters.nameContains?.trim().toLowerCase() ?? '';
	const tagKey = filters.tagKey?.trim() ?? '';
	return devices.filter((device) => {
		if (filters.status === 'active' && isExpired(device, now)) return false;
		if (filters.status === 'expired' && !isExpired(device, now)) return false;
		if (name !== '' && !(device.name ?? '').toLowerCase().includes(name)) return false;
		if (tagKey !== '' && !hasTag(device, tagKey, filters.tagValue ?? '')) return false;
		return true;
	});
}

/** The device has the tag, with this value unless `value` is empty. */
export function hasTag(device: Pick<Device, 'tags'>, key: string, value: string): boolean {
	// Own keys only: a Tag Key such as "constructor" must not find Object.prototype's.
	const tags = device.tags ?? {};
	if (!Object.prototype.hasOwnProperty.call(tags, key)) return false;
	return value === '' || tags[key] === value;
}
