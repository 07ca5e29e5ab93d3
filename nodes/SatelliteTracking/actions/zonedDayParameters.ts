/** The day an operation reports on: Time Zone, and Day under Options (today when left out). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { checked } from '../../shared/parameters';
import { dayOf, DEFAULT_TIME_ZONE, toCalendarDay, toTimeZone } from '../../shared/zonedDay';

export function dayOption(verb: string): INodeProperties {
	return {
		displayName: 'Day',
		name: 'day',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2024-03-10',
		description: `${verb} another day than today (in the time zone). A date-time with a zone counts the day it falls on there.`,
	};
}

export function readZonedDay(context: IExecuteFunctions, itemIndex: number): { day: string; timeZone: string } {
	const timeZone = checked(context, itemIndex, 'Time Zone', toTimeZone(context.getNodeParameter('timeZone', itemIndex, DEFAULT_TIME_ZONE)));
	const { day: dayInput } = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const day =
		dayInput === undefined || dayInput === '' ? dayOf(new Date(), timeZone) : checked(context, itemIndex, 'Day', toCalendarDay(dayInput, timeZone));
	return { day, timeZone };
}
