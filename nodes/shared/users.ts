/** Users as the node shows them: filtered, matched by e-mail, never with a password. Pure. */
import { ALPHA3_TO_ALPHA2 } from './countryCodes';
import { USER_WRITE_ONLY_FIELDS, type User } from './wire';

export type PublicUser = Omit<User, (typeof USER_WRITE_ONLY_FIELDS)[number]>;

/** The service reads a password back as null; dropping it keeps it out of every output item. */
export function withoutWriteOnlyFields(user: User): PublicUser {
	const copy: Record<string, unknown> = { ...user };
	for (const field of USER_WRITE_ONLY_FIELDS) delete copy[field];
	return copy as PublicUser;
}

/**
 * E-mail addresses name the same person whatever their case, surrounding spaces or Unicode
 * normalisation (an "é" typed as one code point or as "e" + accent). A user without an e-mail
 * (null in a listing) has no key and matches nobody.
 */
export function emailKey(email: unknown): string | undefined {
	return typeof email === 'string' ? email.normalize('NFC').trim().toLowerCase() : undefined;
}

/**
 * One key per country however it is written: a code of the service's list, a name of that list
 * (any case), or an ISO three-letter code ("USA", as the vendor's user examples hold it). Anything
 * else is compared as trimmed text, any case.
 */
export function countryKey(country: unknown, countries: Readonly<Record<string, string>>): string | undefined {
	if (typeof country !== 'string') return undefined;
	const text = country.normalize('NFC').trim();
	const upper = text.toUpperCase();
	if (Object.prototype.hasOwnProperty.call(countries, upper)) return upper;
	const named = Object.entries(countries).find(([, name]) => name.toLowerCase() === text.toLowerCase());
	if (named) return named[0];
	if (Object.prototype.hasOwnProperty.call(ALPHA3_TO_ALPHA2, upper)) return ALPHA3_TO_ALPHA2[upper];
	return text.toLowerCase();
}

export interface UserFilters {
	email?: string;
	nameContains?: string;
	disabled?: boolean;
}

export function filterUsers<T extends Pick<User, 'email' | 'name' | 'disabled'>>(users: T[], filters: UserFilters): T[] {
	const email = emailKey(filters.email ?? '') ?? '';
	const name = filters.nameContains?.trim().toLowerCase() ?? '';
	return users.filter((user) => {
		if (email !== '' && emailKey(user.email) !== email) return false;
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
