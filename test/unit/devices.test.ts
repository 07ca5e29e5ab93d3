import { filterDevices, isExpired } from '../../nodes/shared/devices';
import type { Device } from '../../nodes/shared/wire';

const now = new Date('2026-06-01T00:00:00Z');
const devices: Device[] = [
	{ id: 'a', name: 'Truck 01', tags: { fleet: 'north' }, expires: null },
	{ id: 'b', name: 'Van 02', tags: { fleet: 'south' }, expires: '2026-05-31T23:59:59Z' },
	{ id: 'c', name: 'truck 03', tags: {}, expires: '2026-06-02T00:00:00Z' },
];

describe('devices', () => {
	it('reads an expiry without a zone as UTC, as the service means it, whatever the host zone', () => {
		// Read in the host's zone, it was still licensed in New York four hours after it expired.
		const justAfter = new Date('2026-06-01T00:30:00Z');
		expect(isExpired({ expires: '2026-06-01T00:00:00' }, justAfter)).toBe(true);
		expect(isExpired({ expires: '2026-06-01 01:00:00' }, justAfter)).toBe(false);
	});

	it('calls a device expired only once its date has passed', () => {
		expect(devices.map((device) => isExpired(device, now))).toEqual([false, true, false]);
		expect(isExpired({ expires: 'not a date' }, now)).toBe(false);
	});
	it('filters by status, name and tag', () => {
		expect(filterDevices(devices, { status: 'active' }, now).map((d) => d.id)).toEqual(['a', 'c']);
		expect(filterDevices(devices, { status: 'expired' }, now).map((d) => d.id)).toEqual(['b']);
		expect(filterDevices(devices, { nameContains: 'TRUCK' }, now).map((d) => d.id)).toEqual(['a', 'c']);
		expect(filterDevices(devices, { tagKey: 'fleet' }, now).map((d) => d.id)).toEqual(['a', 'b']);
		expect(filterDevices(devices, { tagKey: 'fleet', tagValue: 'south' }, now).map((d) => d.id)).toEqual(['b']);
	});
});

describe('tag filter reads own tags only (issue 13.10)', () => {
	const devices: Device[] = [
		{ id: 'a', name: 'A', tags: { fleet: 'north' } },
		{ id: 'b', name: 'B', tags: { constructor: 'ACME' } },
		{ id: 'c', name: 'C' },
	];
	it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('Tag Key %s matches only devices that carry that tag', (tagKey) => {
		const matched = filterDevices(devices, { tagKey }, new Date()).map((device) => device.id);
		expect(matched).toEqual(tagKey === 'constructor' ? ['b'] : []);
	});
	it('Tag Key constructor with a value compares the own tag', () => {
		expect(filterDevices(devices, { tagKey: 'constructor', tagValue: 'ACME' }, new Date()).map((device) => device.id)).toEqual(['b']);
	});
});
