import { matchDevice } from '../../nodes/shared/deviceRef';
import type { Device } from '../../nodes/shared/wire';

const devices: Device[] = [
	{ id: 'device012', name: 'Van 12' },
	{ id: 'device013', name: 'Truck 13' },
	{ id: 'dup-a', name: 'Spare' },
	{ id: 'dup-b', name: 'spare ' },
	{ id: 'Van 12 old', name: 'Retired' },
];

describe('matchDevice: the device a caller (an AI agent) means', () => {
	it('takes an ID as it is, before any name', () => {
		expect(matchDevice(devices, 'device013')).toEqual({ ok: true, value: 'device013' });
		expect(matchDevice(devices, 'Van 12 old')).toEqual({ ok: true, value: 'Van 12 old' });
	});

	it('takes a name in any case, with spaces squeezed', () => {
		expect(matchDevice(devices, '  van   12 ')).toEqual({ ok: true, value: 'device012' });
		expect(matchDevice(devices, 'TRUCK 13')).toEqual({ ok: true, value: 'device013' });
	});

	it('takes an ID in another case when no name matches and only one ID does', () => {
		expect(matchDevice(devices, 'DEVICE012')).toEqual({ ok: true, value: 'device012' });
		expect(matchDevice([...devices, { id: 'DEVICE012', name: 'Twin' }], 'Device012').ok).toBe(false);
	});

	it('refuses a name two devices share, naming both IDs', () => {
		expect(matchDevice(devices, 'Spare')).toEqual({
			ok: false,
			problem: '"Spare" is the name of 2 devices: "Spare" (ID dup-a), "spare " (ID dup-b). Give one of their IDs.',
		});
	});

	it('refuses an unknown name with the nearest names, or says to list the devices', () => {
		const near = matchDevice(devices, 'Van 99');
		expect(near).toEqual({ ok: false, problem: '"Van 99" is neither the ID nor the name of a device. Devices with a similar name: "Van 12" (ID device012).' });
		expect(matchDevice(devices, 'Lorry')).toEqual({ ok: false, problem: '"Lorry" is neither the ID nor the name of a device. List the devices to find its ID.' });
		expect(matchDevice([], 'device001').ok).toBe(false);
	});
});
