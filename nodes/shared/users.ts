/** Users as the node shows them: filtered, matched by e-mail, never with a password. Pure. */
import { ALPHA3_TO_ALPHA2 } from './countryCodes';
import { withoutFormatCharacters } from './validation';
import { USER_WRITE_ONLY_FIELDS, type User } from './wire';

export type PublicUser = Omit<User, (typeof USER_WRITE_ONLY_FIELDS)[number]>;

/** The service reads a password back as null; dropping it keeps it out of every output item. */
export function withoutWriteOnlyFields(user: User): PublicUser {
	const copy: Record<string, unknown> = { ...user };
	for (const field of USER_WRITE_ONLY_FIELDS) delete copy[field];
	return copy as PublicUser;
}

/**
 * E-mail addresses name the same person whatever their case, surrounding spaces, invisible format
 * characters or Unicode normalisation (an "é" typed as one code point or as "e" + accent). A user
 * without an e-mail (null in a listing) has no key and matches nobody.
 */
export function emailKey(email: unknown): string | undefined {
	return typeof email === 'string' ? withoutFormatCharacters(email.normalize('NFC')).trim().toLowerCase() : undefined;
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

/**
 * The country as the service takes it: as written when it is a code or a name of the service's list,
 * else that list's code for it (another case, an ISO three-letter code); undefined when the list
 * does not know it.
 */
export function listedCountry(country: string, countries: Readonly<Record<string, string>>): string | undefined {
	if (Object.prototype.hasOwnProperty.call(countries, country) || Object.values(countries).includes(country)) return country;
	const key = countryKey(country, countries);
	return key !== undefined && Object.prototype.hasOwnProperty.call(countries, key) ? key : undefined;
}

/** Languages an HR export may name countries in; a name in one of them is suggested, never taken. */
const SUGGESTION_LANGUAGES = ['de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'tr'];

/**
 * Each listed country's names in those languages, built once per list: looked up name by name,
 * a roster whose country column was read wrong cost some 10 ms a row (10,000 rows: 100 s of Preview).
 */
const otherLanguageNames = new WeakMap<object, Map<string, string>>();

function namesInOtherLanguages(countries: Readonly<Record<string, string>>): Map<string, string> {
	let byName = otherLanguageNames.get(countries);
	if (byName === undefined) {
		byName = new Map();
		for (const language of SUGGESTION_LANGUAGES) {
			const names = new Intl.DisplayNames([language], { type: 'region' });
			for (const code of Object.keys(countries)) {
				const name = /^[A-Z]{2}$/.test(code) ? names.of(code)?.normalize('NFC').toLowerCase() : undefined;
				// The first language that names it wins, as the search in language order did.
				if (name !== undefined && !byName.has(name)) byName.set(name, code);
			}
		}
		otherLanguageNames.set(countries, byName);
	}
	return byName;
}

/** The listed code whose name in another language is `country` ("Deutschland": DE), if any. */
export function countryInOtherLanguage(country: string, countries: Readonly<Record<string, string>>): string | undefined {
	return namesInOtherLanguages(countries).get(country.normalize('NFC').trim().toLowerCase());
}

/** The time zone as the service lists it, whatever its case; undefined when the list does not know it. */
export function listedTimeZone(timeZone: string, timeZones: Readonly<Record<string, string>>): string | undefined {
	if (Object.prototype.hasOwnProperty.call(timeZones, timeZone)) return timeZone;
	const lower = timeZone.toLowerCase();
	return Object.keys(timeZones).find((id) => id.toLowerCase() === lower);
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
