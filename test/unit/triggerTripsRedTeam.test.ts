/** Red team of issue 25 (rt25): the trigger's trip, idling and service events where odd data and options meet. */
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import type { DetectionSettings, DeviceState, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { segmentItem } from '../../nodes/shared/trips/items';
import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings, pollDevice, type DevicePoll } from '../support/trigger';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-05T08:00:00Z');
const DEVICE = { id: 'd1', name: 'Van 1' };
const settingsFor = (overrides: Partial<DetectionSettings>) => detectionSettings({ trip: TRIP_DEFAULTS, ...overrides });
const kinds = (events: TriggerEvent[][] | TriggerEvent[], kind: string) => (events as TriggerEvent[][]).flat().filter((event) => event.event === kind);
const fix = (minute: number, north: number, extra: Partial<Location> = {}): Location =>
	({ dateTime: new Date(T0 + minute * MINUTE).toISOString(), latitude: 52.5 + north * 0.009, longitude: 13.4, ...extra }) as Location;
/** Each fix in its own poll, the first a baseline. */
const onePerPoll = (fixes: Location[]): DevicePoll[] => fixes.map((f) => ({ fixes: [f], now: new Date(Date.parse(f.dateTime) + 30_000) }));
const tripsOf = (fixes: Location[]) => segmentTrack(fixes, TRIP_DEFAULTS).segments.filter((s) => s.type === 'trip').map((s) => segmentItem(s, DEVICE.id, DEVICE.name));

describe('trips', () => {
	const settings = settingsFor({ events: ['tripStarted', 'tripEnded'] });

	it('a record sent twice (no speed field) gives the trip Get Trips gives', () => {
		// Parked, drives north 1 km a minute for 5 min, parks; no speed field: speed is implied.
		const track = [fix(0, 0), fix(5, 0), fix(6, 1), fix(7, 2), fix(8, 3), fix(9, 3), fix(10, 3), fix(20, 3), fix(30, 3)];
		const withDup = [...track.slice(0, 5), track[4], ...track.slice(5)];
		const whole = tripsOf(withDup);
		const ended = kinds(pollDevice(DEVICE, onePerPoll(withDup), settings).events, 'tripEnded').map((e) => e.trip);
		expect(ended).toEqual(whole);
	});
});

describe('trips, the first poll', () => {
	it('a trip under way in the fixes a first poll reads, hours old, is not reported ended by a later poll', () => {
		// The device drove until 08:29 and has been silent since; the trigger is started at 12:00.
		const drive = Array.from({ length: 30 }, (_, minute) => fix(minute, minute > 5 ? (minute - 5) * 0.6 : 0, { speed: minute > 5 ? 40 : 0 }));
		const polls: DevicePoll[] = [0, 10, 70, 130].map((minutes) => ({ fixes: minutes === 0 ? drive : [], now: new Date(T0 + (240 + minutes) * MINUTE) }));
		expect(kinds(pollDevice(DEVICE, polls, settingsFor({ events: ['tripStarted', 'tripEnded'] })).events, 'tripEnded')).toEqual([]);
	});
});

describe('trips, glitches', () => {
	const settings = settingsFor({ events: ['tripStarted', 'tripEnded'] });
	it('a glitch 100 km away sent twice does not break the trip Get Trips gives', () => {
		const drive = [fix(0, 0), fix(5, 0), fix(6, 1), fix(7, 2), fix(8, 3), fix(9, 4), fix(10, 5), fix(11, 5), fix(20, 5), fix(30, 5)];
		const glitch = fix(7.5, 100);
		const withGlitch = [...drive.slice(0, 4), glitch, glitch, ...drive.slice(4)];
		expect(tripsOf(withGlitch)).toEqual(tripsOf(drive));
		expect(kinds(pollDevice(DEVICE, onePerPoll(withGlitch), settings).events, 'tripEnded').map((e) => e.trip)).toEqual(tripsOf(drive));
	});
});

describe('trips over noisy tracks', () => {
	const settings = settingsFor({ events: ['tripStarted', 'tripEnded', 'idling', 'maintenanceDue'], idleMinutes: 10, service: { intervalKm: 10_000, startKm: 0 } });

	it('random tracks with glitches, (0, 0), undated records and repeats, polled at random times (1 min to 1.5 h) through a JSON copy of the state: every Trip Ended is Get Trips\' trip, ids unique', () => {
		let seed = 1;
		const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
		const failures: string[] = [];
		for (let round = 0; round < 150; round++) {
			const fixes: Location[] = [];
			let north = 0;
			let minute = 0;
			let moving = false;
			for (let i = 0; i < 120; i++) {
				minute += rnd() < 0.1 ? Math.floor(rnd() * 30) : rnd() < 0.1 ? 0 : 1;
				if (rnd() < 0.08) moving = !moving;
				if (moving) north += 0.3 + rnd() * 0.6;
				const withSpeed = rnd() < 0.7;
				const extra: Partial<Location> = withSpeed ? { speed: moving ? 30 + rnd() * 40 : rnd() * 3 } : {};
				const r = rnd();
				if (r < 0.03) fixes.push(fix(minute, north + 200, extra)); // glitch
				else if (r < 0.05) fixes.push({ ...fix(minute, north, extra), latitude: 0, longitude: 0 });
				else if (r < 0.07) fixes.push({ ...fix(minute, north, extra), dateTime: null as unknown as string });
				else fixes.push(fix(minute, north + (moving ? 0 : (rnd() - 0.5) * 0.005), extra));
				if (rnd() < 0.05) fixes.push(fixes[fixes.length - 1]);
			}
			const sorted = [...fixes].sort((a, b) => (Date.parse(a.dateTime) || 0) - (Date.parse(b.dateTime) || 0));
			const last = Date.parse(sorted.filter((f) => Date.parse(f.dateTime)).pop()!.dateTime);
			// Polls at random times; each poll gets what arrived since the last poll (shuffled), state through JSON.
			const polls: DevicePoll[] = [];
			const firstAt = Date.parse(fixes[0].dateTime);
			polls.push({ fixes: [fixes[0]], now: new Date(firstAt) });
			let from = firstAt;
			for (let now = firstAt + 1; from < last; ) {
				now = from + (rnd() < 0.5 ? MINUTE : rnd() * 90 * MINUTE);
				const due = fixes.filter((f) => { const t = Date.parse(f.dateTime); return t >= from && t <= now; });
				polls.push({ fixes: due, now: new Date(now) });
				from = now;
			}
			let state: DeviceState | undefined;
			const events: TriggerEvent[] = [];
			for (const poll of polls) {
				const result = detectDeviceEvents(state, DEVICE, poll.fixes, settings, poll.now);
				events.push(...result.events);
				state = JSON.parse(JSON.stringify(result.state));
			}
			const usable = fixes.filter((f) => Date.parse(f.dateTime) >= firstAt);
			// Read up to the last poll: a silence by then has ended a trip for both (issue 46.6).
			const whole = segmentTrack(usable, TRIP_DEFAULTS, polls[polls.length - 1].now.getTime()).segments;
			const closedTrips = whole.filter((s) => s.type === 'trip').map((s) => segmentItem(s, DEVICE.id, DEVICE.name));
			const ended = kinds(events, 'tripEnded').map((e) => e.trip);
			// The last trip may still be open for the trigger; compare the ended ones, as far as the trigger got.
			const got = JSON.stringify(ended);
			const want = JSON.stringify(closedTrips.slice(0, ended.length));
			if (got !== want || ended.length < closedTrips.length - 1) failures.push(`round ${round}: ${ended.length} vs ${closedTrips.length}\n${got}\n${want}`);
			const ids = events.map((e) => e.eventId);
			if (new Set(ids).size !== ids.length) failures.push(`round ${round}: duplicate ids`);
		}
		expect(failures.slice(0, 3)).toEqual([]);
	});
});

describe('Idling', () => {
	const settings = settingsFor({ events: ['idling'], idleMinutes: 10 });
	const idling = (fixes: Location[]) => kinds(pollDevice(DEVICE, onePerPoll(fixes), settings).events, 'idling');

	it('idle Minutes lowered mid-period reports the period at its next fix, with its length', () => {
		const first = pollDevice(DEVICE, onePerPoll([0, 2, 4, 6, 8].map((m) => fix(m, 0, { rpm: 900, speed: 0 }))), settings);
		const lowered = pollDevice(DEVICE, onePerPoll([fix(9, 0, { rpm: 900, speed: 0 })]), settingsFor({ events: ['idling'], idleMinutes: 5 }), first.state);
		expect(kinds(lowered.events, 'idling').map((event) => event.idleMinutes)).toEqual([9]);
	});

	// The engine running at the last fix before a tracker sleeps and at the first one next morning was
	// "idling for 12 hours", reported at once (Get Trips' idleMinutes counted it too).
	it('a silence of 12 hours between two fixes with the engine running is no 12 hours of idling', () => {
		expect(idling([fix(0, 0, { rpm: 900, speed: 0 }), fix(2, 0, { rpm: 900, speed: 0 }), fix(12 * 60, 0, { rpm: 900, speed: 0 })])).toEqual([]);
	});

	// A fix without `speed` counted as speed 0 for idling, while trips take the speed its position
	// implies: a truck driving at 60 km/h with rpm and no speed field "idled".
	it('an engine running on a device driving 60 km/h without a speed field is not idling', () => {
		expect(idling([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => fix(m, m, { rpm: 2200 })))).toEqual([]);
	});
});

describe('Maintenance Due', () => {
	const service = settingsFor({ events: ['maintenanceDue'], service: { intervalKm: 10_000, startKm: 0 } });
	const at = (minute: number, milleage: unknown) => fix(minute, 0, { milleage: milleage as number });
	const due = (readings: unknown[], settings = service) =>
		kinds(pollDevice(DEVICE, onePerPoll(readings.map((km, i) => at(i * 10, km))), settings).events, 'maintenanceDue').map((e) => [e.milleage, e.serviceDueKm]);

	it('a record without the odometer (the API sends 0) between two readings is no new mark passed', () => {
		// Baseline 41,000 km: the 40,000 mark was passed before the trigger watched.
		expect(due([41_000, 0, 41_010, 0, 41_020, 49_990, 0, 50_010])).toEqual([[50_010, 50_000]]);
		// A device whose CAN data arrives after a few records: 0 first, then the real odometer.
		expect(due([0, 0, 41_000, 49_990, 0, 50_010])).toEqual([[50_010, 50_000]]);
	});

	it('an odometer dipping (a stale or glitched reading) and back reports no mark already behind it', () => {
		expect(due([41_000, 38_000, 41_010])).toEqual([]);
	});

	it('text, NaN and negative readings are skipped', () => {
		expect(due([9_990, '10010', NaN, -5, 10_020])).toEqual([[10_020, 10_000]]);
	});

	it('a single spike (4,294,967 km) neither reports a mark nor silences the marks after it', () => {
		expect(due([41_000, 41_010, 4_294_967, 41_020, 49_990, 50_010])).toEqual([[50_010, 50_000]]);
	});

	it('a real leap (a week offline) is taken at the second reading that agrees with it', () => {
		expect(due([41_000, 48_500, 49_900, 50_100])).toEqual([[50_100, 50_000]]);
		expect(due([41_000, 48_500, 50_100, 50_200])).toEqual([[50_100, 50_000]]);
	});
});
