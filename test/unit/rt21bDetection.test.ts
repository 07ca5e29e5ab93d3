/** Red team rt21b (issue 21): same-timestamp series, late window and state size, through detection alone. */
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { freshFixes } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import type { DeviceInfo } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings, pollDevice } from '../support/trigger';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const device: DeviceInfo = { id: 'dev-1', name: 'Truck 01', expires: null };

/** n readings at one timestamp, told apart by latitude. */
const series = (from: number, n: number): Location[] =>
	Array.from({ length: n }, (_, i) => ({ dateTime: iso(0), latitude: 10 + (from + i) / 1000, longitude: 1 }));

describe('rt21b: a series sharing one timestamp, answered in another order', () => {
	// Past 20 readings state kept the newest 20 keys and a count, and took the first `count` of the series
	// by the service's order as processed: a service whose order at one timestamp changed got the new
	// reading dropped and an old one reported again. Now exact up to 400 fingerprints.
	it('25 readings answered oldest first, then 26 answered newest first: the new one reported once, no old one again', () => {
		const first = freshFixes({}, series(0, 25), undefined, false, T0 - 3_600_000);
		const next = freshFixes(first, [...series(0, 26)].reverse(), undefined, false, T0 - 1_800_000);
		expect(next.fresh.map((f) => f.latitude)).toEqual([10 + 25 / 1000]);
	});

	// Left open: past 400 fingerprints at one timestamp the service's order is still trusted.
	it.failing('450 readings answered oldest first, then 451 answered newest first: the new one reported once', () => {
		const first = freshFixes({}, series(0, 450), undefined, false, T0 - 3_600_000);
		const next = freshFixes(first, [...series(0, 451)].reverse(), undefined, false, T0 - 1_800_000);
		expect(next.fresh.map((f) => f.latitude)).toEqual([10 + 450 / 1000]);
	});

	it('25 readings, then the same 25 shuffled: nothing new', () => {
		const first = freshFixes({}, series(0, 25), undefined, false, T0 - 3_600_000);
		const shuffled = series(0, 25);
		shuffled.unshift(...shuffled.splice(20, 5));
		expect(freshFixes(first, shuffled, undefined, false, T0 - 1_800_000).fresh).toEqual([]);
	});

	it('25 readings, then the oldest two removed by the service: nothing new', () => {
		const first = freshFixes({}, series(0, 25), undefined, false, T0 - 3_600_000);
		expect(freshFixes(first, series(2, 23), undefined, false, T0 - 1_800_000).fresh).toEqual([]);
	});
});

describe('rt21b: late window', () => {
	// The late window held times only, so a late record at a time the last read held (an alarm record
	// repeating the GPS time of a position record) was never reported; it holds fingerprints now.
	it('a late SOS sharing its timestamp with a fix the last read held is reported', () => {
		const minute = 60_000;
		const held = { dateTime: iso(-5 * minute), latitude: 10, longitude: 1 };
		const newest = { dateTime: iso(0), latitude: 10.01, longitude: 1 };
		const read = freshFixes({}, [held, newest], undefined, false, T0 - 40 * minute);
		const sos = { dateTime: iso(-5 * minute), latitude: 10.005, longitude: 1, hasCriticalAlert: true, alertTexts: ['SOS'] };
		expect(freshFixes(read, [held, sos, newest], undefined, false, T0 - 30 * minute).late).toEqual([sos]);
	});
});

describe('rt21b: static data of a chatty device in Every Fix', () => {
	it('one fix every 10 s, 300 polls a minute apart (the window fills in 30): the state stays small', () => {
		const settings = detectionSettings({ events: ['locationUpdated', 'criticalAlert'] });
		let state = pollDevice(device, [{ fixes: [{ dateTime: iso(0), latitude: 10, longitude: 1 }], now: new Date(T0) }], settings).state;
		const sizes: number[] = [];
		const all: Location[] = [];
		for (let poll = 1; poll <= 300; poll++) {
			for (let k = 1; k <= 6; k++) {
				const at = (poll - 1) * 60_000 + k * 10_000;
				all.push({ dateTime: iso(at), latitude: 10 + at / 1e9, longitude: 1 });
			}
			const fixAt = Date.parse(state.fix!.at);
			const from = fixAt - 30 * 60_000;
			const fetched = all.filter((f) => Date.parse(f.dateTime as string) >= from);
			state = detectDeviceEvents(state, device, fetched, settings, new Date(T0 + poll * 60_000), undefined, from).state;
			sizes.push(JSON.stringify(state).length);
		}
		const max = Math.max(...sizes);
		// The 30-minute window at one fix per 10 s: 180 fingerprints of some 7 characters.
		expect(max).toBeLessThan(4_000);
	});
});

describe('the late window of a tracker reporting every second', () => {
	it('keeps the fingerprints of the newest 400 records, and a record uploaded late among them is still reported once', () => {
		const second = 1_000;
		const fixes: Location[] = Array.from({ length: 1_800 }, (_, i) => ({ dateTime: iso(i * second), latitude: 10 + i / 1e6, longitude: 1 }));
		const read = freshFixes({}, fixes, undefined, false, T0 - 60 * second);
		expect(read.seenKeys).toHaveLength(400);
		const sos = { dateTime: iso(1_700 * second + 500), latitude: 10.5, longitude: 1, alertTexts: ['SOS'] };
		const next = freshFixes(read, [...fixes, sos], undefined, false, T0);
		expect(next.late).toEqual([sos]);
		expect(freshFixes(next, [...fixes, sos], undefined, false, T0).late).toEqual([]);
	});
});

describe('rt21b: switching Read Mode with a series sharing one timestamp', () => {
	// Latest Fix saved `count` 1 (its one record) past 20 readings; Every Fix then took only the first of
	// the series as processed and reported again every reading older than the newest 20.
	it('Latest Fix through 25 readings at one timestamp, then Every Fix reads the series and one more: one reading new', () => {
		const readings = Array.from({ length: 26 }, (_, i) => ({ dateTime: iso(0), latitude: 5, longitude: 5, temperature: 2 + i / 100 }));
		let state = freshFixes({}, [readings[0]], undefined, true);
		for (let i = 1; i < 25; i++) state = freshFixes(state, [readings[i]], undefined, true);
		const every = freshFixes(state, readings, undefined, true, T0 - 1_800_000);
		expect(every.readings.map((f) => f.temperature)).toEqual([2.25]);
	});
});
