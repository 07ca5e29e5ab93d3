/**
 * What the selected events need besides each device's fixes, from their detectors' declarations
 * (`Detector.needs`): the poll plans its reads and checks from here, never from event names. Pure.
 */
import type { Detector } from './detector';
import { DETECTORS } from './detectors';
import type { DetectionSettings, EventKind } from './types';

/** The detectors that run for these events. */
export function selectedDetectors(events: readonly EventKind[]): Detector[] {
	return DETECTORS.filter((entry) => entry.events.some((kind) => events.includes(kind))).map((entry) => entry.detector);
}

/** The events whose detector declares `need`, e.g. the geofence events. */
export function eventsNeeding(need: keyof NonNullable<Detector['needs']>): EventKind[] {
	return DETECTORS.filter((entry) => entry.detector.needs?.[need] !== undefined).flatMap((entry) => entry.events);
}

/**
 * A tracker without a GPS lock (a reefer in a cold store) repeats its last time and position while
 * its temperature and inputs change: for the events that read those, such a record is news.
 */
export function readsTelemetry(settings: Pick<DetectionSettings, 'events'>): boolean {
	return selectedDetectors(settings.events).some((detector) => detector.needs?.telemetry === true);
}

/** The time zone whose days each device's alerts are counted in, when a selected event reads them; else undefined. */
export function alertsTimeZone(settings: DetectionSettings): string | undefined {
	for (const detector of selectedDetectors(settings.events)) if (detector.needs?.alerts) return detector.needs.alerts(settings);
	return undefined;
}
