import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { FieldChanges } from '../../../shared/jsonPatch';
import { toBoolean, toCount, toEmail, toIsoDateTime, toNonEmptyText, toTextList, type Check } from '../../../shared/validation';
import { USER_PRIVILEGES, USER_REQUIRED_FIELDS, type UserWrite } from '../../../shared/wire';
import { deviceLocator } from '../../../shared/descriptions';
import { keyValueCollection, keyValueMap } from '../common.descriptions';
import { additionalFields, readFields, requiredValues, type FieldSpecs } from '../writeFields';

function toPassword(value: unknown): Check<string> {
	// Not trimmed: spaces may belong to the password.
	return typeof value === 'string' && value !== '' ? { ok: true, value } : { ok: false, problem: 'must be a non-empty text' };
}

/**
 * Epoch milliseconds this small are a date in early 1970: what a spreadsheet's day number (45747 for
 * 2025-03-31) or epoch seconds become when read as milliseconds. As an expiry it locks the person
 * out; no account starts or ends then.
 */
const EARLIEST_ACCESS_DATE_MS = Date.UTC(1971, 0, 1);

function toAccessDate(value: unknown): Check<string> {
	if (typeof value === 'number' && Math.abs(value) < EARLIEST_ACCESS_DATE_MS) {
		return { ok: false, problem: `is a number too small for a date in milliseconds (got ${value}): a spreadsheet day number or seconds? Give an ISO 8601 date such as 2025-03-31` };
	}
	return toIsoDateTime(value);
}

export const USER_FIELDS: FieldSpecs<UserWrite> = {
	name: { label: 'Name', check: toNonEmptyText },
	email: { label: 'Email', check: toEmail },
	country: { label: 'Country', check: toNonEmptyText },
	timeZone: { label: 'Time Zone', check: toNonEmptyText },
	description: { label: 'Description', check: toNonEmptyText },
	message: { label: 'Message', check: toNonEmptyText },
	disabled: { label: 'Disabled', check: toBoolean },
	disabledMessage: { label: 'Disabled Message', check: toNonEmptyText },
	tags: { label: 'Tags', check: (value) => ({ ok: true, value: keyValueMap(value) }) },
	privileges: { label: 'Privileges', check: toTextList },
	group: { label: 'Group', check: toNonEmptyText },
	deviceId: { label: 'Device', check: toNonEmptyText },
	adminDevices: { label: 'Admin Devices', check: toCount },
	from: { label: 'From', check: toAccessDate },
	expires: { label: 'Expires', check: toAccessDate },
	password: { label: 'Password', check: toPassword },
};

/** On the wire a user's `group` is the group's NAME (the vendor's examples: "Admins"), not its id. */
const userGroupPicker: INodeProperties = {
	displayName: 'Group',
	name: 'group',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description: 'The group the user belongs to',
	modes: [
		{ displayName: 'From List', name: 'list', type: 'list', typeOptions: { searchListMethod: 'searchGroupNames', searchable: true } },
		{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. Admins' },
	],
};

const requiredFieldProperties: INodeProperties[] = [
	{ displayName: 'Name', name: 'name', type: 'string', default: '', description: "The user's full name" },
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'The e-mail address the user signs in with',
	},
	{
		displayName: 'Country Name or ID',
		name: 'country',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getCountries' },
		default: '',
		description:
			'ISO 3166-1 alpha-2 code. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Time Zone Name or ID',
		name: 'timeZone',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getTimeZones' },
		default: '',
		description:
			'IANA time zone, e.g. Europe/London. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

const optionalFieldProperties: INodeProperties[] = [
	{ displayName: 'Admin Devices', name: 'adminDevices', type: 'number', typeOptions: { minValue: 0 }, default: 0, description: 'How many devices the user may administer' },
	{ displayName: 'Description', name: 'description', type: 'string', default: '' },
	{ ...deviceLocator, required: false, description: 'The device linked to the user' },
	{ displayName: 'Disabled', name: 'disabled', type: 'boolean', default: false, description: 'Whether the user is locked out' },
	{ displayName: 'Disabled Message', name: 'disabledMessage', type: 'string', default: '', description: 'What a disabled user sees on signing in' },
	{ displayName: 'Expires', name: 'expires', type: 'dateTime', default: '', description: 'When the account stops working' },
	{ displayName: 'From', name: 'from', type: 'dateTime', default: '', description: 'When the account starts working' },
	userGroupPicker,
	{ displayName: 'Message', name: 'message', type: 'string', default: '', description: 'A message shown to the user' },
	{
		displayName: 'Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: 'Write-only: the API never returns it, and the node never outputs it',
	},
	{
		displayName: 'Privileges',
		name: 'privileges',
		type: 'multiOptions',
		// The values the service's user examples carry; others can still come from an expression.
		options: USER_PRIVILEGES.map((privilege) => ({ name: privilege.charAt(0).toUpperCase() + privilege.slice(1), value: privilege })),
		default: [],
		description: 'What the user may do',
	},
	keyValueCollection('tags', 'Tags', 'Free-form key/value labels of the user'),
];

/** Name, e-mail, country and time zone as the top-level required parameters of create, replace and upsert. */
export const requiredUserProperties: INodeProperties[] = requiredFieldProperties.map((property) => ({ ...property, required: true }));

export const userAdditionalFields = additionalFields(optionalFieldProperties);

export const userUpdateFieldOptions: INodeProperties[] = [...requiredFieldProperties, ...optionalFieldProperties].sort(
	(a, b) => a.displayName.localeCompare(b.displayName),
);

/** The required parameters and Additional Fields of one item, checked; empty optional fields are cleared. */
export function readUser(context: IExecuteFunctions, itemIndex: number): FieldChanges<UserWrite> {
	const required = readFields(context, itemIndex, requiredValues(context, itemIndex, USER_REQUIRED_FIELDS), USER_FIELDS, USER_REQUIRED_FIELDS);
	const additionalFields = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const optional = readFields(context, itemIndex, additionalFields, USER_FIELDS, USER_REQUIRED_FIELDS);
	return { set: { ...required.set, ...optional.set }, cleared: optional.cleared };
}
