import type { IExecuteFunctions } from 'n8n-workflow';

import { runNode } from '../../shared/parameters';
import { instantOfWallClock } from '../../shared/zonedDay';

/**
 * Saved workflows of node version 1 behave exactly as they did when saved: each behaviour version 2
 * changed asks this (readable output, Alert Name and Send Command sent as typed, Group Update's ops).
 */
export function isVersion1(context: IExecuteFunctions): boolean {
	return runNode(context).typeVersion < 2;
}

/**
 * Version 2.1: Limit on a date range keeps its newest results (the usual wish: "the last N
 * positions"); saved workflows of 1 and 2 keep the oldest, as they did.
 */
export function limitKeepsNewest(context: IExecuteFunctions): boolean {
	return runNode(context).typeVersion >= 2.1;
}

/**
 * Version 2.1: Location → Submit refuses a fix at (0, 0), the coordinates' defaults: a user who chose
 * the device and the time and left them untouched stored a fix in the Gulf of Guinea on the live
 * account (issue 24). Saved workflows of 1 and 2 send what they sent.
 */
export function refusesNullIsland(context: IExecuteFunctions): boolean {
	return runNode(context).typeVersion >= 2.1;
}

/**
 * Version 2.2: a From/To without a zone (what n8n's date picker gives) is read in the workflow's time
 * zone, as n8n's own nodes read it, where 1 to 2.1 read it as UTC: a user in New York who picked 09:00
 * got 04:00 of their day (issue 46). Submit's Date Time and Answer From/To too: a fix picked at 09:00
 * was stored at 05:00 of that day, outside the From/To picked around it. Saved workflows of 1 to 2.1
 * read as they did.
 */
export function zonelessDateReading(context: IExecuteFunctions): ((utcFieldsMs: number) => number) | undefined {
	if (runNode(context).typeVersion < 2.2) return undefined;
	const timeZone = context.getTimezone();
	return (wall) => instantOfWallClock(wall, timeZone);
}

/** Version 2.2: Get Daily Summary gives `firstFix`/`lastFix` times in its Time Zone with the offset (the same instant); 1 to 2.1 in UTC. */
export function summaryTimesInZone(context: IExecuteFunctions): boolean {
	return runNode(context).typeVersion >= 2.2;
}
