/**
 * JSON Patch (RFC 6902) for the API's PATCH endpoints: built from the fields an update sets or
 * clears, diffed from two versions of a resource, or checked when an expert writes it by hand.
 * Pure: plain values in, plain values out.
 */
import { z } from 'zod';

import { parseServiceTime, type Check } from './validation';
import { JSON_PATCH_OPS, type JsonPatchOperation } from './wire';

/** What an update asks for: fields to set, and optional fields to clear. */
export interface FieldChanges<Resource extends object = Record<string, unknown>> {
	set: Partial<Resource>;
	cleared: Array<keyof Resource & string>;
}

/** RFC 6901: `~` and `/` inside a member name are escaped. */
export function pointerTo(field: string): string {
	return `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The member name a top-level pointer names: pointerTo undone. */
export function fieldOf(pointer: string): string {
	return pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * `replace` for a field the resource is known to have, `add` for any other (RFC 6902 `replace`
 * fails on an absent member, while `add` on a present one replaces it), `remove` for a cleared one.
 */
export function buildJsonPatch<Resource extends object>(
	changes: FieldChanges<Resource>,
	knownFields: readonly string[],
): JsonPatchOperation[] {
	const set = Object.entries(changes.set).map(([field, value]): JsonPatchOperation => ({
		op: knownFields.includes(field) ? 'replace' : 'add',
		path: pointerTo(field),
		value,
	}));
	const removed = changes.cleared.map((field): JsonPatchOperation => ({ op: 'remove', path: pointerTo(field) }));
	return [...set, ...removed];
}

/** null, '', [] and {} all mean "not set": the API reads an unset optional field back as any of them. */
export function isUnset(value: unknown): boolean {
	if (value === undefined || value === null || value === '') return true;
	if (Array.isArray(value)) return value.length === 0;
	return isPlainObject(value) && Object.keys(value).length === 0;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** Deep equality, where two date-times are equal at the same instant whatever their precision. */
export function isSameValue(a: unknown, b: unknown): boolean {
	if (isUnset(a) && isUnset(b)) return true;
	if (typeof a === 'string' && typeof b === 'string' && ISO_DATE_TIME.test(a) && ISO_DATE_TIME.test(b)) {
		// Read as the service reads them (no zone: UTC), not in the n8n host's zone: there two
		// different times can fall on one instant (a skipped DST hour).
		const instantA = parseServiceTime(a);
		if (!Number.isNaN(instantA) && instantA === parseServiceTime(b)) return true;
	}
	if (Array.isArray(a) && Array.isArray(b)) {
		return a.length === b.length && a.every((entry, index) => isSameValue(entry, b[index]));
	}
	if (isPlainObject(a) && isPlainObject(b)) {
		const keys = Object.keys(a);
		return keys.length === Object.keys(b).length && keys.every((key) => key in b && isSameValue(a[key], b[key]));
	}
	return a === b;
}

/**
 * The patch that turns `current` into `desired` for the fields `desired` names, and only those
 * that differ; an unset value in `desired` clears the field.
 */
export function diffToJsonPatch(current: object, desired: object): JsonPatchOperation[] {
	const before = current as Record<string, unknown>;
	const changes: FieldChanges = { set: {}, cleared: [] };
	for (const [field, value] of Object.entries(desired)) {
		if (isSameValue(before[field], value)) continue;
		if (isUnset(value)) changes.cleared.push(field);
		else changes.set[field] = value;
	}
	return buildJsonPatch(changes, Object.keys(before));
}

// --- a patch written by hand --------------------------------------------------------------------

const jsonPointer = z
	.string({ invalid_type_error: 'must be a text' })
	.refine((path) => path.startsWith('/'), 'must be a JSON Pointer starting with "/"')
	.refine((path) => !/~[^01]|~$/.test(path), 'has a "~" that is not "~0" or "~1"');

const NEEDS_VALUE: ReadonlyArray<(typeof JSON_PATCH_OPS)[number]> = ['add', 'replace', 'test'];
const NEEDS_FROM: ReadonlyArray<(typeof JSON_PATCH_OPS)[number]> = ['move', 'copy'];

const operationSchema = z
	.object({
		op: z.enum(JSON_PATCH_OPS, { errorMap: () => ({ message: `must be one of ${JSON_PATCH_OPS.join(', ')}` }) }),
		path: jsonPointer,
		value: z.unknown(),
		from: jsonPointer.optional(),
	})
	.superRefine((operation, context) => {
		const issue = (field: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
		// zod keeps an absent key absent, so this tells a missing value from a null one.
		if (NEEDS_VALUE.includes(operation.op) && !('value' in operation)) issue('value', `is required for "${operation.op}"`);
		if (NEEDS_FROM.includes(operation.op) && operation.from === undefined) issue('from', `is required for "${operation.op}"`);
		// RFC 6902 4.4: a value cannot be moved into one of its own children.
		if (operation.op === 'move' && operation.from !== undefined && operation.path.startsWith(`${operation.from}/`)) {
			issue('path', `cannot lie inside from ("${operation.from}"): a value cannot move into itself`);
		}
	});

/** The members the operation uses, in RFC 6902's order; others (a stray value on remove) are dropped. */
function toOperation({ op, path, value, from }: z.infer<typeof operationSchema>): JsonPatchOperation {
	if (op === 'remove') return { op, path };
	if (op === 'move' || op === 'copy') return { op, from: from!, path };
	return { op, path, value };
}

const patchSchema = z.array(operationSchema, { invalid_type_error: 'must be an array of operations' }).min(1, 'has no operations');

function describeIssue(issue: z.ZodIssue): string {
	const [index, ...field] = issue.path;
	if (index === undefined) return issue.message;
	if (field.length === 0) return `operation ${index} ${issue.message === 'Required' ? 'is missing' : 'must be an object'}`;
	return `operation ${index}: ${field.join('.')} ${issue.message === 'Required' ? 'is missing' : issue.message}`;
}

/** Checks an expert's patch (an array, or its JSON text) before it is sent. */
export function parseJsonPatch(input: unknown): Check<JsonPatchOperation[]> {
	let value = input;
	if (typeof input === 'string' && input.trim() === '') {
		return { ok: false, problem: 'is empty: write the operations to send, e.g. [{ "op": "replace", "path": "/name", "value": "New name" }]' };
	}
	if (typeof input === 'string') {
		try {
			value = JSON.parse(input);
		} catch {
			return { ok: false, problem: 'is not valid JSON' };
		}
	}
	const result = patchSchema.safeParse(value);
	if (!result.success) return { ok: false, problem: result.error.issues.map(describeIssue).join('; ') };
	return { ok: true, value: result.data.map(toOperation) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
