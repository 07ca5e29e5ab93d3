import {
	countNotifications,
	crossingKey,
	limitUsage,
	thresholdsReached,
	unreportedCrossings,
} from '../../nodes/shared/notifications';
import { dayRange } from '../../nodes/shared/zonedDay';

const alert = (dateTime: string, notifications: unknown) => ({ dateTime, notifications: notifications as string[] });

describe('daily notification counters', () => {
	it('counts each e-mail and SMS entry, ignoring case, other channels and alerts without notifications', () => {
		const alerts = [
			alert('2024-03-10T08:00:00Z', ['Email', 'SMS']),
			alert('2024-03-10T09:00:00Z', ['email', 'Push', 'Telegram']),
			alert('2024-03-10T10:00:00Z', []),
			alert('2024-03-10T11:00:00Z', null),
			alert('2024-03-10T12:00:00Z', ['Email', 'Email', 7, ' sms ']),
		];
		expect(countNotifications(alerts)).toEqual({ email: 4, sms: 2 });
		expect(countNotifications([])).toEqual({ email: 0, sms: 0 });
	});

	it('counts the day in the chosen time zone, by the millisecond at both midnights', () => {
		// 2024-03-10 in Berlin runs from 2024-03-09T23:00Z to 2024-03-10T22:59:59.999Z.
		const alerts = [
			alert('2024-03-09T22:59:59.999Z', ['Email']),
			alert('2024-03-09T23:00:00.000Z', ['Email']),
			alert('2024-03-10T22:59:59.999Z', ['SMS']),
			alert('2024-03-10T23:00:00.000Z', ['SMS']),
		];
		expect(countNotifications(alerts, dayRange('2024-03-10', 'Europe/Berlin'))).toEqual({ email: 1, sms: 1 });
		expect(countNotifications(alerts, dayRange('2024-03-10', 'UTC'))).toEqual({ email: 0, sms: 2 });
		expect(countNotifications(alerts, dayRange('2024-03-09', 'UTC'))).toEqual({ email: 2, sms: 0 });
	});

	it('counts the whole 23 hours of a daylight-saving day and nothing of the next', () => {
		const alerts = [
			alert('2024-03-10T05:00:00.000Z', ['Email']),
			alert('2024-03-10T07:30:00.000Z', ['Email']),
			alert('2024-03-11T03:59:59.999Z', ['Email']),
			alert('2024-03-11T04:00:00.000Z', ['Email']),
		];
		expect(countNotifications(alerts, dayRange('2024-03-10', 'America/New_York'))).toEqual({ email: 3, sms: 0 });
		expect(countNotifications(alerts, dayRange('2024-03-11', 'America/New_York'))).toEqual({ email: 1, sms: 0 });
	});

	it('derives remaining messages and reached limits for the channels that have one', () => {
		expect(limitUsage({ email: 10, sms: 3 }, { email: 10, sms: 5 })).toEqual({
			email: { count: 10, limit: 10, remaining: 0, reached: true },
			sms: { count: 3, limit: 5, remaining: 2, reached: false },
		});
		expect(limitUsage({ email: 12, sms: 0 }, { email: 10 })).toEqual({ email: { count: 12, limit: 10, remaining: 0, reached: true } });
		expect(limitUsage({ email: 0, sms: 0 }, { sms: 0 })).toEqual({ sms: { count: 0, limit: 0, remaining: 0, reached: true } });
		expect(limitUsage({ email: 1, sms: 1 }, {})).toEqual({});
	});

	it('says which thresholds a count has reached, rounding the share up to whole messages', () => {
		expect(thresholdsReached(7, 10)).toEqual([]);
		expect(thresholdsReached(8, 10)).toEqual(['near']);
		expect(thresholdsReached(10, 10)).toEqual(['near', 'limit']);
		expect(thresholdsReached(5, 7)).toEqual([]); // 80 % of 7 is 5.6: near at 6
		expect(thresholdsReached(6, 7)).toEqual(['near']);
		expect(thresholdsReached(7, 10, 0.7)).toEqual(['near']); // not 7.000000000000001
		expect(thresholdsReached(3, 3, 1)).toEqual(['near', 'limit']);
	});

	it('reports each threshold once per day: the caller keeps the keys of what it reported', () => {
		const limits = { email: 10, sms: 5 };
		const first = unreportedCrossings({ email: 8, sms: 1 }, limits, []);
		expect(first).toEqual([{ channel: 'email', threshold: 'near', count: 8, limit: 10 }]);
		const reported = first.map(crossingKey);
		expect(unreportedCrossings({ email: 9, sms: 1 }, limits, reported)).toEqual([]);
		const later = unreportedCrossings({ email: 10, sms: 5 }, limits, reported);
		expect(later.map(crossingKey)).toEqual(['email:limit', 'sms:near', 'sms:limit']);
		expect(unreportedCrossings({ email: 10, sms: 5 }, limits, [...reported, ...later.map(crossingKey)])).toEqual([]);
		expect(unreportedCrossings({ email: 5, sms: 2 }, limits, [], 0.5)).toEqual([{ channel: 'email', threshold: 'near', count: 5, limit: 10 }]);
	});
});
