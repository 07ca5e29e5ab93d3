import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { RequestSettings } from '../../shared/requestSettings';
import type { UsageCounters } from '../../shared/transport';

/**
 * What the service's usage counters say after a run: the day's and all-time call counts, and a
 * warning once the day's count reaches the share of the daily limit the user entered. Pure.
 */
export function usageHints(
	usage: UsageCounters | undefined,
	{ dailyRequestLimit, dailyLimitWarnShare }: Pick<RequestSettings, 'dailyRequestLimit' | 'dailyLimitWarnShare'>,
): NodeExecutionHint[] {
	if (usage === undefined) return [];
	const { apiDailyUsage, apiUsage } = usage;
	// Said as the service's own counters: "<Name> account: …" read like the name of a credential.
	const counts = `The tracking service counts ${apiDailyUsage.toLocaleString('en-US')} API calls today for this account, ${apiUsage.toLocaleString('en-US')} in all`;
	if (dailyRequestLimit === undefined) return [{ message: `${counts}.`, location: 'outputPane' }];
	const share = apiDailyUsage / dailyRequestLimit;
	const ofLimit = `${counts}: ${Math.round(share * 100)}% of the Daily Request Limit of ${dailyRequestLimit.toLocaleString('en-US')} set under Request Settings`;
	if (share < dailyLimitWarnShare) return [{ message: `${ofLimit}.`, location: 'outputPane' }];
	return [
		{
			message: `Near the daily limit: ${ofLimit}. Calls beyond it may be refused until tomorrow.`,
			type: 'warning',
			location: 'outputPane',
		},
	];
}

/** Shows the hints in the editor's output pane; older n8n without execution hints shows nothing. */
export function showUsage(
	context: IExecuteFunctions,
	usage: UsageCounters | undefined,
	settings: Pick<RequestSettings, 'dailyRequestLimit' | 'dailyLimitWarnShare'>,
): void {
	const hints = usageHints(usage, settings);
	if (hints.length > 0 && typeof context.addExecutionHints === 'function') context.addExecutionHints(...hints);
}
