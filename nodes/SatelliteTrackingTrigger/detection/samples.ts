/**
 * "Fetch Test Event": items of every selected event kind, from the devices read. What those devices
 * would report if seen for the first time with their current state emitted is real and shown as it
 * is; a selected kind that did not happen among them is shown by a sample built from the device with
 * the newest fix (at version 2, the newest of those whose data fits the kind, when one does), with
 * every field its kind carries, marked `sample: true`. Pure.
 */
import { deviceEvent, type Observation } from './detector';
import { EVENT_KINDS, EVENTS } from './detectors';
import { detectDeviceEvents } from './deviceEvents';
import { fixTime, freshFixes } from './fixes';
import { plausiblePositions } from './positions';
import type { DetectionSettings, DeviceInfo, ReadOutcome, TriggerEvent } from './types';

export function sampleEvents(
	devices: DeviceInfo[],
	outcomes: Map<string, ReadOutcome>,
	settings: DetectionSettings,
	now: Date,
	consistent: boolean,
): TriggerEvent[] {
	const current = { ...settings, emitCurrentState: true };
	const read = devices.flatMap((device) => {
		const outcome = outcomes.get(device.id);
		return outcome?.ok ? [{ device, fixes: outcome.fixes, notifications: outcome.notifications }] : [];
	});
	const real = read.flatMap(({ device, fixes, notifications }) => detectDeviceEvents(undefined, device, fixes, current, now, notifications).events);
	const observations = read.map(({ device, fixes, notifications }): Observation => {
		const { fresh, readings, late, newest } = freshFixes({}, fixes, now);
		return { device, fresh, readings, late, positions: plausiblePositions(fresh, undefined).positions, newest, now, notifications };
	});
	const source = newestObservation(observations);
	if (!source) return real;
	const missing = EVENT_KINDS.filter(
		(kind) => settings.events.includes(kind) && !real.some((event) => event.event === kind),
	);
	const samples = missing.map((kind) => {
		const { detector } = EVENTS[kind];
		// Version 2: a device whose data shows the event as it is (a van parked in the depot for a
		// dwell), rather than the newest device moved to fit; version 1 keeps the samples it showed.
		const fitting = consistent && detector.fits ? newestObservation(observations.filter((observation) => detector.fits!(kind, observation, settings))) : undefined;
		const from = fitting ?? source;
		return asSample(detector.sample?.(kind, from, settings, consistent) ?? deviceEvent(kind, from, from.newest ?? null));
	});
	return [...real, ...samples];
}

/** The device that reported last shows the freshest data; any device when none has reported. */
function newestObservation(observations: Observation[]): Observation | undefined {
	const time = (observation: Observation) => (observation.newest ? fixTime(observation.newest) : -Infinity);
	return observations.reduce<Observation | undefined>((best, observation) => (best && time(best) >= time(observation) ? best : observation), undefined);
}

/** Its own id, so that a workflow deduplicating on `eventId` never takes a sample for the real event. */
function asSample(event: TriggerEvent): TriggerEvent {
	return { ...event, eventId: `sample-${event.eventId}`, sample: true };
}
