import { crossingKey, unreportedCrossings } from '../../../shared/notifications';
import { deviceEvent, type Detector } from '../detector';
import type { DeviceState, TriggerEvent } from '../types';

/**
 * A device whose e-mail or SMS count of the day reached the set share of its limit, and then the
 * limit itself: each threshold once per channel and day. Counts only grow during a day, so a device
 * counted late (skipped by the budget, or a failed read) still reports what it crossed meanwhile.
 * A day older than the one already counted is not reported again.
 */
export const dailyLimitNear: Detector = {
	events: ['dailyLimitNear'],
	detect(observation, previous, settings) {
		const config = settings.dailyLimit;
		let limits = previous.limits;
		if (!config || !observation.notifications) return { events: [], state: { limits } };
		const events: TriggerEvent[] = [];
		for (const { day, counts } of observation.notifications) {
			if (limits && day < limits.day) continue;
			const reported = limits?.day === day ? (limits.reported ?? []) : [];
			const crossings = unreportedCrossings(counts, config.limits, reported, config.share);
			// No record yet (a new device, a newly selected event): today's count is the baseline.
			if (limits !== undefined || settings.emitCurrentState) {
				const location = observation.newest ?? null;
				events.push(...crossings.map((crossing) => deviceEvent('dailyLimitNear', observation, location, { ...crossing, day })));
			}
			limits = record(day, [...reported, ...crossings.map(crossingKey)]);
		}
		return { events, state: { limits } };
	},
};

function record(day: string, reported: string[]): NonNullable<DeviceState['limits']> {
	return reported.length > 0 ? { day, reported } : { day };
}
