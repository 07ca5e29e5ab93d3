import {
	CHANNELS,
	crossingKey,
	DEFAULT_NEAR_SHARE,
	nearCount,
	thresholdsReached,
	unreportedCrossings,
	type Channel,
	type DailyLimits,
	type LimitCrossing,
	type LimitThreshold,
} from '../../../shared/notifications';
import { dailyLimitsCollection, dayTimeZone } from '../../../shared/descriptions';
import { toNumberInRange, type Check } from '../../../shared/validation';
import { dayOf, DEFAULT_TIME_ZONE, toTimeZone } from '../../../shared/zonedDay';
import { deviceEvent, type Detector, type Observation, type SettingsReader } from '../detector';
import type { DeviceState, EventKind, TriggerEvent } from '../types';

/** The limits the user entered (the API does not expose them) and how days are cut. */
export interface DailyLimitSettings {
	limits: DailyLimits;
	/** Fraction of a limit, in (0, 1], at which a count is near it. */
	share: number;
	/** IANA zone whose midnight starts the day. */
	timeZone: string;
}

declare module '../types' {
	interface DetectionSettings {
		/** dailyLimitNear: absent when the event is not watched. */
		dailyLimit?: DailyLimitSettings;
	}
	interface DeviceState {
		/** dailyLimitNear: the last day counted, and the thresholds (crossingKey) already reported on it. */
		limits?: { day: string; reported?: string[] };
	}
	interface EventOutput {
		/** Which channel's count reached which threshold of its limit, on which day. */
		dailyLimitNear: { channel: Channel; threshold: LimitThreshold; count: number; limit: number; day: string };
	}
}

/**
 * A device whose e-mail or SMS count of the day reached the set share of its limit, and then the
 * limit itself: each threshold once per channel and day. Counts only grow during a day, so a device
 * counted late (skipped by the budget, or a failed read) still reports what it crossed meanwhile.
 * A day older than the one already counted is not reported again.
 */
export const dailyLimitNear: Detector = {
	lists: [
		dailyLimitsCollection(1, {
			description:
				'What Daily Limit Near watches: the Daily Email and SMS Limits set for the devices in the web app (the API does not expose them). A channel without a limit here is not watched. Each watched device costs one more API call per poll.',
		}),
	],
	properties: [
		{
			displayName: 'Near Limit Share',
			name: 'nearShare',
			type: 'number',
			default: DEFAULT_NEAR_SHARE,
			typeOptions: { minValue: 0.01, maxValue: 1, numberPrecision: 2 },
			description: 'Report a device once its count of the day reaches this share of the limit (0.8 = 80%), and once more at the limit',
		},
		dayTimeZone,
	],
	needs: { alerts: (settings) => settings.dailyLimit!.timeZone },
	settings: (read) => ({ dailyLimit: read.events.includes('dailyLimitNear') ? readDailyLimit(read) : undefined }),
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
				events.push(...crossings.map((crossing) => limitEvent('dailyLimitNear', observation, crossing, day)));
			}
			limits = record(day, [...reported, ...crossings.map(crossingKey)]);
		}
		return { events, state: { limits } };
	},
	sample(kind, observation, settings, consistent) {
		const config = settings.dailyLimit!;
		const counted = observation.notifications?.[observation.notifications.length - 1];
		const channel = CHANNELS.find((candidate) => config.limits[candidate] !== undefined) ?? 'email';
		const limit = config.limits[channel] ?? 0;
		const count = counted?.counts[channel] ?? 0;
		// The day's count, raised to where the event fires when it is not there yet.
		const crossing = consistent
			? { channel, ...reachedAt(Math.max(count, nearCount(limit, config.share)), limit, config.share), limit }
			: { channel, threshold: 'near' as const, count, limit };
		return limitEvent(kind, observation, crossing, counted?.day ?? dayOf(observation.now, config.timeZone));
	},
};

/** The highest threshold `count` reached: `limit` once it is there, else `near`. */
function reachedAt(count: number, limit: number, share: number): Pick<LimitCrossing, 'threshold' | 'count'> {
	return { threshold: thresholdsReached(count, limit, share).at(-1) ?? 'near', count };
}

/** Told apart by channel, threshold and day: `location` is only the newest fix known. */
function limitEvent(kind: EventKind, observation: Observation, crossing: LimitCrossing, day: string): TriggerEvent {
	const identity = [crossing.channel, crossing.threshold, day];
	return deviceEvent(kind, observation, observation.newest ?? null, { ...crossing, day }, identity);
}

function record(day: string, reported: string[]): NonNullable<DeviceState['limits']> {
	return reported.length > 0 ? { day, reported } : { day };
}

function readDailyLimit(read: SettingsReader): DailyLimitSettings {
	const { emailLimit, smsLimit } = read.parameter<{ emailLimit?: unknown; smsLimit?: unknown }>('dailyLimits', {});
	const limits = {
		email: read.check('Daily Email Limit', toDailyLimit(emailLimit)),
		sms: read.check('Daily SMS Limit', toDailyLimit(smsLimit)),
	};
	if (limits.email === undefined && limits.sms === undefined) {
		read.fail('Add a Daily Email Limit or a Daily SMS Limit to watch for daily limit events');
	}
	return {
		limits,
		share: read.check('Near Limit Share', toShare(read.parameter('nearShare', DEFAULT_NEAR_SHARE))),
		timeZone: read.check('Time Zone', toTimeZone(read.parameter('timeZone', DEFAULT_TIME_ZONE))),
	};
}

/** Empty: the channel is not watched. 0 is refused: it would be near and reached before anything was sent. */
function toDailyLimit(value: unknown): Check<number | undefined> {
	if (value === undefined || value === null || value === '') return { ok: true, value: undefined };
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	if (number.value < 1) {
		return { ok: false, problem: `must be 1 or more, or removed to stop watching the channel (got ${number.value})` };
	}
	return { ok: true, value: Math.floor(number.value) };
}

function toShare(value: unknown): Check<number> {
	const number = toNumberInRange(value, -Infinity, Infinity);
	if (!number.ok) return number;
	return number.value > 0 && number.value <= 1
		? number
		: { ok: false, problem: `must be above 0 and at most 1, e.g. 0.8 for 80% (got ${number.value})` };
}
