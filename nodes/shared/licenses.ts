/**
 * License usage of an account, derived from its devices: the API has no license call, but a device
 * uses a license until its `expires` has passed (see the spec's states and transitions). Pure.
 */
import { isExpired, isExpiringWithin } from './devices';
import type { Device } from './wire';
import { parseServiceTime } from './validation';

export interface DeviceExpiry {
	deviceId: string;
	deviceName: string;
	expires: string;
}

export interface LicenseUsage {
	devicesTotal: number;
	/** Not expired: each uses a license. */
	devicesActive: number;
	devicesExpired: number;
	expiringWithinDays: number;
	devicesExpiring: number;
	/** Active devices whose `expires` falls within the window, soonest first. */
	expiringDevices: DeviceExpiry[];
	/** Soonest expiry first. */
	expiredDevices: DeviceExpiry[];
	/** Only when the number of licenses owned is known. */
	licensesOwned?: number;
	licensesFree?: number;
}

function expiries(devices: Device[]): DeviceExpiry[] {
	return devices
		.map((device) => ({ deviceId: device.id, deviceName: device.name, expires: device.expires ?? '' }))
		.sort((a, b) => parseServiceTime(a.expires) - parseServiceTime(b.expires));
}

export function licenseUsage(
	devices: Device[],
	now: Date,
	expiringWithinDays: number,
	licensesOwned?: number,
): LicenseUsage {
	const expired = devices.filter((device) => isExpired(device, now));
	const expiring = devices.filter((device) => isExpiringWithin(device, now, expiringWithinDays));
	const usage: LicenseUsage = {
		devicesTotal: devices.length,
		devicesActive: devices.length - expired.length,
		devicesExpired: expired.length,
		expiringWithinDays,
		devicesExpiring: expiring.length,
		expiringDevices: expiries(expiring),
		expiredDevices: expiries(expired),
	};
	if (licensesOwned !== undefined) {
		usage.licensesOwned = licensesOwned;
		// More active devices than licenses means the owned count entered is out of date; none is free.
		usage.licensesFree = Math.max(0, licensesOwned - usage.devicesActive);
	}
	return usage;
}
