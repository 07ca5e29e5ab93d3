import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import {
	LEAVER_ACTIONS,
	needsCountries,
	planSync,
	rosterProblem,
	SYNC_MODES,
	type RosterEntry,
	type SyncMode,
	type SyncPlan,
	type SyncSettings,
	type SyncStep,
} from '../../../shared/syncPlan';
import type { TrackingApiClient } from '../../../shared/transport';
import { toNonEmptyText, toNumberInRange, type Check } from '../../../shared/validation';
import type { UserWrite } from '../../../shared/wire';
import type { OperationOption, Task } from '../operation';
import { readUser, requiredUserProperties, userAdditionalFields } from './userFields';

export const option: OperationOption = {
	name: 'Sync',
	description: 'Match the users to an HR roster: joiners, movers, leavers',
	action: 'Sync users with a roster',
};

const DEFAULT_DISABLED_MESSAGE = 'Your access ended because you are no longer on the HR roster. Contact your administrator.';

/** The roster's columns by default: each input item is one person. */
const fromItem: Record<string, string> = {
	name: '={{ $json.name }}',
	email: '={{ $json.email }}',
	country: '={{ $json.country }}',
	timeZone: '={{ $json.timeZone }}',
};

export const properties: INodeProperties[] = [
	{
		displayName:
			'All input items together are the roster, one per person. Preview writes nothing. Only users carrying the scope tag are ever disabled or deleted, and a run that would remove more than Max Leavers Percent of them is refused.',
		name: 'syncNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Mode',
		name: 'mode',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Preview', value: 'preview', description: 'Output the plan; write nothing' },
			{ name: 'Apply', value: 'apply', description: 'Write the plan to the account' },
		],
		default: 'preview',
	},
	{
		displayName: 'Leavers',
		name: 'leavers',
		type: 'options',
		options: [
			{ name: 'Disable', value: 'disable', description: 'Lock them out; they are enabled again if they return' },
			{ name: 'Delete', value: 'delete', description: 'Delete them for good' },
			{ name: 'Ignore', value: 'ignore', description: 'Leave them as they are' },
		],
		default: 'disable',
		description: 'What happens to managed users (with the scope tag) who are not in the roster',
	},
	{
		displayName: 'Scope Tag Key',
		name: 'scopeTagKey',
		type: 'string',
		default: 'managedBy',
		description: 'Users the sync creates get this tag; only users carrying it are ever disabled or deleted',
	},
	{
		displayName: 'Scope Tag Value',
		name: 'scopeTagValue',
		type: 'string',
		default: 'n8n-hr-sync',
	},
	{
		displayName: 'Max Leavers Percent',
		name: 'maxLeaversPercent',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 100 },
		default: 10,
		description:
			'Refuse the run (writing nothing) when more than this share of the managed users who can sign in would lose access. One leaver is always allowed.',
	},
	...requiredUserProperties.map((property) => ({ ...property, default: fromItem[property.name] })),
	userAdditionalFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Disabled Message',
				name: 'disabledMessage',
				type: 'string',
				default: DEFAULT_DISABLED_MESSAGE,
				description: 'What a disabled leaver sees on signing in',
			},
		],
	},
];

function oneOf<T extends string>(values: readonly T[]) {
	return (value: unknown): Check<T> =>
		values.includes(value as T) ? { ok: true, value: value as T } : { ok: false, problem: `must be one of ${values.join(', ')}` };
}

function readSettings(context: IExecuteFunctions): SyncSettings & { mode: SyncMode } {
	const parameter = (name: string, fallback: unknown) => context.getNodeParameter(name, 0, fallback);
	const options = parameter('options', {}) as { disabledMessage?: unknown };
	return {
		mode: checked(context, 0, 'Mode', oneOf(SYNC_MODES)(parameter('mode', 'preview'))),
		leavers: checked(context, 0, 'Leavers', oneOf(LEAVER_ACTIONS)(parameter('leavers', 'disable'))),
		scopeTagKey: checked(context, 0, 'Scope Tag Key', toNonEmptyText(parameter('scopeTagKey', 'managedBy'))),
		scopeTagValue: checked(context, 0, 'Scope Tag Value', toNonEmptyText(parameter('scopeTagValue', 'n8n-hr-sync'))),
		maxLeaversPercent: checked(context, 0, 'Max Leavers Percent', toNumberInRange(parameter('maxLeaversPercent', 10), 0, 100)),
		disabledMessage: checked(context, 0, 'Disabled Message', toNonEmptyText(options.disabledMessage ?? DEFAULT_DISABLED_MESSAGE)),
	};
}

/** Every item checked before anything is read or written: one bad row would otherwise look like a leaver. */
function readRoster(context: IExecuteFunctions): RosterEntry[] {
	const roster: RosterEntry[] = [];
	const problems: string[] = [];
	for (let itemIndex = 0; itemIndex < context.getInputData().length; itemIndex++) {
		try {
			const { set, cleared } = readUser(context, itemIndex);
			roster.push({ itemIndex, user: { ...set, ...Object.fromEntries(cleared.map((field) => [field, null])) } as UserWrite });
		} catch (error) {
			problems.push((error as Error).message);
		}
	}
	if (problems.length > 0) {
		throw new NodeOperationError(context.getNode(), `The roster has items that cannot be synced, so nothing was written: ${problems.join('; ')}`);
	}
	const duplicates = rosterProblem(roster);
	if (duplicates) throw new NodeOperationError(context.getNode(), duplicates);
	return roster;
}

/**
 * Reads the users once, plans the whole roster against them and, in Apply, refuses an implausible
 * number of leavers before anything is written. Each planned change is one task: its write, or in
 * Preview its plan item.
 */
export async function planTasks(this: IExecuteFunctions, api: TrackingApiClient): Promise<Task[]> {
	const settings = readSettings(this);
	const roster = readRoster(this);
	const users = await api.request('listUsers');
	let plan = planSync(users, roster, settings);
	// "US", "United States" and "USA" are one country: ask the service's list only when it matters.
	if (needsCountries(plan)) plan = planSync(users, roster, settings, await api.request('listCountries'));
	if (settings.mode === 'apply' && plan.refusal) throw new NodeOperationError(this.getNode(), `${plan.refusal} Nothing was written.`);
	showSummary(this, plan, settings.mode);
	return plan.steps.map((step) => ({
		itemIndex: 'itemIndex' in step ? step.itemIndex : undefined,
		errorFields: { action: step.action, userId: 'userId' in step ? step.userId : null, email: step.email },
		run: settings.mode === 'apply' ? async () => await apply(api, step) : async () => planItem(step, null, 'preview', plan.refusal),
	}));
}

async function apply(api: TrackingApiClient, step: SyncStep) {
	const itemIndex = 'itemIndex' in step ? step.itemIndex : undefined;
	switch (step.action) {
		case 'created': {
			const created = await api.request('createUser', { body: step.user, itemIndex });
			return planItem(step, created.id, 'apply');
		}
		case 'updated':
		case 'enabled':
		case 'disabled':
			await api.request('updateUser', { params: { userId: step.userId }, body: step.patch, itemIndex });
			return planItem(step, step.userId, 'apply');
		case 'deleted':
			await api.request('deleteUser', { params: { userId: step.userId }, itemIndex });
			return planItem(step, step.userId, 'apply');
		case 'unchanged':
			return planItem(step, step.userId, 'apply');
	}
}

function planItem(step: SyncStep, userId: string | null, mode: SyncMode, refusal?: string) {
	const item = { action: step.action, userId: 'userId' in step ? step.userId : userId, email: step.email, changes: step.changes, mode };
	return refusal === undefined ? item : { ...item, refusal: `Apply would refuse this plan. ${refusal}` };
}

/** The plan in one line above the output, and in Preview a warning when Apply would refuse it. */
function showSummary(context: IExecuteFunctions, plan: SyncPlan, mode: SyncMode): void {
	if (typeof context.addExecutionHints !== 'function') return;
	const counts = new Map<string, number>();
	for (const step of plan.steps) counts.set(step.action, (counts.get(step.action) ?? 0) + 1);
	const summary = [...counts].map(([action, count]) => `${count} ${action}`).join(', ') || 'nothing to do';
	const lead = mode === 'preview' ? 'Sync preview (nothing written)' : 'Sync';
	context.addExecutionHints({ message: `${lead}: ${summary}.`, location: 'outputPane' });
	if (mode === 'preview' && plan.refusal) {
		context.addExecutionHints({ message: `Apply would refuse this plan. ${plan.refusal}`, type: 'warning', location: 'outputPane' });
	}
}
