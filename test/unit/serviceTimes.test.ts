// @host-zones: matrix
/**
 * The service's times are UTC; one written without a zone must not be read in the host's zone.
 * CI runs this file under UTC, Europe/Berlin and America/New_York.
 */
import { fixTime } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import { countNotifications } from '../../nodes/shared/notifications';

const TEN_UTC = Date.UTC(2024, 2, 10, 10, 0, 0);

describe('service times without a zone', () => {
	it.each(['2024-03-10 10:00:00', '2024-03-10T10:00:00', '2024-03-10T10:00:00Z'])('a fix dated %s is at 10:00 UTC', (dateTime) => {
		expect(fixTime({ dateTime })).toBe(TEN_UTC);
	});

	it("counts an alert dated without a zone on the UTC day's range", () => {
		const alerts = [{ dateTime: '2024-03-10 10:00:00', notifications: ['Email'] }];
		expect(countNotifications(alerts, { from: '2024-03-10T09:30:00Z', to: '2024-03-10T10:30:00Z' })).toEqual({ email: 1, sms: 0 });
		expect(countNotifications(alerts, { from: '2024-03-10T10:30:00Z', to: '2024-03-10T23:00:00Z' })).toEqual({ email: 0, sms: 0 });
	});
});
