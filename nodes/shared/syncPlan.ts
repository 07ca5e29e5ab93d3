/**
 * HR sync for a whole roster, decided against one listing of the users: who joins (created with
 * the scope tag), who moved (patched where a field differs), who is back (enabled), who left (a
 * managed user absent from the roster: disabled, deleted or left alone), and whether the number
 * of leavers is plausible enough to apply. Pure; matching, field diff and country equivalence are
 * the upsert's (upsertPlan.ts).
 */
import { diffToJsonPatch, fieldOf, pointerTo } from './jsonPatch';
import { asReadBack, indexByEmail, planUser } from './upsertPlan';
import { emailKey } from './users';
import { parseServiceTime } from './validation';
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
	/** At most this many may lose access in one run, besides the share; 0: only the share applies. */
	maxLeavers: number;
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
	| { action: 'updated' | 'enabled'; itemIndex: number; userId: string; email: string; patch: JsonPatchOperation[]; changes: FieldChanges; note?: string }
	| { action: 'unchanged'; itemIndex: number; userId: string; email: string; changes: FieldChanges; note?: string }
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
 * The fields that grant or remove access: sign-in (disabled, expiry, start), admin rights and
 * devices. The sync changes them only for the users it manages.
 */
const ACCESS_FIELDS = ['disabled', 'disabledMessage', 'expires', 'from', 'privileges', 'adminDevices', 'deviceId', 'group'] as const satisfies ReadonlyArray<keyof UserWrite>;

/**
 * What the sync never changes for a user outside its scope: their access, and their tags, which
 * decide who a sync manages. A roster that could add the scope tag would adopt an admin or a user
 * locked out by hand, and the next run would disable or re-enable them; one that replaced the tags
 * would take a user out of another sync's scope. Bringing a user under the sync is a person's act.
 */
const OUTSIDE_SCOPE_FIELDS = [...ACCESS_FIELDS, 'tags'] as const satisfies ReadonlyArray<keyof UserWrite>;

/** Whether the user can sign in at `now`: not disabled, past the start, before the expiry. */
function canSignIn(user: Pick<UserWrite, 'disabled' | 'from' | 'expires'>, now: number): boolean {
	if (user.disabled === true) return false;
	const from = parseServiceTime(user.from);
	const expires = parseServiceTime(user.expires);
	return !(from > now) && !(expires <= now);
}

/**
 * The e-mails that name one person in several items (which item is right is not for the sync to
 * guess), each with its items in roster order; empty when every e-mail is unique.
 */
export function duplicateEmails(roster: readonly RosterEntry[]): Array<{ email: string; items: number[] }> {
	const itemsByEmail = new Map<string, number[]>();
	for (const { itemIndex, user } of roster) {
		const key = emailKey(user.email)!;
		itemsByEmail.set(key, [...(itemsByEmail.get(key) ?? []), itemIndex]);
	}
	return [...itemsByEmail].filter(([, items]) => items.length > 1).map(([email, items]) => ({ email, items }));
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
 * The plan for a roster whose e-mails are unique (see duplicateEmails). `countries` is the service's
 * list: with it, a country written another way is the same country (see planUpserts).
 */
export function planSync(
	existing: readonly User[],
	roster: readonly RosterEntry[],
	settings: SyncSettings,
	countries?: Readonly<Record<string, string>>,
	now: number = Date.now(),
): SyncPlan {
	const usersByEmail = indexByEmail(existing);
	/** Managed users who can sign in and whom the roster itself locks out: by Disabled, or by Expires or From. */
	const lockedByRoster: Array<{ user: User; by: 'disabled' | 'dates' }> = [];
	const steps: SyncStep[] = roster.map(({ itemIndex, user }) => {
		const current = usersByEmail.get(emailKey(user.email)!);
		const desired = desiredUser(user, current, settings);
		if (current && isManaged(current, settings) && canSignIn(current, now) && !canSignIn(withAccessOf(current, desired), now)) {
			lockedByRoster.push({ user: current, by: desired.disabled === true ? 'disabled' : 'dates' });
		}
		const note = current && !isManaged(current, settings) ? outsideScopeNote(current, user, settings) : undefined;
		const step = planUser(current, desired, countries);
		switch (step.kind) {
			case 'create':
				return { action: 'created', itemIndex, email: step.user.email, user: step.user, changes: changesOf({}, step.user) };
			case 'unchanged':
				return withNote({ action: 'unchanged', itemIndex, userId: step.user.id, email: step.user.email, changes: {} }, note);
			case 'update': {
				const enabled = enables(current!, step.patch);
				return withNote(
					{
						action: enabled ? 'enabled' : 'updated',
						itemIndex,
						userId: step.userId,
						email: current!.email,
						patch: step.patch,
						changes: patchChanges(current!, step.patch),
					},
					note ?? (enabled ? stillLockedNote(withAccessOf(current!, desired), now) : undefined),
				);
			}
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
	return { steps, refusal: refusal(existing, leavers, lockedByRoster, settings, now) };
}

function withNote<Step extends SyncStep>(step: Step, note: string | undefined): Step {
	return note === undefined ? step : { ...step, note };
}

/** The user's access as it would be once `desired` is written: a field `desired` leaves out keeps its value. */
function withAccessOf(current: User, desired: UserWrite): User {
	const after: Record<string, unknown> = { ...current };
	for (const field of ACCESS_FIELDS) if (desired[field] !== undefined) after[field] = desired[field];
	return after as unknown as User;
}

/**
 * A returner enabled while an expiry in the past or a start in the future the roster leaves as it is
 * still keeps them out (a re-hire whose old contract expired): "will enable" alone would read as
 * access given back.
 */
function stillLockedNote(after: User, now: number): string | undefined {
	if (canSignIn(after, now)) return undefined;
	const [field, reason] = parseServiceTime(after.expires) <= now ? (['Expires', `their access expired on ${after.expires}`] as const) : (['From', `their access starts on ${after.from}`] as const);
	return `Still cannot sign in after this: ${reason}. Map ${field} in the roster (blank clears it) or change it with User → Update.`;
}

/** For a user outside the scope: which access fields and tags the roster would change, left as they are, and why. */
function outsideScopeNote(current: User, user: UserWrite, settings: SyncSettings): string | undefined {
	const asked = OUTSIDE_SCOPE_FIELDS.filter((field) => user[field] !== undefined && diffToJsonPatch(current, comparedAccess(field, user)).length > 0);
	if (asked.length === 0) return undefined;
	return (
		`Left alone: ${asked.join(', ')}. This user has no ${settings.scopeTagKey}: ${settings.scopeTagValue} tag, ` +
		'so the sync never changes their access (sign-in, expiry, start, admin rights, devices) or their tags, ' +
		'which decide who a sync manages (a roster cannot bring them under the sync: give them the tag with User → Update).'
	);
}

function comparedAccess(field: (typeof OUTSIDE_SCOPE_FIELDS)[number], user: UserWrite): Partial<UserWrite> {
	return { [field]: asReadBack(field, user[field]) };
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
		// Access and tags of users outside the scope (admins, hand-made users) are never the sync's to change.
		for (const field of OUTSIDE_SCOPE_FIELDS) delete desired[field];
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
 * access: managed users who can sign in today and are absent from the roster or locked out by it,
 * against all managed users who can sign in today (users already disabled or expired are neither,
 * so years of former staff never dilute the share). Deleting someone who cannot sign in takes
 * nobody's access.
 */
function refusal(
	existing: readonly User[],
	leavers: readonly User[],
	lockedByRoster: ReadonlyArray<{ by: 'disabled' | 'dates' }>,
	settings: SyncSettings,
	now: number,
): string | undefined {
	const active = existing.filter((user) => isManaged(user, settings) && canSignIn(user, now)).length;
	const leaving = settings.leavers === 'ignore' ? [] : leavers.filter((user) => canSignIn(user, now));
	// A roster column mapped wrong ("disabled" = true, an expiry in 2019, for everyone) locks people out as surely as an empty one.
	const losing = leaving.length + lockedByRoster.length;
	if (losing <= 1) return undefined;
	const percent = exactDecimal(settings.maxLeaversPercent);
	const overShare = BigInt(losing) * 100n * percent.scale > BigInt(active) * percent.units;
	const overCount = settings.maxLeavers > 0 && losing > settings.maxLeavers;
	if (!overShare && !overCount) return undefined;
	const allowed = Math.max(1, Number((BigInt(active) * percent.units) / (100n * percent.scale)));
	const causes = [
		leaving.length > 0 ? `${leaving.length} ${settings.leavers === 'delete' ? 'deleted' : 'disabled'} as absent from the roster` : '',
		...lockedCauses(lockedByRoster),
	].filter((cause) => cause !== '');
	const limits = [
		overShare ? `Max Leavers Percent allows (${percent.text}%, at most ${allowed})` : '',
		overCount ? `Max Leavers allows (${settings.maxLeavers})` : '',
	].filter((limit) => limit !== '');
	return (
		`Too many leavers: ${losing} of the ${active} managed users who can sign in today would lose access ` +
		`(${share(losing, active, percent)}%: ${causes.join(', ')}), more than ${limits.join(' and ')}. ` +
		'An empty or partial HR export looks like this: check that the roster is complete. ' +
		`If these people did leave, raise ${overShare && overCount ? 'Max Leavers Percent and Max Leavers' : overShare ? 'Max Leavers Percent' : 'Max Leavers'} for one run.`
	);
}

function lockedCauses(lockedByRoster: ReadonlyArray<{ by: 'disabled' | 'dates' }>): string[] {
	const disabled = lockedByRoster.filter(({ by }) => by === 'disabled').length;
	const dates = lockedByRoster.length - disabled;
	return [
		disabled > 0 ? `${disabled} marked disabled by the roster` : '',
		dates > 0 ? `${dates} locked out by the roster's Expires or From (expired or not yet started)` : '',
	];
}

/**
 * The percentage as the user typed it, as an exact fraction `units / scale`: compared in floating
 * point, 375 × 18.4 is 6899.999…, and 69 leavers of 375 (exactly 18.4 %) were refused.
 */
function exactDecimal(value: number): { units: bigint; scale: bigint; text: string; decimals: number } {
	const text = withoutTrailingZeros(value.toFixed(10));
	const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
	return { units: BigInt(text.replace('.', '')), scale: 10n ** BigInt(decimals), text, decimals };
}

/** "18.400" as "18.4", "100.0" as "100". */
function withoutTrailingZeros(decimal: string): string {
	return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/** The share of leavers with the precision of the limit, and more digits where that would show it equal to the limit. */
function share(losing: number, active: number, limit: { text: string; decimals: number }): string {
	if (active === 0) return '100';
	const exact = (losing * 100) / active;
	for (let digits = limit.decimals; digits < limit.decimals + 6; digits++) {
		const shown = withoutTrailingZeros(exact.toFixed(digits));
		if (shown !== limit.text) return shown;
	}
	return exact.toString();
}
