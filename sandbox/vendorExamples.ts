/**
 * The vendor's own example bodies (test/contract/vendor/, copied byte for byte from its REST docs)
 * as the sandbox's reference data: its countries and time zones start from the vendor's tables, and
 * every value a vendor example holds is one the sandbox accepts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const VENDOR_EXAMPLES_DIR = join(__dirname, '..', 'test', 'contract', 'vendor');

export function readVendorExample(file: string): unknown {
	return JSON.parse(readFileSync(join(VENDOR_EXAMPLES_DIR, file), 'utf8'));
}

export const vendorCountries = (): Record<string, string> =>
	(readVendorExample('get__api_users_countries.example-successful-response.json') as { countries: Record<string, string> }).countries;

export const vendorTimeZones = (): Record<string, string> =>
	(readVendorExample('get__api_users_timezones.example-successful-response.json') as { timeZones: Record<string, string> }).timeZones;

/** Every user the examples show or send: the users list, single users, and the write requests. */
function exampleUsers(): Array<Record<string, unknown>> {
	const users: Array<Record<string, unknown>> = [];
	for (const file of readdirSync(VENDOR_EXAMPLES_DIR)) {
		if (!/^(get|post|put|patch)__api_users(_userid)?\./.test(file)) continue;
		const body = readVendorExample(file);
		if (Array.isArray(body)) continue;
		const record = body as Record<string, unknown>;
		if (Array.isArray(record.users)) users.push(...(record.users as Array<Record<string, unknown>>));
		else if (typeof record.email === 'string') users.push(record);
	}
	return users;
}

/** The distinct texts the user examples hold in one field, e.g. country: USA, Colombia. */
export function exampleUserTexts(field: string): string[] {
	const values = exampleUsers()
		.map((user) => user[field])
		.filter((value): value is string => typeof value === 'string');
	return [...new Set(values)];
}
