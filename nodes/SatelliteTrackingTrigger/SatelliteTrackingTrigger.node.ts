import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TEST, testCredential } from '../shared/credentialTest';
import * as listSearch from '../shared/listSearch';
import { TrackingApiClient } from '../shared/transport';
import { advance } from './detection/advance';
import { planReads } from './detection/plan';
import { sampleEvents } from './detection/samples';
import { emptyState, readState } from './detection/state';
import type { TriggerEvent } from './detection/types';
import { CREDENTIAL_TYPE } from '../shared/wire';
import { eventsSubtitle, properties } from './properties';
import { listingRequests, readDevices, readFixes, requestsPerDevice } from './readFixes';
import { readSettings, type TriggerSettings } from './settings';

/** "Fetch Test Event" reads this many devices at most: enough to show the output's shape. */
const SAMPLE_DEVICES = 5;

export class SatelliteTrackingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Satellite Tracking Trigger',
		name: 'satelliteTrackingTrigger',
		icon: { light: 'file:satelliteTrackingTrigger.svg', dark: 'file:satelliteTrackingTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle,
		// n8n's nodes panel merges a node with its trigger into one entry and shows the TRIGGER's
		// description there (generateMergedNodesAndActions), so this one speaks for both nodes.
		description: 'GPS fleet tracking: read devices, locations and alerts, manage groups and users, or start a workflow when devices move, cross geofences or go silent',
		defaults: { name: 'Satellite Tracking Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true, testedBy: CREDENTIAL_TEST }],
		properties,
	};

	methods = {
		listSearch: { searchDevices: listSearch.searchDevices, searchGroups: listSearch.searchGroups },
		credentialTest: { [CREDENTIAL_TEST]: testCredential },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		const listing = listingRequests(settings.selection);
		const perDevice = requestsPerDevice(settings.detection);
		// In devices: a device's calls are made together, so a poll never counts half a device.
		const deviceBudget = Math.floor((settings.maxRequestsPerPoll - listing) / perDevice);
		if (deviceBudget < 1) {
			throw new NodeOperationError(
				this.getNode(),
				`Max Requests per Poll must leave room for one device read (${perDevice} call(s)) after the ${listing} listing call(s)`,
			);
		}
		const client = await TrackingApiClient.create(this, settings.client);
		const devices = await readDevices(client, settings.selection);
		const now = new Date();
		if (this.getMode() === 'manual') return await sample(client, devices, settings, Math.min(deviceBudget, SAMPLE_DEVICES), now);

		const staticData = this.getWorkflowStaticData('node');
		const previous = readState(staticData.state);
		const timeZone = settings.detection.dailyLimit?.timeZone;
		const plan = planReads(devices.map((device) => device.id), previous, settings.readMode, deviceBudget, now, timeZone);
		const outcomes = await readFixes(client, plan.reads);
		const result = advance(previous, devices, plan, outcomes, settings.detection, now);
		if (plan.reads.length > 0 && result.failures.length === plan.reads.length) throw result.failures[0].error;
		for (const { deviceId, error } of result.failures) {
			this.logger.warn(`Satellite Tracking Trigger: reading device ${deviceId} failed, retrying next poll: ${(error as Error).message}`);
		}
		staticData.state = result.state as unknown as IDataObject;
		return result.events.length > 0 ? [toItems(result.events)] : null;
	}
}

/** Real items for "Fetch Test Event"; the state is left as it is. */
async function sample(
	client: TrackingApiClient,
	devices: Array<{ id: string; name: string; expires?: string | null }>,
	settings: TriggerSettings,
	count: number,
	now: Date,
): Promise<INodeExecutionData[][] | null> {
	// As if every device were new: their last fix, and today's count.
	const { reads } = planReads(
		devices.map((device) => device.id),
		emptyState(),
		'latestFix',
		count,
		now,
		settings.detection.dailyLimit?.timeZone,
	);
	const outcomes = await readFixes(client, reads);
	const events = sampleEvents(devices.filter((device) => outcomes.has(device.id)), outcomes, settings.detection, now);
	return events.length > 0 ? [toItems(events)] : null;
}

function toItems(events: TriggerEvent[]): INodeExecutionData[] {
	return events.map((event) => ({ json: event as unknown as IDataObject }));
}
