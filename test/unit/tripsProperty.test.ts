// @host-zones: matrix
/**
 * Issue 46, the property: on random days in zones with 23-, 24.5- and 25-hour days and 30/45-minute
 * offsets, with silences (a tracker asleep, a tunnel), GPS jumps and buffered uploads, polled at
 * random intervals with the state through JSON, Trip Ended's trips are Get Trips and Stops' trips,
 * and Get Daily Summary's parts obey the rule: driving + stopped = the day's tracked time (every
 * interval between two consecutive fixes in the day, silences of Silence Ends Trip left out), idle
 * within them, maxSpeed from trips only.
 */
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import type { DeviceState, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { summarizeDay, summaryReadRange } from '../../nodes/shared/trips/dailySummary';
import { segmentItem } from '../../nodes/shared/trips/items';
import { segmentTrack, TRIP_DEFAULTS } from '../../nodes/shared/trips/segment';
import type { Location } from '../../nodes/shared/wire';
import { nextDay, startOfDay } from '../../nodes/shared/zonedDay';
import { detectionSettings } from '../support/trigger';

const MINUTE = 60_000;
const DEVICE = { id: 'd1', name: 'Van 1' };
const METERS_PER_DEGREE = 111_195.08;
const SILENCE_MS = TRIP_DEFAULTS.silenceEndsTripMinutes * MINUTE;

const DAYS: Array<[string, string, number]> = [
	['Europe/Berlin', '2024-03-31', 23],
	['Europe/Berlin', '2024-10-27', 25],
	['America/New_York', '2024-11-03', 25],
	['Australia/Lord_Howe', '2024-04-07', 24.5],
	['Australia/Adelaide', '2024-10-06', 23],
	['Asia/Kolkata', '2024-05-01', 24],
	['Asia/Kathmandu', '2024-05-01', 24],
];

interface Planned {
	fix: Location;
	arrives: number;
}

function randomDay(rnd: () => number, from: number, to: number): Planned[] {
	const plan: Planned[] = [];
	let at = from;
	let latitude = 48 + rnd();
	let moving = false;
	let buffering: Planned[] | undefined;
	const push = (fix: Location) => {
		const planned = { fix, arrives: Date.parse(fix.dateTime) };
		plan.push(planned);
		buffering?.push(planned);
	};
	while (at < to) {
		const leg = rnd();
		if (leg < 0.12) {
			// Silent: asleep at ignition off, or a tunnel; now and then moved while unseen.
			at += (10 + rnd() * (rnd() < 0.5 ? 60 : 600)) * MINUTE;
			if (rnd() < 0.3) latitude += (rnd() * 5000) / METERS_PER_DEGREE;
			continue;
		}
		moving = leg < 0.55 ? !moving : moving;
		const minutes = 3 + Math.floor(rnd() * 50);
		const kmh = 20 + rnd() * 70;
		// Out of coverage while driving: the fixes of up to 40 minutes arrive together at the end. (Longer
		// than Silence Ends Trip, the trigger has ended the trip by then, and reports it as it knew it:
		// test/engine/triggerTripSilence.test.ts.)
		const bufferFrom = at;
		// It loses coverage driving, after a fix that showed it moving (one that stood still ends its trip
		// Min Stop Minutes later, as a traffic light the fixes never show again).
		const lastFix = plan[plan.length - 1]?.fix;
		if (moving && lastFix?.speed !== undefined && lastFix.speed >= TRIP_DEFAULTS.movingSpeed && rnd() < 0.25) buffering = [];
		for (let i = 0; i < minutes && at < to; i++) {
			at += (rnd() < 0.8 ? 1 : 2) * MINUTE;
			if (moving) latitude += (kmh * 1000 * ((rnd() < 0.8 ? 1 : 2) / 60)) / METERS_PER_DEGREE;
			const wander = moving ? 0 : ((rnd() - 0.5) * 30) / METERS_PER_DEGREE;
			const rpm = rnd() < 0.7 ? (moving || rnd() < 0.4 ? 800 + rnd() * 1500 : 0) : undefined;
			const speed = rnd() < 0.85 ? (moving ? kmh : rnd() * 3) : undefined;
			push({ dateTime: new Date(at).toISOString(), latitude: latitude + wander, longitude: 13.4, speed, rpm } as Location);
			// A glitch 300 km off, once in a while.
			if (rnd() < 0.01) push({ dateTime: new Date(at + 20_000).toISOString(), latitude: latitude + 2.7, longitude: 13.4, speed } as Location);
			if (buffering && at - bufferFrom >= 40 * MINUTE) break;
		}
		if (buffering) {
			const last = Math.max(...buffering.map((planned) => Date.parse(planned.fix.dateTime)));
			for (const planned of buffering) planned.arrives = last;
			buffering = undefined;
		}
	}
	return plan;
}

describe('trips and daily summaries on random days (issue 46)', () => {
	const settings = detectionSettings({ events: ['tripStarted', 'tripEnded'], trip: TRIP_DEFAULTS });

	it.each(DAYS)('in %s on %s (%s hours): Trip Ended gives Get Trips\' trips; the summary\'s parts add up', (timeZone, day, hours) => {
		const span = { from: startOfDay(day, timeZone), to: startOfDay(nextDay(day), timeZone) };
		expect((span.to - span.from) / 3_600_000).toBe(hours);
		let seed = day.length * 7919 + timeZone.length * 104_729;
		const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
		const failures: string[] = [];
		for (let round = 0; round < 15; round++) {
			const plan = randomDay(rnd, span.from - 8 * 3_600_000, span.to + 2 * 3_600_000);
			const fixes = plan.map((planned) => planned.fix);

			// The trigger: polls every 1 to 15 minutes, each getting what arrived since the last; state through JSON.
			let state: DeviceState | undefined;
			const events: TriggerEvent[] = [];
			let previousPoll = -Infinity;
			const end = Math.max(...plan.map((planned) => planned.arrives)) + 30 * MINUTE;
			for (let now = plan[0].arrives; now <= end; now += (1 + Math.floor(rnd() * 15)) * MINUTE) {
				const arrived = plan.filter((planned) => planned.arrives > previousPoll && planned.arrives <= now).map((planned) => planned.fix);
				const result = detectDeviceEvents(state, DEVICE, arrived, settings, new Date(now));
				events.push(...result.events);
				state = JSON.parse(JSON.stringify(result.state)) as DeviceState;
				previousPoll = now;
			}
			const ended = events.filter((event) => event.event === 'tripEnded').map((event) => event.trip);
			const trips = segmentTrack(fixes, TRIP_DEFAULTS, previousPoll)
				.segments.filter((segment) => segment.type === 'trip')
				.map((segment) => segmentItem(segment, DEVICE.id, DEVICE.name));
			// The last trip may be under way still.
			if (JSON.stringify(ended) !== JSON.stringify(trips.slice(0, ended.length)) || ended.length < trips.length - 1) {
				{ const i = ended.findIndex((trip, k) => JSON.stringify(trip) !== JSON.stringify(trips[k])); failures.push(`round ${round}: trips ${ended.length} ended vs ${trips.length} ${JSON.stringify(ended[i])} ${JSON.stringify(trips[i])} ${JSON.stringify(trips[i + 1])}`); }
			}

			// Get Daily Summary: what it reads, summed up.
			const read = summaryReadRange(span, TRIP_DEFAULTS);
			const within = fixes.filter((fix) => Date.parse(fix.dateTime) >= read.from && Date.parse(fix.dateTime) <= read.to);
			const track = segmentTrack(within, TRIP_DEFAULTS, read.to);
			const summary = summarizeDay(track, span, TRIP_DEFAULTS);
			let trackedMs = 0;
			for (let k = 0; k + 1 < track.points.length; k++) {
				const [a, b] = [track.points[k], track.points[k + 1]];
				if (b.at - a.at < SILENCE_MS) trackedMs += Math.max(0, Math.min(b.at, span.to) - Math.max(a.at, span.from));
			}
			const parts = summary.drivingMinutes + summary.stoppedMinutes;
			if (Math.abs(parts - trackedMs / MINUTE) > 0.02) failures.push(`round ${round}: driving + stopped ${parts} vs tracked ${trackedMs / MINUTE}`);
			if (parts > hours * 60 + 0.01) failures.push(`round ${round}: ${parts} minutes in a ${hours}-hour day`);
			if ((summary.idleMinutes ?? 0) > parts + 0.01) failures.push(`round ${round}: idle ${summary.idleMinutes} beyond ${parts}`);
			if (summary.trips === 0 && summary.maxSpeed !== null) failures.push(`round ${round}: maxSpeed ${summary.maxSpeed} without a trip`);
			// The day is the same read from the whole record: what came before the read range changes nothing.
			const fromAll = summarizeDay(segmentTrack(fixes.filter((fix) => Date.parse(fix.dateTime) <= read.to), TRIP_DEFAULTS, read.to), span, TRIP_DEFAULTS);
			if (fromAll.drivingMinutes + fromAll.stoppedMinutes !== parts) failures.push(`round ${round}: ${parts} minutes read from the range, ${fromAll.drivingMinutes + fromAll.stoppedMinutes} from the whole record`);
		}
		expect(failures).toEqual([]);
	});
});
