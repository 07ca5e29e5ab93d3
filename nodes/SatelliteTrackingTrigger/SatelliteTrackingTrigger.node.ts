import {
	ApplicationError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import * as listSearch from '../shared/listSearch';
import { ranOutOfTime, systemClock, TrackingApiClient } from '../shared/transport';
import { declare, failureOf } from '../shared/transport/failure';
import { advance } from './detection/advance';
import { planReads, type ReadPlan } from './detection/plan';
import { withReadMarks } from './detection/priority';
import { sampleEvents } from './detection/samples';
import type { EventKind, ReadOutcome } from './detection/types';
import { alertsTimeZone, eventsNeeding } from './detection/needs';
import { geofenceContains } from '../shared/geo/geofence';
import { emptyState, readState } from './detection/state';
import { CREDENTIAL_TYPE } from '../shared/wire';
import { declaredPollError } from './failures';
import { outputShape, toItems, type OutputShape } from './output';
import { eventsSubtitle, properties } from './properties';
import { listingRequests, readDevices, readFixes, REFUSALS_OF_THE_ACCOUNT, requestsPerDevice, withinDeadline, type PollLimits } from './readFixes';
import { readSettings, type TriggerSettings } from './settings';

/** "Fetch Test Event" reads this many devices: enough to show the output's shape. */
const SAMPLE_DEVICES = 5;
/**
 * For the events a device inside a geofence shows, from version 2, Fetch Test Event reads on, a few
 * devices at a time up to this many, until it has read one inside, rather than move another device
 * into the geofence for a sample.
 */
const INSIDE_EVENTS: EventKind[] = eventsNeeding('geofences').filter((kind) => kind !== 'geofenceExited');
const MAX_SAMPLE_DEVICES = 25;

export class SatelliteTrackingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Satellite Tracking Trigger',
		name: 'satelliteTrackingTrigger',
		icon: { light: 'file:satelliteTrackingTrigger.svg', dark: 'file:satelliteTrackingTrigger.dark.svg' },
		group: ['trigger'],
		// 2: events carry their label and, with Simplify, a short location (output.ts).
		// 3: a poll cut short reads the active devices first (Read Priority, settings.ts).
		version: [1, 2, 3],
		subtitle: eventsSubtitle,
		// n8n's nodes panel merges a node with its trigger into one entry and shows the TRIGGER's
		// description there (generateMergedNodesAndActions), so this one speaks for both nodes.
		description: 'GPS fleet tracking: read devices, locations and alerts, manage groups and users, or start a workflow when devices move, cross geofences or go silent',
		defaults: { name: 'Satellite Tracking Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties,
	};

	methods = { listSearch: { searchDevices: listSearch.searchDevices, searchGroups: listSearch.searchGroups } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		try {
			return await poll(this);
		} catch (error) {
			throw declaredPollError(this.getNode(), error);
		}
	}
}

async function poll(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(context);
	const deadline = systemClock.now() + settings.maxPollMs;
	const listingCalls = listingRequests(settings.selection);
	const perDevice = requestsPerDevice(settings.detection);
	// In devices: a device's calls are made together, so a poll never counts half a device.
	const deviceBudget = Math.floor((settings.maxRequestsPerPoll - listingCalls) / perDevice);
	if (deviceBudget < 1) {
		throw new NodeOperationError(
			context.getNode(),
			`Max Requests per Poll must leave room for one device read (${perDevice} call(s)) after the ${listingCalls} listing call(s)`,
		);
	}
	const client = await TrackingApiClient.create(context, settings.client);
	// Every call counts against Max Requests per Poll, retries and a glitch's second read included.
	const limits = { deadline, budget: { remaining: settings.maxRequestsPerPoll } };
	const listing = readDevices(context.getNode(), client, settings.selection, limits).catch((error: unknown) => {
		if (ranOutOfTime(error)) return undefined;
		throw error;
	});
	const devices = await withinDeadline(listing, deadline);
	if (devices === undefined) throw outOfTime(`The device list did not arrive within ${settings.maxPollName} (${settings.maxPollMs / 1000} s)`);
	if (settings.selection.by === 'ids' && devices.length === 0) {
		throw new NodeOperationError(context.getNode(), 'None of the devices chosen under Devices exists any more: choose others');
	}
	const now = new Date();
	const shape = outputShape(context);
	if (context.getMode() === 'manual') return await sample(client, devices, settings, shape, deviceBudget, now, limits);

	const staticData = context.getWorkflowStaticData('node');
	const previous = readState(staticData.state);
	const plan = planReads(devices.map((device) => device.id), previous, settings.readMode, deviceBudget, now, alertsTimeZone(settings.detection), settings.priority);
	const { outcomes, unanswered, rateLimited } = await readFixes(client, plan.reads, limits, new Set(previous.retry));
	const advanced = advance(previous, devices, plan, outcomes, settings.detection, now, unanswered);
	const result = { ...advanced, state: withReadMarks(previous, advanced.state, plan, outcomes, unanswered, now, settings.priority) };
	// Saved before anything is thrown: n8n's legacy poller keeps it, and the round robin moves on.
	staticData.state = result.state as unknown as IDataObject;
	// Reads left out at the rate limit do not fail the poll, even with nothing read: a few devices over
	// their own limit first in turn would fail every poll, and under the durable scheduler a failed poll
	// saves nothing, so they would never go to the retry list. A limit of the account's meets the next
	// listing. A poll whose every planned read was refused fails as before.
	const fatal = rateLimited ? undefined : pollFailure(plan, outcomes, result.failures, settings, limits);
	if (fatal) throw fatal;
	const logger = context.logger;
	for (const { deviceId, error } of result.failures) {
		logger.warn(`Satellite Tracking Trigger: reading device ${deviceId} failed, retrying next poll: ${(error as Error).message}`);
	}
	if (rateLimited) {
		logger.warn(
			`Satellite Tracking Trigger: the service refused ${REFUSALS_OF_THE_ACCOUNT} device reads in a row as over the account's rate limit, so ${plan.reads.length - outcomes.size} of ${plan.reads.length} were not sent; the next poll goes on with them`,
		);
	} else if (outcomes.size < plan.reads.length) {
		logger.warn(
			`Satellite Tracking Trigger: ${outcomes.size} of ${plan.reads.length} device reads ended within ${settings.maxPollName} (${settings.maxPollMs / 1000} s); the next poll goes on with the rest`,
		);
	}
	if (plan.overdue) {
		logger.warn(
			`Satellite Tracking Trigger: ${plan.overdue} device(s) have gone unread longer than Max Stale Minutes (${settings.priority.maxStaleMs / 60_000}): the reads a poll may make (Max Requests per Poll, Max Poll Time, the quota) do not cover the fleet within it`,
		);
	}
	if (result.unreadable > 0) {
		logger.warn(`Satellite Tracking Trigger: skipped ${result.unreadable} record(s) without a readable date or position`);
	}
	return result.events.length > 0 ? [toItems(result.events, shape)] : null;
}

/**
 * The error a poll fails with when it read no device at all, so that the user and n8n's scheduler
 * learn of it: the service rate-limits or refuses the credential (whoever is read next meets the
 * same), every device failed in a poll that read them all, or no read ended in time or within Max
 * Requests per Poll. Undefined when a failure may be the devices' own: their progress is saved and
 * they are retried, the rest read on.
 */
function pollFailure(
	plan: ReadPlan,
	outcomes: Map<string, ReadOutcome>,
	failures: Array<{ error: unknown }>,
	settings: TriggerSettings,
	limits: Required<PollLimits>,
): unknown {
	if (plan.reads.length === 0 || [...outcomes.values()].some((outcome) => outcome.ok)) return undefined;
	const accountWide = failures.find(({ error }) => ['rate-limited', 'credential-invalid'].includes(failureOf(error)?.cause ?? ''));
	if (accountWide) return accountWide.error;
	if (plan.complete && failures.length === plan.reads.length) return failures[0].error;
	if (outcomes.size > 0) return undefined;
	// Every read refused before the deadline: the listing's retries or new token took the calls.
	if (limits.budget.remaining <= 0 && systemClock.now() < limits.deadline) {
		return nextPollTriesAgain(`Max Requests per Poll (${settings.maxRequestsPerPoll}) was spent on retries or a new token before any device was read`);
	}
	return outOfTime(`No device read ended within ${settings.maxPollName} (${settings.maxPollMs / 1000} s)`);
}

/** Nothing was read in time: the scheduler retries soon, the state stays as it was. */
function outOfTime(what: string): ApplicationError {
	return nextPollTriesAgain(`${what}: the service is slow to answer`);
}

/** Nothing was read this poll, for a reason that passes by itself: declared so, the scheduler retries soon. */
function nextPollTriesAgain(what: string): ApplicationError {
	return declare(new ApplicationError(`${what}; the next poll tries again`), { cause: 'temporarily-unavailable' });
}

/** Real items for "Fetch Test Event"; the state is left as it is. Fails as the active poll would when no read succeeds. */
async function sample(
	client: TrackingApiClient,
	devices: Array<{ id: string; name: string; expires?: string | null }>,
	settings: TriggerSettings,
	shape: OutputShape,
	deviceBudget: number,
	now: Date,
	limits: Required<PollLimits>,
): Promise<INodeExecutionData[][] | null> {
	const batch = Math.min(deviceBudget, SAMPLE_DEVICES);
	const { geofences } = settings.detection;
	const lookInside = shape.labelled && settings.detection.events.some((kind) => INSIDE_EVENTS.includes(kind));
	const most = Math.min(devices.length, lookInside ? Math.min(deviceBudget, MAX_SAMPLE_DEVICES) : batch);
	const outcomes = new Map<string, ReadOutcome>();
	for (let from = 0; from < most; from += batch) {
		// As if every device were new: their last fix, and today's count.
		const ids = devices.slice(from, Math.min(from + batch, most)).map((device) => device.id);
		const plan = planReads(ids, emptyState(), 'latestFix', ids.length, now, alertsTimeZone(settings.detection));
		const read = (await readFixes(client, plan.reads, limits)).outcomes;
		const failures = [...read.values()].flatMap((outcome) => (outcome.ok ? [] : [{ error: outcome.error }]));
		const fatal = pollFailure({ ...plan, complete: true }, read, failures, settings, limits);
		if (fatal) throw fatal;
		for (const [id, outcome] of read) outcomes.set(id, outcome);
		// The batches before this one had no device inside a geofence.
		const inside = [...read.values()].some((outcome) => outcome.ok && outcome.fixes.some((fix) => geofences.some((geofence) => geofenceContains(geofence, fix))));
		if (!lookInside || inside) break;
	}
	// Samples that agree with themselves came with version 2, with the label (output.ts).
	const events = sampleEvents(devices.filter((device) => outcomes.get(device.id)?.ok), outcomes, settings.detection, now, shape.labelled);
	return events.length > 0 ? [toItems(events, shape)] : null;
}
