/**
 * HR sync for a whole roster, decided against one listing of the users: who joins (created with
 * the scope tag), who moved (patched where a field differs), who is back (enabled), who left (a
 * managed user absent from the roster: disabled, deleted or left alone), and whether the number
 * of leavers is plausible enough to apply. Pure; matching, field diff and country equivalence are
 * the upsert's (upsertPlan.ts).
 */
import { diffToJsonPatch, fieldOf, pointerTo } from './jsonPatch';
import { indexByEmail, patchesCountry, planUser } from './upsertPlan';
import { emailKey } from './users';
import type { JsonPatchOperation, User, UserWrite } from './wire';

export const SYNC_MODES = ['preview', 'apply'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

export const LEAVER_ACTIONS = ['disable', 'delete', 'ignore'] as const;
export type LeaverAction = (typeof LEAVER_ACTIONS)[number];

export interface SyncSettings {
	leavers: LeaverAction;
	/** The tag that marks the users this sync manages; only they are ever disabled or deleted. */
	scopeTagKey: string;
	scopeTagValue: string;
	/** At most this share (0–100) of the managed users who can sign in may lose access in one run; one always may. */
	maxLeaversPercent: number;
	/** What a disabled leaver sees on signing in. */
	disabledMessage: string;
}

/** One person of the roster: the input item and the fields it sets (null for the optional ones it clears). */
export interface RosterEntry {
	itemIndex: number;
	user: UserWrite;
}

/** field → its value before and after; a field that was or becomes unset is null. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

export type SyncStep =
	| { action: 'created'; itemIndex: number; email: string; user: UserWrite; changes: FieldChanges }
	| { action: 'updated' | 'enabled'; itemIndex: number; userId: string; email: string; patch: JsonPatchOperation[]; changes: FieldChanges }
	| { action: 'unchanged'; itemIndex: number; userId: string; email: string; changes: FieldChanges }
	| { action: 'disabled'; userId: string; email: string; patch: JsonPatchOperation[]; changes: FieldChanges }
	| { action: 'deleted'; userId: string; email: string; changes: FieldChanges };

export interface SyncPlan {
	/** Roster entries in roster order, then the leavers in listing order. */
	steps: SyncStep[];
	/** Why applying this plan is refused (too many leavers); undefined when it may be applied. */
	refusal?: string;
}

/** Fields never shown in `changes`: a password is a secret, and the service never reads it back. */
const HIDDEN_FIELDS = new Set(['password']);

/**
 * Why the roster cannot be synced as it is: e-mails that name one person in several items (which
 * item is right is not for the sync to guess). Undefined when every e-mail is unique.
 */
export function rosterProblem(roster: readonly RosterEntry[]): string | undefined {
	const itemsByEmail = new Map<string, number[]>();
	for (const { itemIndex, user } of roster) {
		const key = emailKey(user.email)!;
		itemsByEmail.set(key, [...(itemsByEmail.get(key) ?? []), itemIndex]);
	}
	const duplicates = [...itemsByEmail].filter(([, items]) => items.length > 1);
	if (duplicates.length === 0) return undefined;
	const listed = duplicates.map(([email, items]) => `${email} in items ${items.join(', ')}`).join('; ');
	return `The roster names the same e-mail more than once, so nothing was synced: ${listed}. Keep one item per person.`;
}

export function isManaged(user: Pick<User, 'tags'>, settings: Pick<SyncSettings, 'scopeTagKey' | 'scopeTagValue'>): boolean {
	const tags = user.tags;
	return (
		typeof tags === 'object' &&
		tags !== null &&
		Object.prototype.hasOwnProperty.call(tags, settings.scopeTagKey) &&
		// The setting is read trimmed; a tag written by hand or another tool may carry the spaces.
		String(tags[settings.scopeTagKey]).trim() === settings.scopeTagValue
	);
}

/**
 * The plan for a roster whose e-mails are unique (see rosterProblem). `countries` is the service's
 * list: with it, a country written another way is the same country (see planUpserts).
 */
export function planSync(
	existing: readonly User[],
	roster: readonly RosterEntry[],
	settings: SyncSettings,
	countries?: Readonly<Record<string, string>>,
): SyncPlan {
	const usersByEmail = indexByEmail(existing);
	/** Managed users who can sign in and whom the roster itself marks disabled. */
	const lockedByRoster: User[] = [];
	const steps: SyncStep[] = roster.map(({ itemIndex, user }) => {
		const current = usersByEmail.get(emailKey(user.email)!);
		if (current && isManaged(current, settings) && current.disabled !== true && user.disabled === true) lockedByRoster.push(current);
		const desired = desiredUser(user, current, settings);
		const step = planUser(current, desired, countries);
		switch (step.kind) {
			case 'create':
				return { action: 'created', itemIndex, email: step.user.email, user: step.user, changes: changesOf({}, step.user) };
			case 'unchanged':
				return { action: 'unchanged', itemIndex, userId: step.user.id, email: step.user.email, changes: {} };
			case 'update':
				return {
					action: enables(current!, step.patch) ? 'enabled' : 'updated',
					itemIndex,
					userId: step.userId,
					email: current!.email,
					patch: step.patch,
					changes: patchChanges(current!, step.patch),
				};
		}
	});

	const rosterEmails = new Set(roster.map(({ user }) => emailKey(user.email)));
	const leavers = existing.filter((user) => isManaged(user, settings) && !rosterEmails.has(emailKey(user.email)));
	for (const user of leavers) {
		if (settings.leavers === 'delete') {
			steps.push({ action: 'deleted', userId: user.id, email: user.email, changes: {} });
		} else if (settings.leavers === 'disable' && user.disabled !== true) {
			const patch = diffToJsonPatch(user, { disabled: true, disabledMessage: settings.disabledMessage });
			steps.push({ action: 'disabled', userId: user.id, email: user.email, patch, changes: patchChanges(user, patch) });
		}
	}
	return { steps, refusal: refusal(existing, leavers, lockedByRoster, settings) };
}

/** Whether any step would change a country: only then is the service's list of countries needed. */
export function needsCountries(plan: SyncPlan): boolean {
	return plan.steps.some((step) => (step.action === 'updated' || step.action === 'enabled') && patchesCountry(step.patch));
}

/**
 * The roster's fields, plus what the sync itself keeps: the scope tag on every user it creates or
 * manages (beside the roster's own tags, when it gives some), and access for a managed user who was
 * disabled and is back, unless the roster itself says disabled.
 */
function desiredUser(user: UserWrite, current: User | undefined, settings: SyncSettings): UserWrite {
	const managed = current === undefined || isManaged(current, settings);
	const desired: UserWrite = { ...user };
	if (!managed) {
		// Access of users outside the scope (admins, hand-made users) is never the sync's to change.
		delete desired.disabled;
		delete desired.disabledMessage;
	}
	if (managed && (current === undefined || user.tags !== undefined)) {
		desired.tags = { ...(user.tags ?? {}), [settings.scopeTagKey]: settings.scopeTagValue };
	}
	if (managed && current?.disabled === true && user.disabled !== true) {
		desired.disabled = false;
		if (user.disabledMessage === undefined || user.disabledMessage === null) desired.disabledMessage = null;
	}
	return desired;
}

function enables(current: User, patch: readonly JsonPatchOperation[]): boolean {
	const path = pointerTo('disabled' satisfies keyof User);
	return current.disabled === true && patch.some((operation) => operation.path === path && 'value' in operation && operation.value === false);
}

function changesOf(before: Record<string, unknown>, after: object): FieldChanges {
	const changes: FieldChanges = {};
	for (const [field, value] of Object.entries(after)) {
		if (!HIDDEN_FIELDS.has(field)) changes[field] = { from: before[field] ?? null, to: value ?? null };
	}
	return changes;
}

function patchChanges(current: User, patch: readonly JsonPatchOperation[]): FieldChanges {
	const before = current as unknown as Record<string, unknown>;
	const changes: FieldChanges = {};
	for (const operation of patch) {
		const field = fieldOf(operation.path);
		if (HIDDEN_FIELDS.has(field)) continue;
		changes[field] = { from: before[field] ?? null, to: operation.op === 'remove' || !('value' in operation) ? null : operation.value };
	}
	return changes;
}

/**
 * A partial or empty HR export looks exactly like a mass departure. What counts is who would lose
 * access: managed users who can sign in today and are absent from the roster, against all managed
 * users who can sign in today (users already disabled are neither, so years of disabled leavers
 * never dilute the share). Deleting an already disabled leaver takes nobody's access.
 */
function refusal(
	existing: readonly User[],
	leavers: readonly User[],
	lockedByRoster: readonly User[],
	settings: SyncSettings,
): string | undefined {
	const active = existing.filter((user) => isManaged(user, settings) && user.disabled !== true).length;
	const leaving = settings.leavers === 'ignore' ? [] : leavers.filter((user) => user.disabled !== true);
	// A roster column mapped wrong ("disabled" = true for everyone) locks people out as surely as an empty one.
	const losing = leaving.length + lockedByRoster.length;
	if (losing <= 1 || losing * 100 <= active * settings.maxLeaversPercent) return undefined;
	const allowed = Math.max(1, Math.floor((active * settings.maxLeaversPercent) / 100));
	const causes = [
		leaving.length > 0 ? `${leaving.length} ${settings.leavers === 'delete' ? 'deleted' : 'disabled'} as absent from the roster` : '',
		lockedByRoster.length > 0 ? `${lockedByRoster.length} marked disabled by the roster` : '',
	].filter((cause) => cause !== '');
	return (
		`Too many leavers: ${losing} of the ${active} managed users who can sign in today would lose access ` +
		`(${Math.round((losing * 100) / active)}%: ${causes.join(', ')}), more than Max Leavers Percent allows (${settings.maxLeaversPercent}%, at most ${allowed}). ` +
		'An empty or partial HR export looks like this: check that the roster is complete. ' +
		'If these people did leave, raise Max Leavers Percent for one run.'
	);
}
