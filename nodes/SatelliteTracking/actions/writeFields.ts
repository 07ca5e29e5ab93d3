import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { buildJsonPatch, isUnset, parseJsonPatch, type FieldChanges } from '../../shared/jsonPatch';
import { checked, getParameter, invalidInput } from '../../shared/parameters';
import type { Check } from '../../shared/validation';
import type { JsonPatchOperation } from '../../shared/wire';
import { collection } from '../../shared/descriptions';

/** How one writable field of a group or user is labelled in errors and checked. */
export interface FieldSpec {
	label: string;
	check: (value: unknown) => Check<unknown>;
}

/** Keyed by wire field name, so a field renamed in wire.ts fails to compile here. */
export type FieldSpecs<Resource extends object> = Record<keyof Resource & string, FieldSpec>;

/**
 * Checks the fields present in `values` (a collection, or the top-level required parameters).
 * An optional field left empty is reported as cleared; a required one left empty is an error
 * naming the item and the field.
 */
export function readFields<Resource extends object>(
	context: IExecuteFunctions,
	itemIndex: number,
	values: IDataObject,
	specs: FieldSpecs<Resource>,
	required: readonly string[],
): FieldChanges<Resource> {
	const changes: FieldChanges<Resource> = { set: {}, cleared: [] };
	for (const [name, entered] of Object.entries(values)) {
		const raw = pickedValue(entered);
		const field = name as keyof Resource & string;
		const spec = specs[field];
		// A saved workflow may still carry an option a later version dropped.
		if (!spec) continue;
		const optional = !required.includes(field);
		const value = optional && isUnset(raw) ? raw : checked(context, itemIndex, spec.label, spec.check(raw));
		if (optional && isUnset(value)) changes.cleared.push(field);
		else changes.set[field] = value as Resource[typeof field];
	}
	return changes;
}

/**
 * A picker (resource locator) inside a collection arrives whole, `{ mode, value }`; the wire wants
 * its value. A plain value passes as it is: fields saved before they became pickers were texts.
 */
function pickedValue(value: unknown): unknown {
	const isPick = typeof value === 'object' && value !== null && !Array.isArray(value) && 'mode' in value && 'value' in value;
	return isPick ? (value as { value: unknown }).value : value;
}

/** The top-level required parameters of create, replace and upsert, read as one collection. */
export function requiredValues(context: IExecuteFunctions, itemIndex: number, required: readonly string[]): IDataObject {
	return Object.fromEntries(required.map((name) => [name, getParameter(context, name, itemIndex, '')]));
}

export function additionalFields(options: INodeProperties[]): INodeProperties {
	return collection('additionalFields', 'Additional Fields', 'Add Field', options);
}

export function updateProperties(fieldOptions: INodeProperties[]): INodeProperties[] {
	return [
		{
			displayName: 'Define Changes',
			name: 'patchMode',
			type: 'options',
			noDataExpression: true,
			default: 'fields',
			options: [
				{ name: 'Using Fields Below', value: 'fields', description: 'Set or clear fields; the node writes the JSON Patch' },
				{ name: 'As JSON Patch (Expert)', value: 'jsonPatch', description: 'Send an RFC 6902 JSON Patch written by hand' },
			],
		},
		collection('updateFields', 'Update Fields', 'Add Field', fieldOptions, {
			description: 'Fields to change; others keep their value. An optional field left empty is cleared.',
			displayOptions: { show: { patchMode: ['fields'] } },
		}),
		{
			displayName: 'JSON Patch',
			name: 'jsonPatch',
			type: 'json',
			// Empty: a pre-filled patch would be sent unedited by Execute step and rename the record.
			default: '',
			placeholder: '[{ "op": "replace", "path": "/name", "value": "New name" }]',
			required: true,
			description:
				'An array of RFC 6902 operations: op add, remove, replace, move, copy or test; path a JSON Pointer such as /name; value for add, replace and test; from for move and copy',
			displayOptions: { show: { patchMode: ['jsonPatch'] } },
		},
	];
}

/**
 * The PATCH body of an update: built from Update Fields, or an expert's patch checked before sending.
 * Fields in `alwaysPresent` (by default the required ones) are replaced, others added: RFC 6902
 * `replace` fails on an absent member.
 */
export function getUpdatePatch<Resource extends object>(
	context: IExecuteFunctions,
	itemIndex: number,
	specs: FieldSpecs<Resource>,
	required: readonly string[],
	alwaysPresent: readonly string[] = required,
): JsonPatchOperation[] {
	if (context.getNodeParameter('patchMode', itemIndex, 'fields') === 'jsonPatch') {
		return checked(context, itemIndex, 'JSON Patch', parseJsonPatch(context.getNodeParameter('jsonPatch', itemIndex)));
	}
	const updateFields = context.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const patch = buildJsonPatch(readFields(context, itemIndex, updateFields, specs, required), alwaysPresent);
	if (patch.length === 0) throw invalidInput(context, itemIndex, 'Update Fields', 'is empty: add at least one field to change');
	return patch;
}
