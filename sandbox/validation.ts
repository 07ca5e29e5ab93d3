/**
 * Checks of request bodies, field by field, against the vendor's documented types (vendorApi.ts). A
 * value that appears in one of the vendor's own examples is always accepted.
 */
import {
	COMMAND_FORMATS,
	LOCATION_NUMBER_FIELDS,
	LOCATION_TEXT_LIST_FIELDS,
	USER_REQUIRED_FIELDS,
	type AlertsRequest,
	type DateRange,
	type GroupWrite,
	type Location,
	type SendCommandRequest,
	type UserWrite,
} from './vendorApi';
import { badRequest } from './apiError';
import { isCountry, isTimeZone } from './reference';

interface FieldRule {
	expected: string;
	accepts(value: unknown): boolean;
}

const rule = (expected: string, accepts: (value: unknown) => boolean): FieldRule => ({ expected, accepts });

export const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * Lookups by a name the caller chose must see own properties only: `rules["constructor"]` is
 * Object's constructor, which answered a 500 instead of "Unknown field" (issue 24).
 */
export const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);
const isText = (value: unknown): value is string => typeof value === 'string';
const isIsoDate = (value: unknown) => isText(value) && !Number.isNaN(Date.parse(value));

const text = rule('a string', isText);
const nonEmptyText = rule('a non-empty string', (v) => isText(v) && v.trim() !== '');
const finiteNumber = rule('a number', (v) => typeof v === 'number' && Number.isFinite(v));
const numberBetween = (min: number, max: number) =>
	rule(`a number from ${min} to ${max}`, (v) => finiteNumber.accepts(v) && (v as number) >= min && (v as number) <= max);
const count = rule('a whole number of 0 or more', (v) => Number.isInteger(v) && (v as number) >= 0);
const boolean = rule('true or false', (v) => typeof v === 'boolean');
const isoDate = rule('an ISO 8601 date-time, e.g. 2024-05-01T12:00:00Z', isIsoDate);
const textList = rule('an array of strings', (v) => Array.isArray(v) && v.every(isText));
const booleanList = rule('an array of booleans', (v) => Array.isArray(v) && v.every((x) => typeof x === 'boolean'));
const objectList = rule('an array of objects', (v) => Array.isArray(v) && v.every(isRecord));
const textMap = rule('an object whose values are strings', (v) => isRecord(v) && Object.values(v).every(isText));
const email = rule('an e-mail address', (v) => isText(v) && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v));
const country = rule(
	'a code or a name listed by GET /api/users/countries, e.g. "US" or "United States"',
	(v) => isText(v) && isCountry(v),
);
const timeZone = rule('an IANA time zone id, e.g. "Europe/London"', (v) => isText(v) && v !== '' && isTimeZone(v));

function sameRule<K extends string>(keys: readonly K[], fieldRule: FieldRule): Record<K, FieldRule> {
	return Object.fromEntries(keys.map((key) => [key, fieldRule])) as Record<K, FieldRule>;
}

const LOCATION_RULES: Record<keyof Location, FieldRule> = {
	dateTime: isoDate,
	latitude: numberBetween(-90, 90),
	longitude: numberBetween(-180, 180),
	...sameRule(LOCATION_NUMBER_FIELDS, finiteNumber),
	...sameRule(LOCATION_TEXT_LIST_FIELDS, textList),
	hasCriticalAlert: boolean,
	attributes: textMap,
	accessoriesAttributes: objectList,
	inputs: booleanList,
	outputs: booleanList,
};
const LOCATION_REQUIRED: Array<keyof Location> = ['dateTime', 'latitude', 'longitude'];

const GROUP_RULES: Record<keyof GroupWrite, FieldRule> = {
	name: nonEmptyText,
	description: text,
	devices: textList,
};
const GROUP_REQUIRED: Array<keyof GroupWrite> = ['name'];
const GROUP_READ_ONLY = ['id', 'creation', 'lastModified'];

const USER_RULES: Record<keyof UserWrite, FieldRule> = {
	name: nonEmptyText,
	email,
	country,
	timeZone,
	description: text,
	message: text,
	disabled: boolean,
	disabledMessage: text,
	tags: textMap,
	privileges: textList,
	group: text,
	deviceId: text,
	adminDevices: count,
	from: isoDate,
	expires: isoDate,
	password: text,
};
const USER_READ_ONLY = ['id', 'creation', 'modification', 'lastLogin'];

interface Shape {
	what: string;
	rules: Record<string, FieldRule>;
	required: readonly string[];
	/** Server-managed fields a client may echo back (e.g. a fetched resource sent to PUT); ignored. */
	readOnly?: readonly string[];
}

/** Returns only the known, non-null fields; null stands for "not set" on optional fields. */
function checkFields<T>(value: unknown, shape: Shape): T {
	if (!isRecord(value)) throw badRequest(`The ${shape.what} must be a JSON object.`);
	const checked: Record<string, unknown> = {};
	for (const [field, fieldValue] of Object.entries(value)) {
		if (shape.readOnly?.includes(field)) continue;
		const fieldRule = hasOwn(shape.rules, field) ? shape.rules[field] : undefined;
		if (!fieldRule) throw badRequest(`Unknown field "${field}" in the ${shape.what}.`);
		if (fieldValue === null && !shape.required.includes(field)) continue;
		if (!fieldRule.accepts(fieldValue)) throw badRequest(`${field} must be ${fieldRule.expected}.`);
		checked[field] = fieldValue;
	}
	const missing = shape.required.filter((field) => checked[field] === undefined);
	if (missing.length > 0) throw badRequest(`Missing required field(s) in the ${shape.what}: ${missing.join(', ')}.`);
	return checked as T;
}

export function checkLocation(value: unknown): Location {
	return checkFields<Location>(value, { what: 'location', rules: LOCATION_RULES, required: LOCATION_REQUIRED });
}

export function checkGroup(value: unknown): GroupWrite {
	return checkFields<GroupWrite>(value, {
		what: 'group',
		rules: GROUP_RULES,
		required: GROUP_REQUIRED,
		readOnly: GROUP_READ_ONLY,
	});
}

export function checkUser(value: unknown): UserWrite {
	return checkFields<UserWrite>(value, {
		what: 'user',
		rules: USER_RULES,
		required: USER_REQUIRED_FIELDS,
		readOnly: USER_READ_ONLY,
	});
}

export function requireBody(body: unknown, expected: string): Record<string, unknown> {
	if (!isRecord(body)) throw badRequest(`The request body must be a JSON object: ${expected}.`);
	return body;
}

export interface TimeRange {
	from: number;
	to: number;
}

export function checkRange(body: Record<string, unknown>): TimeRange {
	const range: Partial<Record<keyof DateRange, unknown>> = body;
	const from = checkRangeEnd('from', range.from);
	const to = checkRangeEnd('to', range.to);
	if (from > to) throw badRequest('from must not be after to.');
	return { from, to };
}

function checkRangeEnd(name: keyof DateRange, value: unknown): number {
	if (value === undefined || value === null) throw badRequest(`${name} is required: ${isoDate.expected}.`);
	if (!isIsoDate(value)) throw badRequest(`${name} must be ${isoDate.expected}.`);
	return Date.parse(value as string);
}

export function checkAlertName(body: Partial<Record<keyof AlertsRequest, unknown>>): string | undefined {
	const { alertName } = body;
	if (alertName === undefined || alertName === null || alertName === '') return undefined;
	if (!isText(alertName)) throw badRequest('alertName must be a string.');
	return alertName;
}

const COMMAND_RULES: Record<keyof SendCommandRequest, FieldRule> = {
	command: nonEmptyText,
	format: rule(`one of ${COMMAND_FORMATS.join(', ')}`, (v) => (COMMAND_FORMATS as readonly unknown[]).includes(v)),
	sms: boolean,
};

const HEX_BYTES = /^[0-9a-fA-F]{2}([ -]?[0-9a-fA-F]{2})*$/;

const COMMAND_CONTENT: Record<string, FieldRule> = {
	// The sendCommand page writes hex as "0A 1B 2C"; "0A-1B-2C" and "0A1B2C" are the other usual forms.
	Hex: rule('hexadecimal bytes, e.g. "0A 1B", "0A-1B" or "0A1B"', (v) => isText(v) && HEX_BYTES.test(v.trim())),
	Base64: rule('Base64, e.g. "AQID"', (v) => isText(v) && v.trim().length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(v.trim())),
};

export function checkCommand(body: unknown): SendCommandRequest {
	const command = checkFields<SendCommandRequest>(body, {
		what: 'command request',
		rules: COMMAND_RULES,
		required: ['command'],
	});
	const content = command.format && COMMAND_CONTENT[command.format];
	if (content && !content.accepts(command.command)) {
		throw badRequest(`command must be ${content.expected} when format is ${command.format}.`);
	}
	return command;
}
