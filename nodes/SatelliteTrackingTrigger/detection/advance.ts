/**
 * One poll's worth of change detection over all devices read: the events, in device order, and the
 * next state. Devices that left the account or the selection are dropped; a device whose read
 * failed keeps its state and is read first next time, so nothing it did is lost. Pure.
 */
import type { Location } from '../../shared/wire';
import { detectDeviceEvents } from './deviceEvents';
import type { ReadPlan } from './plan';
import {
	STATE_VERSION,
	type DayCounts,
	type DetectionSettings,
	type DeviceInfo,
	type DeviceState,
	type TriggerEvent,
	type TriggerState,
} from './types';

/** `notifications`: the counts of the read's `days`, when it had some. */
export type ReadOutcome = { ok: true; fixes: Location[]; notifications?: DayCounts[] } | { ok: false; error: unknown };

export interface PollOutcome {
	events: TriggerEvent[];
	state: TriggerState;
	failures: Array<{ deviceId: string; error: unknown }>;
}

export function advance(
	previous: TriggerState,
	devices: DeviceInfo[],
	plan: ReadPlan,
	outcomes: Map<string, ReadOutcome>,
	settings: DetectionSettings,
	now: Date,
): PollOutcome {
	const readsById = new Map(plan.reads.map((read) => [read.deviceId, read]));
	const next: Record<string, DeviceState> = {};
	const events: TriggerEvent[] = [];
	const failures: PollOutcome['failures'] = [];
	for (const device of devices) {
		const kept = previous.devices[device.id];
		const read = readsById.get(device.id);
		const outcome = outcomes.get(device.id);
		if (!read || !outcome || !outcome.ok) {
			if (kept) next[device.id] = kept;
			if (outcome && !outcome.ok) failures.push({ deviceId: device.id, error: outcome.error });
			continue;
		}
		const detection = detectDeviceEvents(kept, device, outcome.fixes, settings, now, outcome.notifications);
		const readUntil = read.kind === 'range' ? read.to : now.toISOString();
		next[device.id] = detection.state.fix ? detection.state : { ...detection.state, since: readUntil };
		events.push(...detection.events);
	}
	const state: TriggerState = { version: STATE_VERSION, devices: next };
	if (plan.cursor !== undefined) state.cursor = plan.cursor;
	if (failures.length > 0) state.retry = failures.map((failure) => failure.deviceId);
	return { events, state, failures };
}

/**
 * "Fetch Test Event": what the devices read would report if seen for the first time with their
 * current state emitted; when that is nothing, their current last locations.
 */
export function sampleEvents(
	devices: DeviceInfo[],
	outcomes: Map<string, ReadOutcome>,
	settings: DetectionSettings,
	now: Date,
): TriggerEvent[] {
	const current = { ...settings, emitCurrentState: true };
	const read = devices.flatMap((device) => {
		const outcome = outcomes.get(device.id);
		return outcome?.ok ? [{ device, fixes: outcome.fixes, notifications: outcome.notifications }] : [];
	});
	const detect = (options: DetectionSettings) =>
		read.flatMap(({ device, fixes, notifications }) => detectDeviceEvents(undefined, device, fixes, options, now, notifications).events);
	const events = detect(current);
	if (events.length > 0) return events;
	return detect({ ...current, events: ['locationUpdated'] });
}
