import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { simplifyFix } from '../shared/simplify';
import { EVENTS } from './detection/detectors';
import type { TriggerEvent } from './detection/types';

/**
 * How events become items. Version 2 puts the Events option's label beside the kind's key and, with
 * Simplify (on by default), the action node's short fix with its map link as `location` instead of
 * the raw 27-field record. Version 1 stays as saved workflows were built against: the event as detected.
 */
export interface OutputShape {
	labelled: boolean;
	simplify: boolean;
}

export function outputShape(context: IPollFunctions): OutputShape {
	if (context.getNode().typeVersion < 2) return { labelled: false, simplify: false };
	return { labelled: true, simplify: context.getNodeParameter('simplify', true) === true };
}

export function toItems(events: TriggerEvent[], shape: OutputShape): INodeExecutionData[] {
	return events.map((event) => ({ json: readable(event, shape) as unknown as IDataObject }));
}

function readable(event: TriggerEvent, shape: OutputShape): object {
	if (!shape.labelled) return event;
	const { event: kind, eventId, deviceId, deviceName, location, ...details } = event;
	const shown = shape.simplify && location ? simplifyFix(deviceId, deviceName, location) : location;
	return { event: kind, eventLabel: EVENTS[kind].name, eventId, deviceId, deviceName, location: shown, ...details };
}
