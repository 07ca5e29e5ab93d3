/**
 * "Fetch Test Event" samples of version 2 could have happened: each agrees with itself, its settings
 * and the time it is shown (issue 22: a Daily Limit Near with count 0 of limit 5, a Device Expiring
 * on a date already past). The device read here makes version 1's samples contradict themselves in
 * each of those ways: an expiry gone by, no e-mails today, a fix from a minute ago, a slow speed,
 * no geofence around it.
 */
import type { ReadOutcome } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { sampleEvents } from '../../nodes/SatelliteTrackingTrigger/detection/samples';
import { EVENT_KINDS } from '../../nodes/SatelliteTrackingTrigger/detection/detectors';
import type { DetectionSettings, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { circleGeofence, geofenceContains, type Geofence } from '../../nodes/shared/geo/geofence';
import { thresholdsReached } from '../../nodes/shared/notifications';
import { DAY_MS } from '../../nodes/shared/zonedDay';
import type { Location } from '../../nodes/shared/wire';
import { detectionSettings } from '../support/trigger';

const MINUTE = 60_000;
const depot = circleGeofence('Depot', 10, 10, 1000);
if (!depot.ok) throw new Error(depot.problem);

function settingsIn(timeZone: string): DetectionSettings {
	return detectionSettings({
		events: [...EVENT_KINDS],
		geofences: [depot.ok ? depot.value : (undefined as never)],
		dailyLimit: { limits: { email: 5 }, share: 0.8, timeZone },
		thresholdRules: [{ field: 'speed', direction: 'above', value: 80, hysteresis: 0 }],
		fuelDrop: { amount: 10, withinMinutes: 15, maxSpeed: 5 },
		inputChange: { lines: ['input'], indexes: [], direction: 'on' },
		silentAfterMinutes: 60,
		expiringWithinDays: 7,
		trip: { movingSpeed: 5, minStopMinutes: 5, minTripDistanceMeters: 200, silenceEndsTripMinutes: 60 },
		idleMinutes: 10,
		service: { intervalKm: 5_000, startKm: 1_000 },
	});
}

/** What a sample says that could not have happened; empty when it agrees with itself. */
function contradictions(event: TriggerEvent, settings: DetectionSettings, now: Date): string[] {
	const problems: string[] = [];
	const location = event.location as (Location & { latitude: number; longitude: number }) | null;
	const fence = (name?: string) => settings.geofences.find((geofence: Geofence) => geofence.name === name)!;
	const minutesSince = (at: string) => Math.floor((now.getTime() - Date.parse(at)) / MINUTE);
	switch (event.event) {
		case 'dailyLimitNear':
			if (!thresholdsReached(event.count!, event.limit!, settings.dailyLimit!.share).includes(event.threshold as 'near')) problems.push(`count ${event.count} of ${event.limit} is not ${event.threshold}`);
			break;
		case 'deviceExpiring': {
			const expires = Date.parse(event.expires!);
			if (!(expires > now.getTime() && expires <= now.getTime() + settings.expiringWithinDays * DAY_MS)) problems.push(`expires ${event.expires} is not within the window`);
			break;
		}
		case 'deviceSilent':
			if (event.silentForMinutes! < settings.silentAfterMinutes) problems.push(`silent ${event.silentForMinutes} min`);
			if (location && minutesSince(location.dateTime) !== event.silentForMinutes) problems.push('silence does not match the last fix');
			break;
		case 'deviceBackOnline':
			if (event.silentForMinutes! < settings.silentAfterMinutes) problems.push(`back after ${event.silentForMinutes} min`);
			break;
		case 'valueCrossed': {
			const rule = settings.thresholdRules![0];
			if (rule.direction === 'above' ? event.value! <= Number(event.threshold) : event.value! >= Number(event.threshold)) problems.push(`${event.value} is not ${rule.direction} ${event.threshold}`);
			if (location && location[event.field!] !== event.value) problems.push('value is not the fix’s');
			break;
		}
		case 'fuelDropped':
			if (!(event.dropped! > settings.fuelDrop!.amount)) problems.push(`dropped ${event.dropped} is not more than ${settings.fuelDrop!.amount}`);
			if (Math.abs(event.previousValue! - event.value! - event.dropped!) > 1e-9) problems.push('previous - value is not the drop');
			break;
		case 'inputChanged': {
			const { direction } = settings.inputChange!;
			if (direction !== 'both' && event.to !== (direction === 'on')) problems.push(`switched ${event.to ? 'on' : 'off'} while ${direction} is watched`);
			const lines = location?.[event.line === 'output' ? 'outputs' : 'inputs'];
			if (Array.isArray(lines) && lines[event.input!] !== event.to) problems.push('the fix shows the line the other way');
			break;
		}
		case 'tripStarted':
		case 'tripEnded': {
			const trip = event.trip!;
			const { minTripDistanceMeters, minStopMinutes, movingSpeed } = settings.trip!;
			if (!(trip.distanceKm! * 1000 >= minTripDistanceMeters)) problems.push(`a trip of ${trip.distanceKm} km is shorter than Min Trip Distance`);
			if (!(trip.durationMinutes > 0) || Date.parse(trip.end.dateTime) > now.getTime()) problems.push('the trip does not end by now, after its start');
			const moving = (location?.speed ?? 0) >= movingSpeed;
			if (event.event === 'tripStarted' && !moving) problems.push('a trip just confirmed, standing');
			if (event.event === 'tripEnded' && (moving || minutesSince(trip.end.dateTime) - minutesSince(location!.dateTime) < minStopMinutes)) {
				problems.push('a trip ended less than Min Stop Minutes before, or still moving');
			}
			break;
		}
		case 'idling':
			if (!(event.idleMinutes! >= settings.idleMinutes!)) problems.push(`idled ${event.idleMinutes} min`);
			if (!((location?.rpm ?? 0) > 0) || (location?.speed ?? 0) >= settings.trip!.movingSpeed) problems.push('idling without the engine running, or moving');
			break;
		case 'maintenanceDue': {
			const { intervalKm, startKm } = settings.service!;
			if (!(event.milleage! >= event.serviceDueKm!) || (event.serviceDueKm! - startKm) % intervalKm !== 0 || event.serviceDueKm! <= startKm) problems.push(`${event.milleage} km is not past the mark ${event.serviceDueKm}`);
			break;
		}
		case 'geofenceEntered':
		case 'geofenceDwell':
			if (!location || !geofenceContains(fence(event.geofence), location)) problems.push(`not inside ${event.geofence}`);
			break;
		case 'geofenceExited':
			if (!location || geofenceContains(fence(event.geofence), location)) problems.push(`inside ${event.geofence}`);
			break;
		default:
	}
	return problems.map((problem) => `${event.event}: ${problem}`);
}

function samplesAt(now: Date, settings: DetectionSettings, consistent: boolean): TriggerEvent[] {
	const truck = { id: 't1', name: 'Truck 1', expires: new Date(now.getTime() - 9 * DAY_MS).toISOString() };
	const fix = {
		dateTime: new Date(now.getTime() - MINUTE).toISOString(),
		latitude: 51.5,
		longitude: -0.12,
		speed: 32,
		fuel: 40,
		inputs: [false, false],
		alertTexts: [],
		alerts: [],
	} as unknown as Location;
	const outcomes = new Map<string, ReadOutcome>([[truck.id, { ok: true, fixes: [fix], notifications: [] }]]);
	return sampleEvents([truck], outcomes, settings, now, consistent);
}

describe.each(['UTC', 'Pacific/Auckland'])('"Fetch Test Event" samples with days in %s', (timeZone) => {
	const settings = settingsIn(timeZone);

	it('version 2: every selected kind has a sample that could have happened, now', () => {
		const now = new Date();
		const items = samplesAt(now, settings, true);
		// The device's current fix is real news (locationUpdated); everything else is made up.
		expect(items.filter((event) => !event.sample).map((event) => event.event)).toEqual(['locationUpdated']);
		const samples = items.filter((event) => event.sample);
		expect(samples.map((event) => event.event).sort()).toEqual(EVENT_KINDS.filter((kind) => kind !== 'locationUpdated').sort());
		for (const event of samples) expect(event.eventId).toMatch(/^sample-/);
		expect(samples.flatMap((event) => contradictions(event, settings, now))).toEqual([]);
	});

	it('version 1 keeps the samples it showed, which the check above refuses', () => {
		const now = new Date();
		const problems = samplesAt(now, settings, false).flatMap((event) => contradictions(event, settings, now));
		for (const kind of ['dailyLimitNear', 'deviceExpiring', 'deviceSilent', 'deviceBackOnline', 'valueCrossed', 'fuelDropped', 'inputChanged', 'geofenceEntered', 'geofenceDwell']) {
			expect(problems.some((problem) => problem.startsWith(`${kind}:`))).toBe(true);
		}
	});
});
