import { createHash } from 'node:crypto';

import { NodeOperationError, type IExecuteFunctions, type INodeProperties, type NodeApiError } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import {
	duplicateEmails,
	LEAVER_ACTIONS,
	planSync,
	SYNC_MODES,
	type RosterEntry,
	type SyncMode,
	type SyncPlan,
	type SyncSettings,
	type SyncStep,
} from '../../../shared/syncPlan';
import type { TrackingApiClient } from '../../../shared/transport';
import { patchesCountry, patchesTimeZone } from '../../../shared/upsertPlan';
import { countryInOtherLanguage, listedCountry, listedTimeZone } from '../../../shared/users';
import { preview, toCount, toNonEmptyText, toNumberInRange, type Check } from '../../../shared/validation';
import type { User, UserWrite } from '../../../shared/wire';
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
			'All input items together are the roster, one per person. Preview writes nothing and checks every row as Apply would. Only users carrying the scope tag ever gain or lose access, and a run that would lock out more of them than Max Leavers Percent or Max Leavers allow is refused.',
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
			'Refuse the run (writing nothing) when more than this share of the managed users who can sign in would lose access (disabled, deleted, or expired by the roster). One leaver is always allowed.',
	},
	{
		displayName: 'Max Leavers',
		name: 'maxLeavers',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Refuse the run (writing nothing) when more than this many managed users would lose access, whatever their share. 0: only Max Leavers Percent applies.',
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
			{
				displayName: 'Approved Plan',
				name: 'approvedPlan',
				type: 'string',
				default: '',
				placeholder: "e.g. {{ $('Sync users (preview)').first().json.planId }}",
				description:
					"The planId of the Preview someone approved. Apply then refuses, writing nothing, when what it would do differs from that plan (the account or the roster changed in between). Empty: Apply runs the plan as it finds it.",
			},
		],
	},
];

function oneOf<T extends string>(values: readonly T[]) {
	return (value: unknown): Check<T> =>
		values.includes(value as T) ? { ok: true, value: value as T } : { ok: false, problem: `must be one of ${values.join(', ')}` };
}

function readSettings(context: IExecuteFunctions): SyncSettings & { mode: SyncMode; approvedPlan?: string } {
	const parameter = (name: string, fallback: unknown) => context.getNodeParameter(name, 0, fallback);
	const options = parameter('options', {}) as { disabledMessage?: unknown; approvedPlan?: unknown };
	const approvedPlan = String(options.approvedPlan ?? '').trim();
	return {
		mode: checked(context, 0, 'Mode', oneOf(SYNC_MODES)(parameter('mode', 'preview'))),
		leavers: checked(context, 0, 'Leavers', oneOf(LEAVER_ACTIONS)(parameter('leavers', 'disable'))),
		scopeTagKey: checked(context, 0, 'Scope Tag Key', toNonEmptyText(parameter('scopeTagKey', 'managedBy'))),
		scopeTagValue: checked(context, 0, 'Scope Tag Value', toNonEmptyText(parameter('scopeTagValue', 'n8n-hr-sync'))),
		maxLeaversPercent: checked(context, 0, 'Max Leavers Percent', toNumberInRange(parameter('maxLeaversPercent', 10), 0, 100)),
		maxLeavers: checked(context, 0, 'Max Leavers', toCount(parameter('maxLeavers', 0))),
		disabledMessage: checked(context, 0, 'Disabled Message', toNonEmptyText(options.disabledMessage ?? DEFAULT_DISABLED_MESSAGE)),
		approvedPlan: approvedPlan === '' ? undefined : approvedPlan,
	};
}

/** What is wrong with one roster item, by the input item that holds it. */
interface RosterProblem {
	itemIndex: number;
	problem: string;
}

/** Beyond this many, a roster's problems are counted, not listed: an export read wrong makes every row bad. */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Every item checked before anything is written (one bad row would otherwise look like a leaver):
 * each field, then e-mails naming one person twice. Returns the good entries and every problem.
 */
function readRoster(context: IExecuteFunctions): { roster: RosterEntry[]; problems: RosterProblem[] } {
	const entries: RosterEntry[] = [];
	const problems: RosterProblem[] = [];
	for (let itemIndex = 0; itemIndex < context.getInputData().length; itemIndex++) {
		try {
			const { set, cleared } = readUser(context, itemIndex);
			entries.push({ itemIndex, user: { ...set, ...Object.fromEntries(cleared.map((field) => [field, null])) } as UserWrite });
		} catch (error) {
			problems.push({ itemIndex, problem: (error as Error).message });
		}
	}
	const duplicates = duplicateEmails(entries);
	for (const { email, items } of duplicates) {
		problems.push({ itemIndex: items[0], problem: `Items ${items.join(', ')} name the same e-mail (${email}): keep one item per person` });
	}
	const duplicated = new Set(duplicates.flatMap(({ items }) => items));
	return { roster: entries.filter(({ itemIndex }) => !duplicated.has(itemIndex)), problems };
}

function rosterError(context: IExecuteFunctions, problems: RosterProblem[]): NodeOperationError {
	const sorted = [...problems].sort((a, b) => a.itemIndex - b.itemIndex);
	const listed = sorted.slice(0, MAX_LISTED_PROBLEMS).map(({ problem }) => problem);
	if (sorted.length > MAX_LISTED_PROBLEMS) listed.push(`and ${sorted.length - MAX_LISTED_PROBLEMS} more`);
	return new NodeOperationError(context.getNode(), `The roster has items that cannot be synced, so nothing was written: ${listed.join('; ')}`, {
		itemIndex: sorted[0].itemIndex,
		description: byteOrderMarkHint(context),
	});
}

/**
 * A CSV saved by Excel starts with a byte order mark, which n8n's Extract From File keeps in the
 * first column's name unless told otherwise: `{{ $json.name }}` then finds nothing in any row.
 */
function byteOrderMarkHint(context: IExecuteFunctions): string | undefined {
	const column = Object.keys(context.getInputData()[0]?.json ?? {}).find((key) => key.startsWith('\uFEFF'));
	if (column === undefined) return undefined;
	return (
		`The first column's name starts with an invisible byte order mark (${preview(column)}), so an expression such as ` +
		`{{ $json.${column.slice(1)} }} finds nothing. In Extract From File, turn on Options → Exclude Byte Order Mark (BOM).`
	);
}

/**
 * The plan, with every country and time zone it would send checked against the service's own lists
 * (read only when the plan sends one), so that a plan Preview accepts is one Apply can send. A value
 * the list knows in another spelling is sent as the list has it.
 */
async function checkedPlan(
	api: TrackingApiClient,
	users: User[],
	roster: RosterEntry[],
	settings: SyncSettings,
	now: number,
): Promise<{ plan: SyncPlan; problems: RosterProblem[] }> {
	const unchecked = planSync(users, roster, settings, undefined, now);
	const sent = sentReferenceFields(unchecked);
	if (sent.country.size === 0 && sent.timeZone.size === 0) return { plan: unchecked, problems: [] };
	const countries = sent.country.size > 0 ? await api.request('listCountries') : undefined;
	const timeZones = sent.timeZone.size > 0 ? await api.request('listTimeZones') : undefined;
	const problems: RosterProblem[] = [];
	const listed = roster.map(({ itemIndex, user }) => {
		const checked = { ...user };
		if (countries && sent.country.has(itemIndex)) {
			const country = listedCountry(user.country, countries);
			if (country === undefined) problems.push({ itemIndex, problem: unknownCountry(itemIndex, user.country, countries) });
			else checked.country = country;
		}
		if (timeZones && sent.timeZone.has(itemIndex)) {
			const timeZone = listedTimeZone(user.timeZone, timeZones);
			if (timeZone === undefined) {
				problems.push({
					itemIndex,
					problem: `Invalid "Time Zone" in item ${itemIndex}: Time Zone ${preview(user.timeZone)} is not one the service lists: use an IANA id such as Europe/Berlin`,
				});
			} else checked.timeZone = timeZone;
		}
		return { itemIndex, user: checked };
	});
	return { plan: planSync(users, listed, settings, countries, now), problems };
}

function unknownCountry(itemIndex: number, country: string, countries: Readonly<Record<string, string>>): string {
	const meant = countryInOtherLanguage(country, countries);
	const hint = meant === undefined ? 'use its two-letter code, e.g. DE' : `did you mean ${meant} (${countries[meant]})? Use the code or the name the service lists`;
	return `Invalid "Country" in item ${itemIndex}: Country ${preview(country)} is not one the service lists: ${hint}`;
}

/** The roster items whose country, and whose time zone, the plan would send. */
function sentReferenceFields(plan: SyncPlan): { country: Set<number>; timeZone: Set<number> } {
	const sent = { country: new Set<number>(), timeZone: new Set<number>() };
	for (const step of plan.steps) {
		if (step.action === 'created') {
			sent.country.add(step.itemIndex);
			sent.timeZone.add(step.itemIndex);
		} else if (step.action === 'updated' || step.action === 'enabled') {
			if (patchesCountry(step.patch)) sent.country.add(step.itemIndex);
			if (patchesTimeZone(step.patch)) sent.timeZone.add(step.itemIndex);
		}
	}
	return sent;
}

/**
 * Reads the users once, plans the whole roster against them and refuses, before anything is
 * written, a roster with bad items (all of them named at once) and, in Apply, an implausible number
 * of leavers. Each planned change is one task: its write, or in Preview its plan item.
 */
export async function planTasks(this: IExecuteFunctions, api: TrackingApiClient): Promise<Task[]> {
	const settings = readSettings(this);
	const { roster, problems } = readRoster(this);
	const users = await api.request('listUsers');
	const { plan, problems: listProblems } = await checkedPlan(api, users, roster, settings, Date.now());
	if (problems.length + listProblems.length > 0) throw rosterError(this, [...problems, ...listProblems]);
	const planId = planFingerprint(plan);
	if (settings.mode === 'apply' && settings.approvedPlan !== undefined && settings.approvedPlan !== planId) {
		throw new NodeOperationError(
			this.getNode(),
			`This is not the plan that was approved (approved plan ${settings.approvedPlan}, plan now ${planId}): the account or the roster changed since Preview. Nothing was written.`,
			{ description: 'Run Preview again and have its plan approved, then Apply with its planId as Approved Plan.' },
		);
	}
	if (settings.mode === 'apply' && plan.refusal) throw new NodeOperationError(this.getNode(), `${plan.refusal} Nothing was written.`);
	showSummary(this, plan, settings.mode);
	return plan.steps.map((step) => ({
		itemIndex: 'itemIndex' in step ? step.itemIndex : undefined,
		errorFields: { action: step.action, userId: 'userId' in step ? step.userId : null, email: step.email },
		run: settings.mode === 'apply' ? async () => await apply(api, step, planId) : async () => planItem(step, null, 'preview', planId, plan.refusal),
	}));
}

/**
 * One id for everything a plan does (each step's action, user and field changes, from and to), so
 * that Apply can tell whether it is about to do exactly what was approved in Preview. A digest no
 * roster can be written to match (names and e-mails are free text), 128 bits of SHA-256.
 */
function planFingerprint(plan: SyncPlan): string {
	const steps = JSON.stringify(plan.steps.map((step) => [step.action, 'userId' in step ? step.userId : null, step.email, step.changes]));
	return createHash('sha256').update(steps).digest('hex').slice(0, 32);
}

/**
 * A write the service refused or the network lost stops Apply: the error says which changes were
 * written before it and which were not (the next run plans only what is left).
 */
export function explainStop(error: NodeApiError | NodeOperationError, finished: readonly Task[], unfinished: readonly Task[]): void {
	const changes = (tasks: readonly Task[]) =>
		tasks.map((task) => task.errorFields as { action: string; email: string }).filter(({ action }) => action !== 'unchanged').map(({ action, email }) => `${action} ${email}`);
	const written = changes(finished);
	const notWritten = changes(unfinished);
	if (written.length + notWritten.length === 0) return;
	const listed = (names: string[]) =>
		names.length === 0 ? 'none' : names.length > MAX_LISTED_PROBLEMS ? `${names.slice(0, MAX_LISTED_PROBLEMS).join(', ')} and ${names.length - MAX_LISTED_PROBLEMS} more` : names.join(', ');
	const account =
		`Sync stopped part way. Written: ${listed(written)}. Not written (or not confirmed, for the one that failed): ${listed(notWritten)}. ` +
		'Run the sync again once the cause is fixed: it plans only what is left.';
	error.description = error.description ? `${error.description}\n\n${account}` : account;
}

async function apply(api: TrackingApiClient, step: SyncStep, planId: string) {
	const itemIndex = 'itemIndex' in step ? step.itemIndex : undefined;
	switch (step.action) {
		case 'created': {
			const created = await api.request('createUser', { body: step.user, itemIndex });
			return planItem(step, created.id, 'apply', planId);
		}
		case 'updated':
		case 'enabled':
		case 'disabled':
			await api.request('updateUser', { params: { userId: step.userId }, body: step.patch, itemIndex });
			return planItem(step, step.userId, 'apply', planId);
		case 'deleted':
			await api.request('deleteUser', { params: { userId: step.userId }, itemIndex });
			return planItem(step, step.userId, 'apply', planId);
		case 'unchanged':
			return planItem(step, step.userId, 'apply', planId);
	}
}

/** What a step does, in words that tell a plan (Preview: "will disable") from what was done ("disabled"). */
const PLANNED: Record<SyncStep['action'], string> = {
	created: 'will create',
	updated: 'will update',
	enabled: 'will enable',
	disabled: 'will disable',
	deleted: 'will delete',
	unchanged: 'will leave unchanged',
};

function planItem(step: SyncStep, userId: string | null, mode: SyncMode, planId: string, refusal?: string) {
	const summary = `${mode === 'preview' ? PLANNED[step.action] : step.action} ${step.email}`;
	const item = { action: step.action, userId: 'userId' in step ? step.userId : userId, email: step.email, changes: step.changes, mode, summary, planId };
	const noted = 'note' in step && step.note !== undefined ? { ...item, note: step.note } : item;
	return refusal === undefined ? noted : { ...noted, refusal: `Apply would refuse this plan. ${refusal}` };
}

/** The plan in one line above the output, and in Preview a warning when Apply would refuse it. */
function showSummary(context: IExecuteFunctions, plan: SyncPlan, mode: SyncMode): void {
	if (typeof context.addExecutionHints !== 'function') return;
	const counts = new Map<SyncStep['action'], number>();
	for (const step of plan.steps) counts.set(step.action, (counts.get(step.action) ?? 0) + 1);
	const summary =
		[...counts].map(([action, count]) => (mode === 'preview' ? `${PLANNED[action]} ${count}` : `${count} ${action}`)).join(', ') || 'nothing to do';
	const lead = mode === 'preview' ? 'Sync preview, nothing written yet' : 'Sync applied';
	context.addExecutionHints({ message: `${lead}: ${summary}.`, location: 'outputPane' });
	if (mode === 'preview' && plan.refusal) {
		context.addExecutionHints({ message: `Apply would refuse this plan. ${plan.refusal}`, type: 'warning', location: 'outputPane' });
	}
}
