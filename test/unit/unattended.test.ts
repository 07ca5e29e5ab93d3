/** Issue 21, the pure parts: unreadable records, declared failures, telemetry repeats. */
import { freshFixes, readsTelemetry } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import { countNotifications, undatedAlerts } from '../../nodes/shared/notifications';
import { declaredFailure } from '../../nodes/shared/transport/failure';
import { describeHttpFailure } from '../../nodes/shared/transport/errors';
import type { Alert, Location } from '../../nodes/shared/wire';

const at = (minute: number) => new Date(Date.UTC(2026, 4, 4, 8, minute)).toISOString();
const fix = (minute: number, extra: Partial<Location> = {}): Location => ({ dateTime: at(minute), latitude: 1, longitude: 2, ...extra });

describe('records without a readable date', () => {
	const broken = [{ dateTime: null }, { dateTime: 1_780_000_000_000 }, {}, null] as unknown as Location[];

	it('are skipped and counted by the trigger, never thrown', () => {
		const result = freshFixes({}, [fix(1), ...broken, fix(2)], new Date(at(5)));
		expect(result.fresh.map((f) => f.dateTime)).toEqual([at(1), at(2)]);
		expect(result.unreadable).toBe(4);
	});

	it('are left out of the daily counts and counted apart (Get Notification Counters, Daily Limit Near)', () => {
		const alerts = [
			{ dateTime: at(1), notifications: ['Email'] },
			{ dateTime: null, notifications: ['Email'] },
			{ notifications: ['SMS'] },
			{ dateTime: 5, notifications: ['SMS'] },
		] as unknown as Alert[];
		expect(countNotifications(alerts, { from: at(0), to: at(59) })).toEqual({ email: 1, sms: 0 });
		expect(undatedAlerts(alerts)).toBe(3);
	});
});

describe('declared failures (what n8n\'s scheduler reads)', () => {
	it('says rate-limited with the wait the service asked, uncapped; an outage for 5xx and network failures', () => {
		expect(declaredFailure(describeHttpFailure(429, {}, { 'retry-after': '7200' }))).toEqual({ cause: 'rate-limited', retryAfterMs: 7_200_000 });
		expect(declaredFailure(describeHttpFailure(429, {}))).toEqual({ cause: 'rate-limited' });
		expect(declaredFailure(describeHttpFailure(503, {}, { 'retry-after': '30' }))).toEqual({ cause: 'temporarily-unavailable', retryAfterMs: 30_000 });
		expect(declaredFailure(describeHttpFailure(502, '<html>'))).toEqual({ cause: 'temporarily-unavailable' });
		expect(declaredFailure({ message: 'reset', networkCode: 'ECONNRESET' })).toEqual({ cause: 'temporarily-unavailable' });
		expect(declaredFailure({ message: 'no', status: 401, tokenRefused: true })).toEqual({ cause: 'credential-invalid' });
		expect(declaredFailure(describeHttpFailure(400, { error: 'bad' }))).toBeUndefined();
	});
});

describe('telemetry on a record repeating its GPS time and position', () => {
	const reefer = (temperature: number, inputs: boolean[]) => fix(1, { temperature, inputs });

	it('is a reading for the events that read telemetry, not a new fix for the others', () => {
		const first = freshFixes({}, [reefer(4, [false])], new Date(at(5)), true);
		const next = freshFixes(first, [reefer(4, [false]), reefer(11, [true])], new Date(at(10)), true);
		expect(next.fresh).toEqual([]);
		expect(next.readings).toEqual([reefer(11, [true])]);
		const again = freshFixes(next, [reefer(4, [false]), reefer(11, [true])], new Date(at(15)), true);
		expect(again.readings).toEqual([]);
	});

	it('is no news when no selected event reads telemetry', () => {
		const first = freshFixes({}, [reefer(4, [false])], new Date(at(5)));
		expect(freshFixes(first, [reefer(11, [true])], new Date(at(10))).readings).toEqual([]);
		expect(readsTelemetry({ events: ['locationUpdated', 'criticalAlert'] })).toBe(false);
		expect(readsTelemetry({ events: ['locationUpdated', 'inputChanged'] })).toBe(true);
	});
});
