/** Users as the node shows them: filtered, matched by e-mail, never with a password. Pure. */
import { USER_WRITE_ONLY_FIELDS, type User } from './wire';

export type PublicUser = Omit<User, (typeof USER_WRITE_ONLY_FIELDS)[number]>;

/** The service reads a password back as null; dropping it keeps it out of every output item. */
export function withoutWriteOnlyFields(user: User): PublicUser {
	const copy: Record<string, unknown> = { ...user };
	for (const field of USER_WRITE_ONLY_FIELDS) delete copy[field];
	return copy as PublicUser;
}

/** E-mail addresses name the same person whatever their case and surrounding spaces. */
export function emailKey(email: string): string {
	return email.trim().toLowerCase();
}

export interface UserFilters {
	email?: string;
	nameContains?: string;
	disabled?: boolean;
}

export function filterUsers<T extends Pick<User, 'email' | 'name' | 'disabled'>>(users: T[], filters: UserFilters): T[] {
	const email = emailKey(filters.email ?? '');
	const name = filters.nameContains?.trim().toLowerCase() ?? '';
	return users.filter((user) => {
		if (email !== '' && emailKey(user.email ?? '') !== email) return false;
		if (name !== '' && !(user.name ?? '').toLowerCase().includes(name)) return false;
		if (filters.disabled !== undefined && (user.disabled === true) !== filters.disabled) return false;
		return true;
	});
}

/** The API answers its reference tables as maps; the node lists them as one entry per item. */
export function countryList(countries: Record<string, string>): Array<{ code: string; name: string }> {
	return Object.entries(countries).map(([code, name]) => ({ code, name }));
}

export function timeZoneList(timeZones: Record<string, string>): Array<{ id: string; name: string }> {
	return Object.entries(timeZones).map(([id, name]) => ({ id, name }));
}
