/**
 * Change detection for one device: given what state kept of it, the fixes just fetched and the
 * settings, the events to report and the device's next state. Pure.
 */
import type { Location } from '../../shared/wire';
import type { Observation } from './detector';
import { plausiblePositions } from './positions';
import { DETECTORS, RANK } from './detectors';
import { fixTime, freshFixes, toPosition } from './fixes';
import { readsTelemetry } from './needs';
import type { DayCounts, DetectionSettings, DeviceInfo, DeviceState, TriggerEvent } from './types';

export interface DeviceDetection {
	events: TriggerEvent[];
	state: DeviceState;
	/** Records fetched that were no readable fix, skipped. */
	unreadable: number;
}

/**
 * `previous` undefined means the device is new to the trigger: its state is recorded as the
 * baseline and nothing is reported, unless the settings ask for the current state. `notifications`:
 * the days' e-mail and SMS counts, when the device's alerts were read this poll; `coveredFrom`: where
 * a range read of the fixes began (freshFixes).
 */
export function detectDeviceEvents(
	previous: DeviceState | undefined,
	device: DeviceInfo,
	fetched: Location[],
	settings: DetectionSettings,
	now: Date,
	notifications?: DayCounts[],
	coveredFrom?: number,
): DeviceDetection {
	const known = previous ?? {};
	const { fresh, readings, late, newest, fix, keys, count, digest, seenSince, seenKeys, unreadable } = freshFixes(known, fetched, now, readsTelemetry(settings), coveredFrom);
	const position = known.pos ?? known.fix;
	const { positions, last, suspect } = plausiblePositions(fresh, position, known.jump);
	const observation: Observation = {
		device,
		fresh,
		readings,
		late,
		positions,
		position,
		previous: known.fix,
		newest: newest ?? (known.fix && toPosition(known.fix)),
		now,
		notifications,
	};
	const pos = last && fix && (last.at !== fix.at || last.lat !== fix.lat || last.lon !== fix.lon) ? last : undefined;
	const state: DeviceState = { fix, keys, count, digest, seenSince, seenKeys, since: fix ? undefined : known.since, pos, jump: suspect };
	const events: TriggerEvent[] = [];
	for (const { detector, events: reported } of DETECTORS) {
		if (!reported.some((kind) => settings.events.includes(kind))) continue;
		const detection = detector.detect(observation, known, settings);
		for (const event of detection.events) if (settings.events.includes(event.event)) events.push(event);
		Object.assign(state, detection.state);
	}
	const report = previous !== undefined || settings.emitCurrentState;
	return { events: report ? inOrder(events, now) : [], state: withoutEmptyFields(state), unreadable };
}

function inOrder(events: TriggerEvent[], now: Date): TriggerEvent[] {
	if (events.length < 2) return events;
	const time = (event: TriggerEvent) => (event.location ? fixTime(event.location) : now.getTime());
	return events
		.map((event, index) => ({ event, index }))
		.sort(
			(a, b) =>
				time(a.event) - time(b.event) ||
				RANK[a.event.event] - RANK[b.event.event] ||
				a.index - b.index,
		)
		.map(({ event }) => event);
}

/** A copy without the fields left undefined, so that the JSON kept for thousands of devices stays small. */
function withoutEmptyFields(state: DeviceState): DeviceState {
	const kept: Record<string, unknown> = {};
	for (const field in state) {
		const value = state[field as keyof DeviceState];
		if (value !== undefined) kept[field] = value;
	}
	return kept as DeviceState;
}
