import { deviceNames } from '../../nodes/shared/deviceNames';
import { mapLink, simplifyAlert, simplifyFix } from '../../nodes/shared/simplify';
import type { Alert, Location } from '../../nodes/shared/wire';

// The vendor docs' example bodies (GET /api/devices/{id}/lastLocation, POST /api/devices/{id}/alerts).
const VENDOR_LAST_LOCATION: Location = {"dateTime": "2024-06-02T08:48:25.009Z", "latitude": 0, "longitude": 0, "speed": 0, "course": 0, "battery": 0, "fuel": 0, "fuel2": 0, "temperature": 0, "temperature2": 0, "sensorTime1": 0, "sensorTime2": 0, "sensorTime3": 0, "sensorTime4": 0, "inactiveSeconds": 0, "rpm": 0, "milleage": 0, "warningTexts": ["string"], "alertTexts": ["string"], "alerts": ["string"], "warnings": ["string"], "hasCriticalAlert": true, "attributes": {"additionalProp1": "string", "additionalProp2": "string", "additionalProp3": "string"}, "accessoriesAttributes": [{"additionalProp1": "string", "additionalProp2": "string", "additionalProp3": "string"}], "inputs": [true], "outputs": [true]};
const VENDOR_ALERT: Alert = {"dateTime": "2024-06-01T12:00:00Z", "latitude": 40.712776, "longitude": -74.005974, "text": "Speeding Alert", "notifications": ["Email", "SMS"], "alerts": ["High Speed"]};

describe('simplify', () => {
	it("turns the vendor's 26-field fix (27 columns with deviceId) into the short named set", () => {
		const fix: Location = VENDOR_LAST_LOCATION;
		expect(Object.keys(fix)).toHaveLength(26);
		const simple = simplifyFix('dev-1', 'Truck 01', { ...fix, latitude: 40.712776, longitude: -74.005974, speed: 42, battery: 87 });
		expect(simple).toEqual({
			deviceId: 'dev-1',
			deviceName: 'Truck 01',
			dateTime: '2024-06-02T08:48:25.009Z',
			latitude: 40.712776,
			longitude: -74.005974,
			speed: 42,
			battery: 87,
			mapLink: 'https://www.openstreetmap.org/?mlat=40.712776&mlon=-74.005974#map=16/40.712776/-74.005974',
			alerts: ['string'],
		});
	});

	it('keeps a zero speed and battery, and says null when the device does not report them', () => {
		const base: Location = { dateTime: '2026-01-01T00:00:00Z', latitude: 0, longitude: 0 };
		expect(simplifyFix('d', 'D', { ...base, speed: 0, battery: 0 })).toMatchObject({ speed: 0, battery: 0 });
		expect(simplifyFix('d', 'D', base)).toMatchObject({ speed: null, battery: null, alerts: [] });
	});

	it('lists alert texts when the device sends them, else the alert names', () => {
		const base: Location = { dateTime: '2026-01-01T00:00:00Z', latitude: 1, longitude: 2 };
		expect(simplifyFix('d', 'D', { ...base, alertTexts: ['SOS button pressed'], alerts: ['SOS'] }).alerts).toEqual(['SOS button pressed']);
		expect(simplifyFix('d', 'D', { ...base, alertTexts: [], alerts: ['PowerCut'] }).alerts).toEqual(['PowerCut']);
	});

	it("keeps an alert's text, names, channels and place, with a map link", () => {
		const alert: Alert = VENDOR_ALERT;
		expect(simplifyAlert('dev-1', 'Truck 01', alert)).toEqual({
			deviceId: 'dev-1',
			deviceName: 'Truck 01',
			dateTime: '2024-06-01T12:00:00Z',
			text: 'Speeding Alert',
			alerts: ['High Speed'],
			notifications: ['Email', 'SMS'],
			latitude: 40.712776,
			longitude: -74.005974,
			mapLink: mapLink(40.712776, -74.005974),
		});
	});

	it('builds a map link from the coordinates alone, negative and southern ones included', () => {
		const link = new URL(mapLink(-33.8688, 151.2093));
		expect(link.host).toBe('www.openstreetmap.org');
		expect(link.searchParams.get('mlat')).toBe('-33.8688');
		expect(link.searchParams.get('mlon')).toBe('151.2093');
	});
});

describe('deviceNames', () => {
	it('looks each device up once, even when many items ask at the same time', async () => {
		const asked: string[] = [];
		const names = deviceNames(async (id) => {
			asked.push(id);
			await new Promise((resolve) => setImmediate(resolve));
			return `name of ${id}`;
		});
		const answers = await Promise.all(['a', 'b', 'a', 'a', 'b'].map(names));
		expect(answers).toEqual(['name of a', 'name of b', 'name of a', 'name of a', 'name of b']);
		expect(asked).toEqual(['a', 'b']);
	});

	it('forgets a failed lookup so the next item asks again', async () => {
		let calls = 0;
		const names = deviceNames(async (id) => {
			calls += 1;
			if (calls === 1) throw new Error('lost connection');
			return `name of ${id}`;
		});
		await expect(names('a')).rejects.toThrow('lost connection');
		await expect(names('a')).resolves.toBe('name of a');
		expect(calls).toBe(2);
	});
});
