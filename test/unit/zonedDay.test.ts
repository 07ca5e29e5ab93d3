// @host-zones: matrix
import { dayOf, dayRange, nextDay, startOfDay, toCalendarDay, toTimeZone } from '../../nodes/shared/zonedDay';

const iso = (ms: number) => new Date(ms).toISOString();

describe('calendar days in a time zone', () => {
	it('puts the day boundaries at local midnight', () => {
		expect(dayRange('2024-01-15', 'UTC')).toEqual({ from: '2024-01-15T00:00:00.000Z', to: '2024-01-15T23:59:59.999Z' });
		expect(dayRange('2024-01-15', 'Asia/Kolkata')).toEqual({ from: '2024-01-14T18:30:00.000Z', to: '2024-01-15T18:29:59.999Z' });
		expect(dayRange('2024-07-01', 'America/Los_Angeles')).toEqual({ from: '2024-07-01T07:00:00.000Z', to: '2024-07-02T06:59:59.999Z' });
	});

	it('gives a spring-forward day 23 hours and a fall-back day 25', () => {
		const spring = dayRange('2024-03-10', 'America/New_York');
		expect(spring).toEqual({ from: '2024-03-10T05:00:00.000Z', to: '2024-03-11T03:59:59.999Z' });
		expect(Date.parse(spring.to) + 1 - Date.parse(spring.from)).toBe(23 * 3_600_000);
		const fall = dayRange('2024-10-27', 'Europe/Berlin');
		expect(fall).toEqual({ from: '2024-10-26T22:00:00.000Z', to: '2024-10-27T22:59:59.999Z' });
		expect(Date.parse(fall.to) + 1 - Date.parse(fall.from)).toBe(25 * 3_600_000);
	});

	it('starts a day whose midnight a daylight-saving jump skips when the jump ends', () => {
		// Santiago and Havana move their clocks from 00:00 straight to 01:00.
		expect(iso(startOfDay('2022-09-11', 'America/Santiago'))).toBe('2022-09-11T04:00:00.000Z');
		expect(dayOf(Date.parse('2022-09-11T03:59:59.999Z'), 'America/Santiago')).toBe('2022-09-10');
		expect(iso(startOfDay('2024-03-10', 'America/Havana'))).toBe('2024-03-10T05:00:00.000Z');
		// Havana's fall-back repeats 00:00–01:00; the day starts at the first 00:00.
		expect(iso(startOfDay('2024-11-03', 'America/Havana'))).toBe('2024-11-03T04:00:00.000Z');
	});

	it('tells which day an instant falls on, to the millisecond around midnight', () => {
		expect(dayOf(Date.parse('2024-03-09T22:59:59.999Z'), 'Europe/Paris')).toBe('2024-03-09');
		expect(dayOf(Date.parse('2024-03-09T23:00:00.000Z'), 'Europe/Paris')).toBe('2024-03-10');
		expect(dayOf(new Date('2024-03-09T23:00:00.000Z'), 'UTC')).toBe('2024-03-09');
	});

	it('steps over month and year ends', () => {
		expect(nextDay('2024-02-28')).toBe('2024-02-29');
		expect(nextDay('2023-12-31')).toBe('2024-01-01');
	});

	it('reads time zones and days from user input', () => {
		expect(toTimeZone('utc')).toEqual({ ok: true, value: 'UTC' });
		expect(toTimeZone(' Europe/Berlin ')).toEqual({ ok: true, value: 'Europe/Berlin' });
		expect(toTimeZone('Mars/Olympus')).toMatchObject({ ok: false });
		expect(toTimeZone('')).toEqual({ ok: false, problem: 'is empty' });

		expect(toCalendarDay('2024-03-10', 'Asia/Tokyo')).toEqual({ ok: true, value: '2024-03-10' });
		expect(toCalendarDay('2024-03-10T23:30:00', 'Asia/Tokyo')).toEqual({ ok: true, value: '2024-03-10' });
		expect(toCalendarDay('2024-03-10T23:30:00Z', 'Asia/Tokyo')).toEqual({ ok: true, value: '2024-03-11' });
		expect(toCalendarDay(new Date('2024-03-10T23:30:00Z'), 'UTC')).toEqual({ ok: true, value: '2024-03-10' });
		expect(toCalendarDay('2024-02-30', 'UTC')).toMatchObject({ ok: false });
		expect(toCalendarDay('yesterday', 'UTC')).toMatchObject({ ok: false });
	});
});
