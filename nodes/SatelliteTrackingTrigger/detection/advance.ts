/**
 * One poll's worth of change detection over all devices read: the events, in device order, and the
 * next state. A device whose read failed keeps its state and is read first next time, so nothing it
 * did is lost. A device the listing leaves out keeps its state too, for ABSENT_RETENTION_MS, so one
 * that comes back is read on from its newest fix seen instead of starting a new baseline. Only the
 * trigger's first poll is a silent baseline: a device that appears after it is new, and what it shows
 * (its first fix, an expiry within the window…) is reported as if the current state were emitted. Pure.
 */
import { DAY_MS } from '../../shared/zonedDay';
import { detectDeviceEvents } from './deviceEvents';
import { nextCursor, type ReadPlan } from './plan';
import {
	STATE_VERSION,
	type DetectionSettings,
	type DeviceInfo,
	type DeviceState,
	type ReadOutcome,
	type TriggerEvent,
	type TriggerState,
} from './types';

/**
 * How long the state of a device the listing no longer shows is kept: long enough for a listing that
 * leaves devices out for a call, a license lapsing and renewed, or a device moved out of a group and
 * back; short enough that devices gone for good do not pile up in the workflow's static data.
 */
export const ABSENT_RETENTION_MS = 7 * DAY_MS;

export interface PollOutcome {
	events: TriggerEvent[];
	state: TriggerState;
	failures: Array<{ deviceId: string; error: unknown }>;
	/** Records fetched that were no readable fix (no date, no position), skipped. */
	unreadable: number;
}

export function advance(
	previous: TriggerState,
	devices: DeviceInfo[],
	plan: ReadPlan,
	outcomes: Map<string, ReadOutcome>,
	settings: DetectionSettings,
	now: Date,
	unanswered: ReadonlySet<string> = new Set(),
): PollOutcome {
	const planned = new Set(plan.reads.map((read) => read.deviceId));
	const next: Record<string, DeviceState> = {};
	const events: TriggerEvent[] = [];
	const failures: PollOutcome['failures'] = [];
	let unreadable = 0;
	const started = previous.started === true;
	const awaitingBaseline = new Set(previous.baselinePending ?? []);
	const baselinePending: string[] = [];
	for (const device of devices) {
		const kept = present(previous.devices[device.id]);
		const outcome = outcomes.get(device.id);
		const baseline = !started || awaitingBaseline.has(device.id);
		if (!planned.has(device.id) || !outcome || !outcome.ok) {
			if (kept) next[device.id] = kept;
			else if (baseline) baselinePending.push(device.id);
			if (outcome && !outcome.ok) failures.push({ deviceId: device.id, error: outcome.error });
			continue;
		}
		const isNew = kept === undefined && !baseline;
		const options = isNew ? { ...settings, emitCurrentState: true } : settings;
		const detection = detectDeviceEvents(kept, device, outcome.fixes, options, now, outcome.notifications, outcome.coveredFrom);
		// The poll's time, not the range's end, which lies a day ahead for devices whose clock runs ahead.
		const state = detection.state.fix ? detection.state : { ...detection.state, since: now.toISOString() };
		next[device.id] = outcome.ahead === undefined ? state : { ...state, ahead: outcome.ahead };
		events.push(...detection.events);
		unreadable += detection.unreadable;
	}
	const listed = new Set(devices.map((device) => device.id));
	// Listed by the first poll, not read yet, and left out of this listing: still a baseline when it is back.
	baselinePending.push(...[...awaitingBaseline].filter((deviceId) => !listed.has(deviceId)));
	// for…in, not Object.entries: no pair per device of an account's thousands (bench P3).
	for (const deviceId in previous.devices) {
		if (listed.has(deviceId)) continue;
		const kept = previous.devices[deviceId];
		const absentSince = kept.absentSince ?? now.toISOString();
		if (now.getTime() - Date.parse(absentSince) < ABSENT_RETENTION_MS) next[deviceId] = { ...kept, absentSince };
	}
	const state: TriggerState = { version: STATE_VERSION, devices: next, started: true };
	if (baselinePending.length > 0) state.baselinePending = baselinePending;
	// A device the service cannot answer within Max Poll Time takes its turn and goes to the back:
	// waited for first in every poll, it held the round robin there for good.
	const cursor = nextCursor(plan, (deviceId) => outcomes.has(deviceId) || unanswered.has(deviceId), previous.cursor, unanswered);
	if (cursor !== undefined) state.cursor = cursor;
	const retry = failing(previous.retry ?? [], outcomes, listed);
	if (retry.length > 0) state.retry = retry;
	return { events, state, failures, unreadable };
}

/**
 * Devices whose latest read failed, the longest failing first: a device failing again goes to the
 * back, so the retried share of the budget goes round them instead of to the same one each time.
 */
function failing(before: string[], outcomes: Map<string, ReadOutcome>, listed: Set<string>): string[] {
	const still = before.filter((deviceId) => listed.has(deviceId) && !outcomes.has(deviceId));
	const failedNow = [...outcomes.keys()].filter((deviceId) => !outcomes.get(deviceId)!.ok);
	return [...new Set([...still, ...failedNow])];
}

/** A listed device's state, without the mark of an absence that is over. */
function present(state: DeviceState | undefined): DeviceState | undefined {
	if (state?.absentSince === undefined) return state;
	const kept = { ...state };
	delete kept.absentSince;
	return kept;
}
