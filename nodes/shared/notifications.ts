/**
 * Daily e-mail and SMS counters, derived from alerts: the API exposes neither the counters nor the
 * per-device daily limits (web-app settings), only each alert's `notifications`. Pure.
 */
import { NOTIFICATION_CHANNEL, type Alert, type DateRange } from './wire';
import { parseServiceTime } from './validation';

export type Channel = keyof typeof NOTIFICATION_CHANNEL;

export const CHANNELS = Object.keys(NOTIFICATION_CHANNEL) as Channel[];

export type ChannelCounts = Record<Channel, number>;

/** The daily limits a user entered, per channel; a channel without one is not checked. */
export type DailyLimits = Partial<Record<Channel, number>>;

export interface ChannelUsage {
	count: number;
	limit: number;
	remaining: number;
	/** Nothing more goes out on this channel today. */
	reached: boolean;
}

/** Share of the limit at which a device counts as near it, unless the user chooses another. */
export const DEFAULT_NEAR_SHARE = 0.8;

/** `near`: the count reached the share of the limit; `limit`: it reached the limit itself. */
export type LimitThreshold = 'near' | 'limit';

export interface LimitCrossing {
	channel: Channel;
	threshold: LimitThreshold;
	count: number;
	limit: number;
}

const CHANNEL_BY_WIRE_NAME = new Map(CHANNELS.map((channel) => [NOTIFICATION_CHANNEL[channel].toLowerCase(), channel]));

/** The vendor writes "Email" and "SMS"; case is not relied on. Other channels (push, …) have no limit. */
function channelOf(notification: unknown): Channel | undefined {
	return typeof notification === 'string' ? CHANNEL_BY_WIRE_NAME.get(notification.trim().toLowerCase()) : undefined;
}

const noCounts = (): ChannelCounts => ({ email: 0, sms: 0 });

/**
 * Messages sent for the alerts dated within `range` (all alerts without one). Each entry of an
 * alert's `notifications` is one message, so an alert listing "Email" twice counts two e-mails.
 */
export function countNotifications(
	alerts: ReadonlyArray<Pick<Alert, 'dateTime' | 'notifications'>>,
	range?: DateRange,
): ChannelCounts {
	const from = range ? Date.parse(range.from) : -Infinity;
	const to = range ? Date.parse(range.to) : Infinity;
	const counts = noCounts();
	for (const alert of alerts) {
		const at = parseServiceTime(alert?.dateTime);
		if (range && !(at >= from && at <= to)) continue;
		for (const notification of Array.isArray(alert?.notifications) ? alert.notifications : []) {
			const channel = channelOf(notification);
			if (channel) counts[channel]++;
		}
	}
	return counts;
}

/** Alerts whose date cannot be read (null, missing, a number): left out of every day's count, and counted here. */
export function undatedAlerts(alerts: ReadonlyArray<Pick<Alert, 'dateTime'>>): number {
	return alerts.filter((alert) => Number.isNaN(parseServiceTime(alert?.dateTime))).length;
}

/** Usage of each channel that has a limit. A limit of 0 is reached from the start. */
export function limitUsage(counts: ChannelCounts, limits: DailyLimits): Partial<Record<Channel, ChannelUsage>> {
	const usage: Partial<Record<Channel, ChannelUsage>> = {};
	for (const channel of CHANNELS) {
		const limit = limits[channel];
		if (limit === undefined) continue;
		const count = counts[channel];
		usage[channel] = { count, limit, remaining: Math.max(0, limit - count), reached: count >= limit };
	}
	return usage;
}

/**
 * The thresholds a count has reached: none, `near` (at least `share` of the limit), or both.
 * `share` is a fraction in (0, 1]; the near threshold is the share rounded up to whole messages.
 */
export function thresholdsReached(count: number, limit: number, share = DEFAULT_NEAR_SHARE): LimitThreshold[] {
	const reached: LimitThreshold[] = [];
	if (count >= nearCount(limit, share)) reached.push('near');
	if (count >= limit) reached.push('limit');
	return reached;
}

/** The count at which a device is near its limit: the share rounded up to whole messages. */
export function nearCount(limit: number, share = DEFAULT_NEAR_SHARE): number {
	// toFixed drops float noise: 0.7 * 10 is 7.000000000000001, which would otherwise round up to 8.
	return Math.ceil(Number((share * limit).toFixed(9)));
}

/** Identifies one threshold of one channel, for remembering what was reported on a day. */
export function crossingKey(crossing: Pick<LimitCrossing, 'channel' | 'threshold'>): string {
	return `${crossing.channel}:${crossing.threshold}`;
}

/**
 * Thresholds reached and not yet reported, so each one is reported once per device and day: the
 * caller keeps the keys (crossingKey) of what it reported, and starts afresh when the day changes.
 */
export function unreportedCrossings(
	counts: ChannelCounts,
	limits: DailyLimits,
	reported: Iterable<string>,
	share = DEFAULT_NEAR_SHARE,
): LimitCrossing[] {
	const done = new Set(reported);
	const crossings: LimitCrossing[] = [];
	for (const [channel, usage] of Object.entries(limitUsage(counts, limits)) as Array<[Channel, ChannelUsage]>) {
		for (const threshold of thresholdsReached(usage.count, usage.limit, share)) {
			const crossing = { channel, threshold, count: usage.count, limit: usage.limit };
			if (!done.has(crossingKey(crossing))) crossings.push(crossing);
		}
	}
	return crossings;
}
