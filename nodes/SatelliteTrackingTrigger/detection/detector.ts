/**
 * One kind of change a device can show between polls. Each detector reads its own part of the
 * device's previous state, reports events and returns its part of the next state; adding an event
 * kind is one detector file and its line in the registry (detectors/index.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import type { Location } from '../../shared/wire';
import type { DayCounts, DetectionSettings, DeviceInfo, DeviceState, EventKind, FixPosition, SeenFix, TriggerEvent } from './types';

export interface Observation {
	device: DeviceInfo;
	/** Fixes newer than the newest processed one, oldest first. */
	fresh: Location[];
	/** The newest fix processed before this poll. */
	previous?: SeenFix;
	/** The newest fix known after this poll: as fetched, or as state kept it. */
	newest?: Location | FixPosition;
	now: Date;
	/** dailyLimitNear: the days counted this poll, oldest first; absent when the device's alerts were not read. */
	notifications?: DayCounts[];
}

export interface Detection {
	events: TriggerEvent[];
	state?: Partial<DeviceState>;
}

export interface Detector {
	/** The parameters only this detector reads; shown while one of its events is selected. */
	properties?: INodeProperties[];
	detect(observation: Observation, previous: DeviceState, settings: DetectionSettings): Detection;
}

export function deviceEvent(
	event: EventKind,
	observation: Observation,
	location: TriggerEvent['location'],
	details: Partial<TriggerEvent> = {},
): TriggerEvent {
	return { event, deviceId: observation.device.id, deviceName: observation.device.name ?? '', location, ...details };
}
