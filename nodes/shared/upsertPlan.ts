/**
 * Create-or-update by e-mail for a whole run, decided against one listing of the users: which
 * items create a user, which patch one (only the fields that differ), which change nothing, and
 * which are superseded by a later item with the same e-mail. Pure.
 */
import { diffToJsonPatch, isUnset, pointerTo } from './jsonPatch';
import { countryKey, emailKey } from './users';
import { USER_UNSET_READS_AS, type JsonPatchOperation, type User, type UserWrite } from './wire';

/** A checked item: the fields it sets, and null for the optional fields it clears. */
export interface UpsertRequest {
	itemIndex: number;
	user: UserWrite;
}

export type UpsertStep =
	| { kind: 'create'; user: UserWrite }
	| { kind: 'update'; userId: string; patch: JsonPatchOperation[] }
	| { kind: 'unchanged'; user: User }
	| { kind: 'superseded'; byItemIndex: number; user: User | null };

/**
 * `countries` is the service's own list (code → name); with it, a country written another way
 * (a name, "USA" for "US") is the same country and changes nothing.
 */
export function planUpserts(
	existing: readonly User[],
	requests: readonly UpsertRequest[],
	countries?: Readonly<Record<string, string>>,
): Map<number, UpsertStep> {
	const usersByEmail = indexByEmail(existing);
	const lastItemByEmail = new Map<string, number>();
	for (const request of requests) lastItemByEmail.set(emailKey(request.user.email)!, request.itemIndex);

	const plan = new Map<number, UpsertStep>();
	for (const request of requests) {
		const key = emailKey(request.user.email)!;
		const current = usersByEmail.get(key);
		const winner = lastItemByEmail.get(key)!;
		plan.set(
			request.itemIndex,
			winner === request.itemIndex
				? planUser(current, request.user, countries)
				: { kind: 'superseded', byItemIndex: winner, user: current ?? null },
		);
	}
	return plan;
}

/** The listed users by e-mail key. */
export function indexByEmail(existing: readonly User[]): Map<string, User> {
	const usersByEmail = new Map<string, User>();
	for (const user of existing) {
		const key = emailKey(user.email);
		// A listed user without an e-mail cannot be the match of anyone. Should the service ever hold
		// two users with one e-mail, the first listed is the match, every run.
		if (key !== undefined && !usersByEmail.has(key)) usersByEmail.set(key, user);
	}
	return usersByEmail;
}

/** What it takes to make the user with this e-mail (`current`, if listed) look like `desired`. */
export function planUser(
	current: User | undefined,
	desired: UserWrite,
	countries?: Readonly<Record<string, string>>,
): Exclude<UpsertStep, { kind: 'superseded' }> {
	if (!current) return { kind: 'create', user: withoutUnset(desired) };
	const patch = diffToJsonPatch(current, comparedFields(desired, current, countries));
	return patch.length === 0 ? { kind: 'unchanged', user: current } : { kind: 'update', userId: current.id, patch };
}

/** A blank field as the service reads it back (`USER_UNSET_READS_AS`); any other value as it is. */
export function asReadBack(field: keyof UserWrite, value: unknown): unknown {
	return isUnset(value) && field in USER_UNSET_READS_AS ? USER_UNSET_READS_AS[field] : value;
}

/**
 * The e-mail is the match key, equal by definition (a difference in case is not a change), and a
 * password cannot be compared because the service never reads it back: it is set on create only.
 * A country written another way for the same country is no change either, nor is a field left
 * blank that the service reads back as its default (a blank Disabled column is `false`): compared
 * as unset, every run would rewrite it.
 */
function comparedFields(user: UserWrite, current: User, countries?: Readonly<Record<string, string>>): Partial<UserWrite> {
	const compared: Partial<UserWrite> = { ...user };
	delete compared.email;
	delete compared.password;
	for (const field of Object.keys(USER_UNSET_READS_AS) as Array<keyof UserWrite>) {
		if (field in compared) (compared as Record<string, unknown>)[field] = asReadBack(field, compared[field]);
	}
	if (countries && countryKey(user.country, countries) === countryKey(current.country, countries)) delete compared.country;
	return compared;
}

function withoutUnset(user: UserWrite): UserWrite {
	return Object.fromEntries(Object.entries(user).filter(([, value]) => value !== null && value !== undefined)) as UserWrite;
}

/** Whether any planned update would change a country: only then is the service's list needed. */
export function changesCountry(plan: Map<number, UpsertStep>): boolean {
	return [...plan.values()].some((step) => step.kind === 'update' && patchesCountry(step.patch));
}

export function patchesCountry(patch: readonly JsonPatchOperation[]): boolean {
	return patchesField(patch, 'country');
}

export function patchesTimeZone(patch: readonly JsonPatchOperation[]): boolean {
	return patchesField(patch, 'timeZone');
}

function patchesField(patch: readonly JsonPatchOperation[], field: keyof User): boolean {
	const path = pointerTo(field);
	return patch.some((operation) => operation.path === path);
}
