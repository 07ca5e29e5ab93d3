/** The trigger's API reads: the devices to watch, then each device's fixes (and alerts, to count them). */

import * as workflow from 'n8n-workflow';
import { NodeOperationError, type INode } from 'n8n-workflow';

import { countNotifications } from '../shared/notifications';
import { ranOutOfTime, systemClock, type RequestOptions, type TrackingApiClient } from '../shared/transport';
import { failureOf } from '../shared/transport/failure';
import { fixTime } from './detection/fixes';
import { alertsTimeZone } from './detection/needs';
import type { CountedDay, FixRead, TimeRange } from './detection/plan';
import { selectDevices, type DeviceSelection } from './detection/selection';
import type { DayCounts, DetectionSettings, ReadOutcome } from './detection/types';
import type { Device, Location } from '../shared/wire';

/** Calls a poll makes before reading any device: the device list, and the group in group mode. */
export function listingRequests(selection: DeviceSelection): number {
	return selection.by === 'group' ? 2 : 1;
}

/** Calls one device's read makes: its fixes, and its alerts when a selected event needs them (`needs.alerts`). */
export function requestsPerDevice(detection: DetectionSettings): number {
	return alertsTimeZone(detection) === undefined ? 1 : 2;
}

/**
 * What a poll may spend: its time budget (`deadline`, a moment on `systemClock`) and its API calls
 * (Max Requests per Poll). Not on the system clock: one stepped forward mid-poll dropped every read
 * as late, and one stepped back let reads still queued go out after the poll had returned.
 */
export type PollLimits = Pick<RequestOptions, 'deadline' | 'budget'>;

/** A group that no longer exists is a configuration to fix. */
export async function readDevices(node: INode, client: TrackingApiClient, selection: DeviceSelection, limits: PollLimits = {}): Promise<Device[]> {
	if (selection.by !== 'group') return selectDevices(await client.request('listDevices', limits), selection);
	const [devices, group] = await Promise.all([
		client.request('listDevices', limits),
		client.find('getGroup', { params: { groupId: selection.groupId }, ...limits }),
	]);
	if (group === undefined) {
		throw new NodeOperationError(node, `The group ${selection.groupId} chosen under Devices no longer exists: choose another`);
	}
	return selectDevices(devices, selection, group.devices ?? []);
}

/** A poll's reads: the outcomes that ended in time, in plan order, and the devices asked that gave no answer in time. */
export interface ReadResults {
	outcomes: Map<string, ReadOutcome>;
	/** Sent, but not answered within the budget: the service is slow for them, not the devices' turn that is yet to come. */
	unanswered: Set<string>;
	/** The account was found over the service's rate limit, and reads were left out or cut for it. */
	rateLimited: boolean;
}

/**
 * Device reads refused as over the rate limit in a row (none answered between), after which the
 * account is taken to be over its limit and the poll sends no more reads. One device's refusal may be
 * its own (the service limits results per device per day); an account over its quota refuses every
 * read, and a Retry-After past Max Poll Time leaves no pause to wait out in the poll: each read went
 * on into it, and a 5,000-device poll spent every read on the same minute's 429.
 */
export const REFUSALS_OF_THE_ACCOUNT = 3;

/**
 * Tells the account's rate limit from a device's own, answer by answer. A device whose last read
 * failed (`retrying`) does not count: a few devices over their own limit are retried first at every
 * poll, and would stop every poll before the other devices' turn.
 */
export function accountLimitWatch(retrying: ReadonlySet<string>): (deviceId: string, outcome: ReadOutcome) => boolean {
	let refusedInARow = 0;
	return (deviceId, outcome) => {
		if (outcome.ok) refusedInARow = 0;
		else if (!retrying.has(deviceId) && failureOf(outcome.error)?.cause === 'rate-limited') refusedInARow++;
		return refusedInARow >= REFUSALS_OF_THE_ACCOUNT;
	};
}

/**
 * Every read runs; the client's pacer keeps them within the concurrency and rate settings. A read
 * not ended by the deadline, refused a first call by the spent budget, or not sent once the account
 * was found over its rate limit, is left out of the outcomes: not read this poll, as if not planned.
 * `retrying`: the devices whose last read failed, when the reads are to stop at the account's rate
 * limit; without it (Fetch Test Event's handful of reads) every read is sent.
 */
export async function readFixes(client: TrackingApiClient, reads: FixRead[], limits: PollLimits = {}, retrying?: ReadonlySet<string>): Promise<ReadResults> {
	const deadline = limits.deadline ?? Infinity;
	const outcomes = new Map<string, ReadOutcome>();
	const sent = new Set<string>();
	const stop = new AbortController();
	const accountLimited = retrying === undefined ? () => false : accountLimitWatch(retrying);
	let stopCutAReadUnderWay = false;
	await withinDeadline(
		Promise.all(
			reads.map(async (read) => {
				let outcome: ReadOutcome;
				try {
					// Named, not spread from `limits`: on Node 20 a spread followed by more properties cost some
					// 2–5 µs per read, a tenth of the trigger's own time per device (bench P3's replayed polls).
					const options: ReadOptions = { deadline: limits.deadline, budget: limits.budget, stop: stop.signal, onSent: () => sent.add(read.deviceId) };
					// Most reads count no alerts: one call, without Promise.all's allocations (bench P3).
					const [{ fixes, ahead }, notifications] = read.days?.length
						? await Promise.all([readOne(client, read, options), countDays(client, read.deviceId, read.days, options)])
						: [await readOne(client, read, options)];
					const coveredFrom = read.kind === 'range' ? Date.parse(read.from) : undefined;
					outcome = { ok: true, fixes, ...(notifications && { notifications }), ...(ahead !== undefined && { ahead }), ...(coveredFrom !== undefined && { coveredFrom }) };
				} catch (error) {
					outcome = { ok: false, error };
				}
				// Cut short by the budget is not a failure of the device: it takes its turn next poll. One the
				// stop cut after a call of it went out was refused or cut with the rest: retried next poll.
				const cut = !outcome.ok && ranOutOfTime(outcome.error);
				const cutMidRead = cut && stop.signal.aborted && sent.has(read.deviceId);
				if (systemClock.now() >= deadline || (cut && !cutMidRead)) return;
				if (cutMidRead) stopCutAReadUnderWay = true;
				outcomes.set(read.deviceId, outcome);
				if (accountLimited(read.deviceId, outcome)) stop.abort();
			}),
		),
		deadline,
	);
	// In plan order, whatever order the answers came in: the output and the retry list depend on it.
	const inPlanOrder = new Map<string, ReadOutcome>();
	for (const { deviceId } of reads) {
		const outcome = outcomes.get(deviceId);
		if (outcome) inPlanOrder.set(deviceId, outcome);
	}
	return { outcomes: inPlanOrder, unanswered: new Set([...sent].filter((deviceId) => !outcomes.has(deviceId))), rateLimited: stop.signal.aborted && (stopCutAReadUnderWay || inPlanOrder.size < reads.length) };
}

/**
 * What `work` gives if it ends by `deadline` (on `systemClock`), else `undefined` at the deadline:
 * the poll goes on without it. The requests it waits for end soon after, their Timeout capped at the budget.
 */
export async function withinDeadline<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
	if (!Number.isFinite(deadline)) return await work;
	const stop = new AbortController();
	try {
		return await Promise.race([work, untilDeadline(deadline, stop.signal).then(() => undefined)]);
	} finally {
		stop.abort();
	}
}

type SleepWithAbort = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Resolves at the deadline. n8n-workflow 2.8 cancels the wait when the reads end first; 2.41's no
 * longer exports sleepWithAbort (a poll on it failed with "sleepWithAbort is not a function"), so
 * there the timer is left to run out, resolving a race already decided.
 */
function untilDeadline(deadline: number, signal: AbortSignal): Promise<void> {
	const ms = Math.max(0, deadline - systemClock.now());
	const sleepWithAbort = (workflow as { sleepWithAbort?: SleepWithAbort }).sleepWithAbort;
	return sleepWithAbort ? sleepWithAbort(ms, signal).catch(() => undefined) : workflow.sleep(ms);
}

type ReadOptions = Pick<RequestOptions, 'deadline' | 'budget' | 'onSent' | 'stop'>;

async function readOne(client: TrackingApiClient, read: FixRead, options: ReadOptions): Promise<{ fixes: Location[]; ahead?: string }> {
	const deviceId = read.deviceId;
	// 404: the device never reported, or left the account since the list was read. Nothing to report.
	if (read.kind === 'range') {
		return { fixes: (await client.find('getLocations', { params: { deviceId }, body: { from: read.from, to: read.to }, ...options })) ?? [] };
	}
	if (read.kind === 'recent') return { fixes: await newestInRange(client, deviceId, read.recent, options, read.ahead), ahead: read.ahead };
	const last = await client.find('getLastLocation', { params: { deviceId }, ...options });
	if (!last) return { fixes: [] };
	if (!(fixTime(last) > Date.parse(read.recent.to))) return { fixes: [last] };
	// The service keeps answering a fix dated far ahead (a clock glitch) as the last one: the real
	// fixes are in the recent range, of which the newest is the device's last location. Its date is
	// kept, so later polls read the range alone; one the poll's limits leave no call for waits for them.
	const ahead = String(last.dateTime);
	const fixes = await newestInRange(client, deviceId, read.recent, options, ahead).catch((error: unknown) => {
		// Stopped at the account's rate limit, the range would have been refused too: the read failed.
		if (ranOutOfTime(error) && options.stop?.aborted !== true) return [];
		throw error;
	});
	return { fixes, ahead };
}

/**
 * The newest fix of the range not dated after its end, the glitch dated `ahead` left out: once real
 * time comes within a day of its date, the range holds it too.
 */
async function newestInRange(client: TrackingApiClient, deviceId: string, range: TimeRange, options: ReadOptions, ahead?: string): Promise<Location[]> {
	const latest = Date.parse(range.to);
	const glitch = ahead === undefined ? NaN : fixTime({ dateTime: ahead });
	const recent = (await client.find('getLocations', { params: { deviceId }, body: range, ...options })) ?? [];
	const dated = recent.filter((fix) => typeof fix === 'object' && fix !== null && fixTime(fix) <= latest && fixTime(fix) !== glitch);
	const newest = dated.reduce<Location | undefined>((best, fix) => (best === undefined || fixTime(fix) > fixTime(best) ? fix : best), undefined);
	return newest ? [newest] : [];
}

/** One alerts call over the days, counted day by day; a device that failed either read is read again next poll. */
async function countDays(client: TrackingApiClient, deviceId: string, days: CountedDay[], options: ReadOptions): Promise<DayCounts[]> {
	const range = { from: days[0].from, to: days[days.length - 1].to };
	const alerts = (await client.find('getAlerts', { params: { deviceId }, body: range, ...options })) ?? [];
	return days.map(({ day, from, to }) => ({ day, counts: countNotifications(alerts, { from, to }) }));
}
