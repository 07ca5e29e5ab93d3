/** Red team of issue 25 (rt25): the trigger's trip, idling and service events where odd data and options meet. */
import type { DetectionSettings, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
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
