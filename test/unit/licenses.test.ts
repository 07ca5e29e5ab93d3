import { isExpiringWithin } from '../../nodes/shared/devices';
import { licenseUsage } from '../../nodes/shared/licenses';
import type { Device } from '../../nodes/shared/wire';

const now = new Date('2026-06-01T00:00:00Z');
const devices: Device[] = [
	{ id: 'never', name: 'Never expires', expires: null },
	{ id: 'gone', name: 'Expired last week', expires: '2026-05-25T00:00:00Z' },
	{ id: 'justGone', name: 'Expired at this instant', expires: '2026-06-01T00:00:00Z' },
	{ id: 'soon', name: 'Expires in 3 days', expires: '2026-06-04T00:00:00Z' },
	{ id: 'edge', name: 'Expires in exactly 30 days', expires: '2026-07-01T00:00:00Z' },
	{ id: 'later', name: 'Expires in a year', expires: '2027-06-01T00:00:00Z' },
];

describe('license usage', () => {
	it('calls a device expiring when it expires within the window and has not expired yet', () => {
		expect(devices.map((device) => isExpiringWithin(device, now, 30))).toEqual([false, false, false, true, true, false]);
		expect(isExpiringWithin({ expires: 'not a date' }, now, 30)).toBe(false);
		expect(isExpiringWithin(devices[3], now, 0)).toBe(false);
	});

	it('counts active, expired and expiring devices with their ids and dates', () => {
		expect(licenseUsage(devices, now, 30)).toEqual({
			devicesTotal: 6,
			devicesActive: 4,
			devicesExpired: 2,
			expiringWithinDays: 30,
			devicesExpiring: 2,
			expiringDevices: [
				{ deviceId: 'soon', deviceName: 'Expires in 3 days', expires: '2026-06-04T00:00:00Z' },
				{ deviceId: 'edge', deviceName: 'Expires in exactly 30 days', expires: '2026-07-01T00:00:00Z' },
			],
			expiredDevices: [
				{ deviceId: 'gone', deviceName: 'Expired last week', expires: '2026-05-25T00:00:00Z' },
				{ deviceId: 'justGone', deviceName: 'Expired at this instant', expires: '2026-06-01T00:00:00Z' },
			],
		});
	});

	it('tells how many licenses are free once the owned count is given, never fewer than none', () => {
		expect(licenseUsage(devices, now, 30, 10)).toMatchObject({ licensesOwned: 10, licensesFree: 6 });
		expect(licenseUsage(devices, now, 30, 4)).toMatchObject({ licensesOwned: 4, licensesFree: 0 });
		expect(licenseUsage(devices, now, 30, 2)).toMatchObject({ licensesOwned: 2, licensesFree: 0 });
		expect(licenseUsage(devices, now, 30)).not.toHaveProperty('licensesFree');
	});

	it('summarises an account without devices', () => {
		expect(licenseUsage([], now, 7, 3)).toMatchObject({ devicesTotal: 0, devicesActive: 0, devicesExpiring: 0, licensesFree: 3 });
	});
});
