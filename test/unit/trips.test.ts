// @host-zones: matrix
import { plausiblePositions } from '../../nodes/SatelliteTrackingTrigger/detection/positions';
import { fixProblem, MAX_PLAUSIBLE_SPEED_KMH } from '../../nodes/shared/geo/fixQuality';
import { fuelUsed, summarizeDay, summaryReadRange } from '../../nodes/shared/trips/dailySummary';
import { segmentItem } from '../../nodes/shared/trips/items';
import { advance, endBySilence, newSegmenter, openSegments, segmentTrack, TRIP_DEFAULTS, type Segment } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { dayRange, nextDay, startOfDay } from '../../nodes/shared/zonedDay';

/** One degree of latitude on the haversine sphere, in metres. */
const METERS_PER_DEGREE = 111_195.08;
const MINUTE = 60_000;

interface Fix {
	dateTime: string;
	latitude: number;
	longitude: number;
	speed?: number;
	rpm?: number;
	milleage?: number;
	fuel?: number;
}

/** A recorded-style track: a vehicle heading north from a start, told as drives and stops. */
class Recorder {
	readonly fixes: Fix[] = [];
	private at: number;
	private latitude: number;
	private milleage = 12_000;
	private noise = 1;

	constructor(
		start: string,
		private readonly longitude = 13.4,
		latitude = 52.5,
		private readonly extra: (fix: Fix) => Partial<Fix> = () => ({}),
	) {
		this.at = Date.parse(start);
		this.latitude = latitude;
	}

	/** Seeded jitter in [-1, 1): the same track every run. */
	private jitter(): number {
		this.noise = (this.noise * 16_807) % 2_147_483_647;
		return (this.noise / 2_147_483_647) * 2 - 1;
	}

	private record(fields: Partial<Fix>, latitude = this.latitude, longitude = this.longitude) {
		const fix: Fix = { dateTime: new Date(this.at).toISOString(), latitude, longitude, milleage: Math.round(this.milleage * 10) / 10, ...fields };
		this.fixes.push({ ...fix, ...this.extra(fix) });
	}

	drive(minutes: number, kmh: number, everySeconds = 60, fields: Partial<Fix> = {}): this {
		for (let s = everySeconds; s <= minutes * 60; s += everySeconds) {
			this.at += everySeconds * 1000;
			const km = (kmh * everySeconds) / 3600;
			this.latitude += (km * 1000) / METERS_PER_DEGREE;
			this.milleage += km;
			this.record({ speed: kmh, rpm: 1800, ...fields });
		}
		return this;
	}

	/** Parked: GPS wander of up to `wanderMeters`, and now and then a spurious speed below `spikes`. */
	park(minutes: number, { everySeconds = 60, wanderMeters = 25, spikes = 0, rpm = 0 } = {}): this {
		for (let s = everySeconds; s <= minutes * 60; s += everySeconds) {
			this.at += everySeconds * 1000;
			const offset = (this.jitter() * wanderMeters) / METERS_PER_DEGREE;
			const speed = spikes > 0 && this.jitter() > 0.6 ? spikes : Math.abs(this.jitter()) * 2;
			this.record({ speed: Math.round(speed * 10) / 10, rpm }, this.latitude + offset, this.longitude + offset);
		}
		return this;
	}

	silence(minutes: number): this {
		this.at += minutes * MINUTE;
		return this;
	}

	raw(fields: Partial<Fix>): this {
		this.at += MINUTE;
		this.record(fields);
		return this;
	}
}

const kinds = (segments: Segment[]) => segments.map((segment) => segment.type);
const track = (fixes: Fix[], settings = TRIP_DEFAULTS) => segmentTrack(fixes, settings);

describe('fix quality', () => {
	const good = { dateTime: '2024-05-01T10:00:00Z', latitude: 52.5, longitude: 13.4 };
	const at = (dateTime: string, latitude: number, longitude: number) => ({ at: Date.parse(dateTime), latitude, longitude });

	it('names what makes a fix unusable', () => {
		expect(fixProblem(good)).toBeUndefined();
		expect(fixProblem({ ...good, dateTime: undefined })).toBe('no time');
		expect(fixProblem({ ...good, dateTime: 'yesterday' })).toBe('no time');
		expect(fixProblem({ ...good, latitude: null })).toBe('no position');
		expect(fixProblem({ ...good, longitude: '13.4' })).toBe('no position');
		expect(fixProblem({ ...good, latitude: 91 })).toBe('out of range');
		expect(fixProblem({ ...good, longitude: -180.5 })).toBe('out of range');
		expect(fixProblem({ ...good, latitude: 0, longitude: 0 })).toBe('at (0, 0)');
		expect(fixProblem({ ...good, latitude: 0, longitude: 0.001 })).toBeUndefined();
	});

	it('refuses a jump no vehicle makes, and allows a fix\'s position error', () => {
		const before = at('2024-05-01T09:59:00Z', 52.5, 13.4);
		// 100 km in a minute.
		expect(fixProblem({ ...good, latitude: 53.4 }, before)).toBe('impossible jump');
		// 5 km in a minute is 300 km/h: fast, not impossible.
		expect(fixProblem({ ...good, latitude: 52.545 }, before)).toBeUndefined();
		expect(MAX_PLAUSIBLE_SPEED_KMH).toBeGreaterThan(300);
		// A resend with the same timestamp a few metres off is not a jump, and a buffer uploaded with
		// the time of reconnection on every fix has no speed to judge.
		expect(fixProblem(good, at(good.dateTime, 52.5001, 13.4))).toBeUndefined();
		expect(fixProblem({ ...good, latitude: 53.4 }, at(good.dateTime, 52.5, 13.4))).toBeUndefined();
		// A day later, 100 km is a drive.
		expect(fixProblem({ ...good, latitude: 53.4 }, at('2024-04-30T10:00:00Z', 52.5, 13.4))).toBeUndefined();
	});

	it('is one rule for trips and the trigger: a light jet\'s leg is a journey for both, a glitch a glitch for both', () => {
		// A fleet's small aircraft: 20 minutes at 750 km/h (a light jet's cruise), on the ground at
		// (0, 0) once (no lock yet), and one multipath echo 60 km off within a minute.
		const flight = new Recorder('2024-05-01T06:00:00Z').drive(10, 40).drive(20, 750).park(5);
		const landed = flight.fixes[flight.fixes.length - 1];
		flight.raw({ latitude: 0, longitude: 0 });
		flight.raw({ latitude: landed.latitude + 0.54, longitude: landed.longitude });
		flight.park(5);
		const { positions } = plausiblePositions(flight.fixes as Location[], undefined);
		const trips = segmentTrack(flight.fixes, TRIP_DEFAULTS);
		expect(trips.skipped).toBe(2);
		expect(positions).toHaveLength(flight.fixes.length - trips.skipped);
		expect(trips.segments.reduce((sum, segment) => sum + segment.distanceMeters, 0) / 1000).toBeGreaterThan(250);
	});
});

describe('one impossible-jump rule (issue 46.4)', () => {
	it('takes London → Paris → Paris as three positions in the trigger as in trips: the first Paris fix counts once the next agrees', () => {
		const fixes: Location[] = [
			{ dateTime: '2024-05-01T10:00:00Z', latitude: 51.5074, longitude: -0.1278 },
			{ dateTime: '2024-05-01T10:01:00Z', latitude: 48.8566, longitude: 2.3522 },
			{ dateTime: '2024-05-01T10:02:00Z', latitude: 48.8567, longitude: 2.3523 },
		];
		const trips = segmentTrack(fixes, TRIP_DEFAULTS);
		expect(trips.points.map((point) => point.dateTime)).toEqual(fixes.map((fix) => fix.dateTime));
		expect(plausiblePositions(fixes, undefined).positions).toEqual(fixes);
		// Poll by poll: the suspect held over from one poll is a position once the next poll agrees.
		const first = plausiblePositions(fixes.slice(0, 2), undefined);
		expect(first.positions).toEqual(fixes.slice(0, 1));
		const second = plausiblePositions(fixes.slice(2), first.last, first.suspect);
		expect(second.positions.map((fix) => fix.dateTime)).toEqual([fixes[1].dateTime, fixes[2].dateTime]);
		expect(second.suspect).toBeUndefined();
	});
});

describe('trips and stops', () => {
	it('tells a delivery round: trips between stops, the traffic lights inside their trips', () => {
		const van = new Recorder('2024-05-01T06:00:00Z')
			.park(30)
			.drive(12, 40)
			.park(2) // a red light
			.drive(10, 40)
			.park(20, { rpm: 800 }) // a delivery, engine left running
			.drive(15, 50)
			.park(45);
		const { segments, skipped } = track(van.fixes);
		expect(skipped).toBe(0);
		expect(kinds(segments)).toEqual(['stop', 'trip', 'stop', 'trip', 'stop']);
		const [, first, delivery, second] = segments.map((segment) => segmentItem(segment, 'van-1', 'Van 1'));
		// 22 minutes at 40 km/h ≈ 14.7 km, the red light adding only its wander.
		expect(first.distanceKm).toBeGreaterThan(14.6);
		expect(first.distanceKm).toBeLessThan(14.9);
		expect(first.milleageDifference).toBeCloseTo(14.7, 1);
		// An end without the odometer (the API sends 0): no difference rather than minus the whole odometer.
		const withoutOdometer = segmentItem({ ...segments[1], end: { ...segments[1].end, milleage: 0 } }, 'van-1', 'Van 1');
		expect(withoutOdometer).not.toHaveProperty('milleageDifference');
		expect(first.maxSpeed).toBe(40);
		expect(first.durationMinutes).toBeGreaterThanOrEqual(24);
		expect(first.durationMinutes).toBeLessThanOrEqual(25);
		expect(first.averageSpeed).toBeGreaterThan(34);
		expect(first.averageSpeed).toBeLessThan(38);
		expect(delivery.type).toBe('stop');
		expect(delivery.durationMinutes).toBeGreaterThanOrEqual(19);
		expect(delivery.durationMinutes).toBeLessThanOrEqual(21);
		expect(delivery.idleMinutes).toBeGreaterThanOrEqual(18);
		expect(delivery).not.toHaveProperty('distanceKm');
		expect(second.distanceKm).toBeCloseTo(12.5, 0);
		// Segments touch: each ends at the fix the next starts from.
		for (let i = 1; i < segments.length; i++) expect(segments[i].start).toEqual(segments[i - 1].end);
	});

	it('never makes a trip of GPS wander while parked, even with speed spikes', () => {
		const parked = new Recorder('2024-05-01T00:00:00Z').park(8 * 60, { wanderMeters: 80, spikes: 12, everySeconds: 30 });
		const { segments } = track(parked.fixes);
		expect(kinds(segments)).toEqual(['stop']);
		expect(segments[0].end.at - segments[0].start.at).toBe(8 * 60 * MINUTE - 30_000);
	});

	it('measures a trip from where the stop stood, not from its first (perhaps worst) fix', () => {
		const centre = { latitude: 52.5, longitude: 13.4 };
		const north = (meters: number) => centre.latitude + meters / METERS_PER_DEGREE;
		const at = (minute: number) => new Date(Date.parse('2024-05-01T00:00:00Z') + minute * MINUTE).toISOString();
		// A cold start puts the first fix 150 m off; the rest scatter around the true spot, and one
		// multipath echo 100 m the other way even shows a speed.
		const fixes: Fix[] = [{ dateTime: at(0), latitude: north(150), longitude: centre.longitude, speed: 0 }];
		for (let minute = 1; minute <= 60; minute++) fixes.push({ dateTime: at(minute), latitude: north(minute % 2 ? 20 : -20), longitude: centre.longitude, speed: 0 });
		fixes.push({ dateTime: at(61), latitude: north(-100), longitude: centre.longitude, speed: 12 });
		for (let minute = 62; minute <= 90; minute++) fixes.push({ dateTime: at(minute), latitude: north(0), longitude: centre.longitude, speed: 0 });
		expect(kinds(track(fixes).segments)).toEqual(['stop']);
	});

	it('keeps a stop shorter than minStopMinutes inside its trip, and honours a shorter setting', () => {
		const fixes = new Recorder('2024-05-01T08:00:00Z').drive(10, 50).park(4).drive(10, 50).fixes;
		expect(kinds(track(fixes).segments)).toEqual(['trip']);
		expect(kinds(track(fixes, { ...TRIP_DEFAULTS, minStopMinutes: 3 }).segments)).toEqual(['trip', 'stop', 'trip']);
	});

	it('leaves out a trip shorter than minTripDistanceMeters: moving about the yard is part of the stop', () => {
		// 2 minutes at 3.6 km/h, reported as 6 km/h (moving): 120 m in all.
		const fixes = new Recorder('2024-05-01T08:00:00Z').park(20).drive(2, 3.6, 60, { speed: 6 }).park(20).fixes;
		expect(kinds(track(fixes).segments)).toEqual(['stop']);
		expect(kinds(track(fixes, { ...TRIP_DEFAULTS, minTripDistanceMeters: 100 }).segments)).toEqual(['stop', 'trip', 'stop']);
	});

	it('gives the same segments for buffered fixes that arrive out of order', () => {
		const fixes = new Recorder('2024-05-01T06:00:00Z').park(30).drive(12, 40).park(30).drive(15, 50).park(10).fixes;
		const shuffled = [...fixes].reverse();
		// Out-of-coverage buffers come in blocks: swap two blocks as well.
		shuffled.push(...shuffled.splice(10, 20));
		expect(track(shuffled).segments).toEqual(track(fixes).segments);
	});

	it('skips unusable fixes and impossible jumps, and follows a device that really is elsewhere', () => {
		const recorder = new Recorder('2024-05-01T06:00:00Z').drive(10, 40);
		recorder.raw({ latitude: 0, longitude: 0 });
		recorder.raw({ latitude: 48.1, longitude: 11.6, speed: 40 }); // a glitch in Munich
		recorder.fixes.push({ dateTime: 'not a time', latitude: 52.5, longitude: 13.4 });
		recorder.drive(10, 40);
		const glitched = track(recorder.fixes);
		expect(glitched.skipped).toBe(3);
		expect(kinds(glitched.segments)).toEqual(['trip']);
		// Munich is not on the way: the trip's distance stays about 20 minutes at 40 km/h.
		expect(glitched.segments[0].distanceMeters / 1000).toBeLessThan(14.5);

		// Towed on a ferry with no signal: two fixes that agree with each other settle it.
		const towed = new Recorder('2024-05-01T06:00:00Z').drive(10, 40).park(10);
		const after = new Recorder(new Date(Date.parse(towed.fixes[towed.fixes.length - 1].dateTime)).toISOString(), 11.6, 48.1).park(30).drive(10, 40).park(10);
		const relocated = track([...towed.fixes, ...after.fixes]);
		// The refused fix counts once the next one proves it right.
		expect(relocated.skipped).toBe(0);
		expect(kinds(relocated.segments)).toEqual(['trip', 'stop', 'stop', 'trip', 'stop']);
		expect(relocated.segments.every((segment) => segment.distanceMeters < 10_000)).toBe(true);
	});

	it('takes a silence where the device stood as a stop, and one that moved it as a trip', () => {
		// Switched off at the end of a drive, on again where it stood the next morning.
		const night = new Recorder('2024-05-01T16:00:00Z').drive(20, 50).silence(10 * 60).park(2).drive(20, 50).fixes;
		expect(kinds(track(night).segments)).toEqual(['trip', 'stop', 'trip']);
		const tunnel = new Recorder('2024-05-01T16:00:00Z').drive(20, 50).park(10).fixes;
		// Out of coverage for 8 minutes, found 6 km further on, standing.
		const [last] = tunnel.slice(-1);
		tunnel.push({ ...last, dateTime: new Date(Date.parse(last.dateTime) + 8 * MINUTE).toISOString(), latitude: last.latitude + 0.054, speed: 0 });
		expect(kinds(track(tunnel).segments)).toEqual(['trip', 'stop', 'trip']);
	});

	it('reports idling only from devices that send rpm', () => {
		const withRpm = new Recorder('2024-05-01T06:00:00Z').drive(10, 40).park(30, { rpm: 750 }).drive(10, 40);
		const [, idle] = track(withRpm.fixes).segments.map((segment) => segmentItem(segment, 'd', 'D'));
		// From the first to the last fix parked; leaving the stop is part of the next trip.
		expect(idle.durationMinutes).toBe(29);
		expect(idle.idleMinutes).toBe(29);

		const stripRpm = (fix: Fix): Partial<Fix> => ({ rpm: undefined });
		const noRpm = new Recorder('2024-05-01T06:00:00Z', 13.4, 52.5, stripRpm).drive(10, 40).park(30, { rpm: 750 }).drive(10, 40);
		const items = track(noRpm.fixes).segments.map((segment) => segmentItem(segment, 'd', 'D'));
		expect(items.map((item) => item.type)).toEqual(['trip', 'stop', 'trip']);
		expect(items.map((item) => item.idleMinutes)).toEqual([null, null, null]);
		// The rest is there without it: the first trip's 9 minutes between fixes at 40 km/h.
		expect(items[0].distanceKm).toBeCloseTo(6.0, 1);
	});

	it('works without any speed field, from the positions alone', () => {
		const stripSpeed = (): Partial<Fix> => ({ speed: undefined });
		const fixes = new Recorder('2024-05-01T06:00:00Z', 13.4, 52.5, stripSpeed).park(20, { wanderMeters: 15 }).drive(10, 40).park(20, { wanderMeters: 15 }).fixes;
		const items = track(fixes).segments.map((segment) => segmentItem(segment, 'd', 'D'));
		expect(items.map((item) => item.type)).toEqual(['stop', 'trip', 'stop']);
		expect(items[1].maxSpeed).toBeNull();
	});

	it('gives the same segments fix by fix, its state saved and restored between fixes, as read at once', () => {
		const fixes = new Recorder('2024-05-01T06:00:00Z').park(30).drive(12, 40).park(3).drive(10, 40).park(20, { rpm: 800 }).drive(15, 50).park(45).fixes;
		let state = newSegmenter();
		const closed: Segment[] = [];
		for (const fix of fixes) {
			closed.push(...advance(state, fix, TRIP_DEFAULTS).closed);
			state = JSON.parse(JSON.stringify(state));
		}
		closed.push(...openSegments(state, TRIP_DEFAULTS));
		expect(closed).toEqual(track(fixes).segments);
		expect(JSON.stringify(state).length).toBeLessThan(1500);
	});
});

describe('daily summary', () => {
	const span = (day: string, timeZone: string) => ({ from: startOfDay(day, timeZone), to: startOfDay(nextDay(day), timeZone) });

	it('splits a trip across midnight between the two days, and the days add up', () => {
		const fixes = new Recorder('2024-05-01T22:00:00Z').park(60).drive(120, 60).park(60).fixes;
		const whole = track(fixes);
		expect(kinds(whole.segments)).toEqual(['stop', 'trip', 'stop']);
		const may1 = summarizeDay(whole, span('2024-05-01', 'UTC'), TRIP_DEFAULTS);
		const may2 = summarizeDay(whole, span('2024-05-02', 'UTC'), TRIP_DEFAULTS);
		expect(may1).toMatchObject({ trips: 1, stops: 1, drivingMinutes: 60, stoppedMinutes: 59 });
		// The trip runs to the first fix standing still.
		expect(may2).toMatchObject({ trips: 1, stops: 1, drivingMinutes: 61, stoppedMinutes: 59 });
		expect(may1.distanceKm).toBeCloseTo(60, 0);
		expect(may1.distanceKm + may2.distanceKm).toBeCloseTo(whole.segments[1].distanceMeters / 1000, 2);
		expect(may1.lastFix?.dateTime).toBe('2024-05-01T23:59:00.000Z');
		expect(may2.firstFix?.dateTime).toBe('2024-05-02T00:00:00.000Z');
		// In New York the whole story is on May 1st.
		const ny = summarizeDay(whole, span('2024-05-01', 'America/New_York'), TRIP_DEFAULTS);
		expect(ny).toMatchObject({ trips: 1, stops: 2, drivingMinutes: 121 });
	});

	it.each([
		['2024-03-31', 'Europe/Berlin', 23],
		['2024-10-27', 'Europe/Berlin', 25],
		['2024-11-03', 'America/New_York', 25],
	])('counts %s in %s as %i hours', (day, timeZone, hours) => {
		const { from } = dayRange(day, timeZone);
		// From an hour before the day to an hour after it, driving for an hour in the middle.
		const start = new Date(Date.parse(from) - 60 * MINUTE).toISOString();
		const fixes = new Recorder(start).park(10 * 60).drive(60, 50).park(hours * 60 + 60 - 10 * 60 - 60 + 60).fixes;
		const summary = summarizeDay(track(fixes), span(day, timeZone), TRIP_DEFAULTS);
		expect(summary.drivingMinutes + summary.stoppedMinutes).toBe(hours * 60);
		expect(summary.drivingMinutes).toBeGreaterThanOrEqual(60);
		expect(summary.drivingMinutes).toBeLessThanOrEqual(61);
		expect(summary.trips).toBe(1);
	});

	it.each([
		// 00:30 CET to 03:30 CEST: three hours on the clock, two driven.
		['spring', '2024-03-30T23:00:00Z', '2024-03-31'],
		// 01:30 CEST to 02:30 CET: one hour on the clock, two driven.
		['autumn', '2024-10-26T23:00:00Z', '2024-10-27'],
	])('measures a trip across the %s daylight-saving change in Berlin by the real clock', (_, parkedFrom, day) => {
		const fixes = new Recorder(parkedFrom).park(30).drive(120, 50).park(30).fixes;
		const whole = track(fixes);
		const [, trip] = whole.segments.map((segment) => segmentItem(segment, 'd', 'D'));
		expect(trip.type).toBe('trip');
		expect(trip.durationMinutes).toBe(121);
		const summary = summarizeDay(whole, span(day, 'Europe/Berlin'), TRIP_DEFAULTS);
		expect(summary).toMatchObject({ trips: 1, drivingMinutes: 121 });
		expect(summary.distanceKm).toBeCloseTo(100, 0);
	});

	it('counts no distance for a day spent parked, however the GPS wanders', () => {
		const fixes = new Recorder('2024-05-01T00:00:00Z').park(24 * 60, { wanderMeters: 60, spikes: 9 }).fixes;
		const summary = summarizeDay(track(fixes), span('2024-05-01', 'UTC'), TRIP_DEFAULTS);
		expect(summary).toMatchObject({ distanceKm: 0, drivingMinutes: 0, trips: 0, stops: 1, idleMinutes: 0 });
	});

	it('gives an empty day without fixes, and no idling or fuel figures it cannot know', () => {
		const summary = summarizeDay(track([]), span('2024-05-01', 'UTC'), TRIP_DEFAULTS);
		expect(summary).toEqual({
			distanceKm: 0,
			drivingMinutes: 0,
			idleMinutes: null,
			stoppedMinutes: 0,
			trips: 0,
			stops: 0,
			maxSpeed: null,
			firstFix: null,
			lastFix: null,
			fuelUsed: null,
		});
	});

	it('counts fuel used with refills added back and level noise netted out', () => {
		const at = (fuel: number | undefined) => ({ at: 0, latitude: 1, longitude: 1, dateTime: '', fuel });
		expect(fuelUsed([at(60), at(59.6), at(59.8), at(58), at(20), at(80), at(75)].map((p) => p))).toBeCloseTo(60 - 75 + 60, 6);
		expect(fuelUsed([at(60), at(undefined)])).toBeNull();
		// The sender's sway up and down over a parked day is no consumption.
		expect(fuelUsed([at(50), at(50.4), at(49.8), at(50.2), at(50)])).toBe(0);
	});
});

describe('a silence ends a trip (issue 46.6)', () => {
	const endOf = (fixes: Fix[]) => Date.parse(fixes[fixes.length - 1].dateTime);

	it('ends a trip whose last fix stood still Min Stop Minutes into the silence, where it stopped, whatever comes next', () => {
		// Parked at the depot and switched off: the tracker sleeps until it is driven off the next morning.
		const evening = new Recorder('2024-05-01T16:00:00Z').park(10).drive(20, 50).park(2);
		const stoppedAt = evening.fixes[evening.fixes.length - 2].dateTime;
		const eveningEnd = endOf(evening.fixes);
		// Read up to 5 minutes after the last fix: the trip has ended (on main it ran on to the last fix).
		const readSoon = segmentTrack(evening.fixes, TRIP_DEFAULTS, eveningEnd + 5 * MINUTE).segments;
		expect(kinds(readSoon)).toEqual(['stop', 'trip', 'stop']);
		expect(readSoon[1].end.dateTime).toBe(stoppedAt);
		// Four minutes is not yet a stop: the trip is under way, to its last fix.
		expect(kinds(segmentTrack(evening.fixes, TRIP_DEFAULTS, eveningEnd + 4 * MINUTE).segments)).toEqual(['stop', 'trip']);
		// The next morning it is found driving 5 km further on: the trip ended where it stopped all the same.
		const morning = new Recorder(new Date(eveningEnd + 10 * 60 * MINUTE).toISOString(), 13.4, evening.fixes[evening.fixes.length - 1].latitude + 0.045).drive(10, 40).park(10);
		const whole = segmentTrack([...evening.fixes, ...morning.fixes], TRIP_DEFAULTS).segments;
		expect(whole[1]).toEqual(readSoon[1]);
		// No trip across the night: the track breaks there, and the morning's trip starts with its first fix.
		expect(whole.filter((segment) => segment.type === 'trip').map((segment) => segment.start.dateTime)).toEqual([readSoon[1].start.dateTime, morning.fixes[0].dateTime]);
	});

	it('ends a trip whose last fix was moving at that fix after Silence Ends Trip, and the trigger by its clock ends the same trip', () => {
		// Into a tunnel at 50 km/h, out of it 70 minutes later 40 km on.
		const before = new Recorder('2024-05-01T06:00:00Z').park(10).drive(30, 50);
		const lastMoving = before.fixes[before.fixes.length - 1];
		const after = new Recorder(new Date(endOf(before.fixes) + 69 * MINUTE).toISOString(), 13.4, lastMoving.latitude + 0.36).drive(20, 50).park(10);
		const fixes = [...before.fixes, ...after.fixes];
		const segments = segmentTrack(fixes, TRIP_DEFAULTS).segments;
		const trips = segments.filter((segment) => segment.type === 'trip');
		expect(trips).toHaveLength(2);
		expect(trips[0].end.dateTime).toBe(lastMoving.dateTime);
		// 59 minutes (the first fix a minute after the start given) is still a tunnel: one trip.
		const shortGap = [...before.fixes, ...new Recorder(new Date(endOf(before.fixes) + 58 * MINUTE).toISOString(), 13.4, lastMoving.latitude + 0.3).drive(20, 50).park(10).fixes];
		expect(kinds(segmentTrack(shortGap, TRIP_DEFAULTS).segments)).toEqual(['stop', 'trip', 'stop']);
		// Fix by fix with the clock of polls every 7 minutes in between: the same segments.
		const state = newSegmenter();
		const closed: Segment[] = [];
		let poll = Date.parse(fixes[0].dateTime);
		for (const fix of fixes) {
			while (poll + 7 * MINUTE < Date.parse(fix.dateTime)) closed.push(...endBySilence(state, (poll += 7 * MINUTE), TRIP_DEFAULTS));
			closed.push(...advance(state, fix, TRIP_DEFAULTS).closed);
		}
		closed.push(...openSegments(state, TRIP_DEFAULTS));
		expect(closed).toEqual(segments);
	});

	it('honours a longer Silence Ends Trip', () => {
		const before = new Recorder('2024-05-01T06:00:00Z').park(10).drive(30, 50);
		const after = new Recorder(new Date(endOf(before.fixes) + 69 * MINUTE).toISOString(), 13.4, before.fixes[before.fixes.length - 1].latitude + 0.36).drive(20, 50).park(10);
		const segments = segmentTrack([...before.fixes, ...after.fixes], { ...TRIP_DEFAULTS, silenceEndsTripMinutes: 90 }).segments;
		expect(kinds(segments)).toEqual(['stop', 'trip', 'stop']);
	});
});

describe('daily summary rules (issue 46.1-3)', () => {
	const span = (day: string, timeZone: string) => ({ from: startOfDay(day, timeZone), to: startOfDay(nextDay(day), timeZone) });
	/** What Get Daily Summary reads and sums: the fixes of its read range. */
	const summary = (fixes: Fix[], day: string, timeZone = 'UTC', settings = TRIP_DEFAULTS) => {
		const read = summaryReadRange(span(day, timeZone), settings);
		const within = fixes.filter((fix) => Date.parse(fix.dateTime) >= read.from && Date.parse(fix.dateTime) <= read.to);
		return summarizeDay(segmentTrack(within, settings, read.to), span(day, timeZone), settings);
	};
	/** Drives home and parks at `parkedAt`; silent over night; back on at `wakesAt`, `northKm` further north; an hour parked. */
	const van = (parkedAt: string, wakesAt: string, northKm: number) => {
		const evening = new Recorder(new Date(Date.parse(parkedAt) - 30 * MINUTE).toISOString()).drive(30, 40);
		evening.fixes[evening.fixes.length - 1].speed = 0;
		const home = evening.fixes[evening.fixes.length - 1];
		const morning = new Recorder(new Date(Date.parse(wakesAt) - MINUTE).toISOString(), 13.4, home.latitude + (northKm * 1000) / METERS_PER_DEGREE).park(61);
		return [...evening.fixes, ...morning.fixes];
	};

	it.each([
		['parked where it stays', 0, '07:00'],
		['found 5 km away', 5, '06:40'],
	])('gives two vans parked at 20:59 and 21:01 and silent until morning the same day (%s)', (_, northKm, wakes) => {
		const early = summary(van('2024-05-01T20:59:00Z', `2024-05-02T${wakes}:00Z`, northKm), '2024-05-02');
		const late = summary(van('2024-05-01T21:01:00Z', `2024-05-02T${wakes}:00Z`, northKm), '2024-05-02');
		expect(late).toEqual(early);
		// Time before the day's first fix is not counted: driving + stopped = first to last fix.
		expect(early).toMatchObject({ drivingMinutes: 0, stoppedMinutes: 60, trips: 0, distanceKm: 0 });
	});

	it('counts no silence in any part, and idling as part of driving and stopped, never beside them', () => {
		// America/Chicago, a delivery day with the engine left running at stops and a night's silence.
		const day = new Recorder('2024-05-01T23:00:00Z')
			.park(180, { rpm: 700 })
			.drive(60, 50)
			.park(90, { rpm: 800 })
			.silence(120)
			.drive(45, 40)
			.park(600, { rpm: 750 })
			.drive(30, 60)
			.park(600).fixes;
		const result = summary(day, '2024-05-02', 'America/Chicago');
		const tracked = result.drivingMinutes + result.stoppedMinutes;
		expect(tracked).toBeLessThanOrEqual(24 * 60 - 120 + 0.01);
		expect(result.idleMinutes!).toBeGreaterThan(0);
		expect(result.idleMinutes!).toBeLessThanOrEqual(tracked);
	});

	it('gives maxSpeed from the trips only: a parked day with GPS speed noise has none', () => {
		const parked = new Recorder('2024-05-01T22:00:00Z').park(26 * 60, { wanderMeters: 20, spikes: 4 }).fixes;
		expect(summary(parked, '2024-05-02')).toMatchObject({ trips: 0, maxSpeed: null });
		const drove = new Recorder('2024-05-02T06:00:00Z').park(30, { spikes: 4 }).drive(20, 47).park(30, { spikes: 4 }).fixes;
		expect(summary(drove, '2024-05-02')).toMatchObject({ trips: 1, maxSpeed: 47 });
	});
});

describe('trip options', () => {
	it('show the defaults the segmentation uses', async () => {
		const { tripOptionFields } = await import('../../nodes/shared/trips/properties');
		expect(Object.fromEntries(tripOptionFields.map((field) => [field.name, field.default]))).toEqual(TRIP_DEFAULTS);
	});
});
