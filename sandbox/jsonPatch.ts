/**
 * RFC 6902 JSON Patch — add, remove, replace, move, copy and test, as the user PATCH page lists
 * them — over RFC 6901 JSON Pointers. A patch applies to a copy and all-or-nothing: a failing
 * operation (a failed `test` included) leaves the stored resource as it was.
 */
import { JSON_PATCH_OPS, type JsonPatchOperation } from './vendorApi';
import { hasOwn, isRecord } from './validation';

export class JsonPatchError extends Error {}

type Container = Record<string, unknown> | unknown[];

export function applyJsonPatch<T>(document: T, patch: unknown): T {
	const operations = parsePatch(patch);
	let result: unknown = structuredClone(document);
	operations.forEach((operation, index) => {
		try {
			result = applyOperation(result, operation);
		} catch (error) {
			throw new JsonPatchError(`Patch operation ${index} (${operation.op} ${operation.path}): ${error.message}`);
		}
	});
	return result as T;
}

function parsePatch(patch: unknown): JsonPatchOperation[] {
	if (!Array.isArray(patch)) {
		throw new JsonPatchError('The body must be a JSON Patch array (RFC 6902), e.g. [{"op":"replace","path":"/name","value":"New"}].');
	}
	return patch.map((operation, index) => parseOperation(operation, index));
}

function parseOperation(operation: unknown, index: number): JsonPatchOperation {
	const where = `Patch operation ${index}`;
	if (!isRecord(operation)) throw new JsonPatchError(`${where} must be an object.`);
	const { op, path } = operation;
	if (typeof op !== 'string' || !(JSON_PATCH_OPS as readonly string[]).includes(op)) {
		throw new JsonPatchError(`${where}: op must be one of ${JSON_PATCH_OPS.join(', ')}.`);
	}
	if (typeof path !== 'string') throw new JsonPatchError(`${where}: path must be a string.`);
	if (op === 'remove') return { op, path };
	if (op === 'move' || op === 'copy') {
		if (typeof operation.from !== 'string') throw new JsonPatchError(`${where}: ${op} needs from, a JSON Pointer.`);
		return { op, from: operation.from, path };
	}
	if (!Object.prototype.hasOwnProperty.call(operation, 'value')) {
		throw new JsonPatchError(`${where}: ${op} needs a value.`);
	}
	return { op: op as 'add' | 'replace' | 'test', path, value: operation.value };
}

type Edit = { kind: 'add' | 'replace'; value: unknown } | { kind: 'remove' };

function applyOperation(document: unknown, operation: JsonPatchOperation): unknown {
	switch (operation.op) {
		case 'add':
		case 'replace':
			return edit(document, operation.path, { kind: operation.op, value: structuredClone(operation.value) });
		case 'remove':
			return edit(document, operation.path, { kind: 'remove' });
		case 'test':
			if (!sameJson(valueAt(document, operation.path), operation.value)) throw new Error('the test failed: the value differs.');
			return document;
		case 'copy':
			return edit(document, operation.path, { kind: 'add', value: structuredClone(valueAt(document, operation.from)) });
		case 'move': {
			if (operation.path.startsWith(`${operation.from}/`)) throw new Error('a value cannot be moved into itself.');
			const value = valueAt(document, operation.from);
			return edit(edit(document, operation.from, { kind: 'remove' }), operation.path, { kind: 'add', value });
		}
	}
}

function valueAt(document: unknown, path: string): unknown {
	const tokens = parsePointer(path);
	if (tokens.length === 0) return document;
	const parent = resolve(document, tokens.slice(0, -1));
	const last = tokens[tokens.length - 1];
	if (Array.isArray(parent)) return parent[arrayIndex(last, parent.length)];
	if (!hasOwn(parent, last)) throw new Error(`no member "${last}".`);
	return parent[last];
}

function edit(document: unknown, path: string, change: Edit): unknown {
	const tokens = parsePointer(path);
	if (tokens.length === 0) {
		if (change.kind === 'remove') throw new Error('the whole document cannot be removed.');
		return change.value;
	}
	const parent = resolve(document, tokens.slice(0, -1));
	const last = tokens[tokens.length - 1];
	if (Array.isArray(parent)) editArray(parent, last, change);
	else editObject(parent, last, change);
	return document;
}

function editArray(array: unknown[], token: string, change: Edit): void {
	if (change.kind === 'add') {
		const index = token === '-' ? array.length : arrayIndex(token, array.length + 1);
		array.splice(index, 0, change.value);
	} else if (change.kind === 'remove') {
		array.splice(arrayIndex(token, array.length), 1);
	} else {
		array[arrayIndex(token, array.length)] = change.value;
	}
}

function editObject(object: Record<string, unknown>, key: string, change: Edit): void {
	if (change.kind !== 'add' && !hasOwn(object, key)) throw new Error(`no member "${key}".`);
	if (change.kind === 'remove') {
		delete object[key];
		return;
	}
	// defineProperty, not assignment: a key like "__proto__" must become data, not a prototype.
	Object.defineProperty(object, key, {
		value: change.value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

function resolve(document: unknown, tokens: string[]): Container {
	let current = document;
	for (const token of tokens) {
		if (Array.isArray(current)) current = current[arrayIndex(token, current.length)];
		else if (isRecord(current) && hasOwn(current, token)) current = current[token];
		else throw new Error(`the path does not exist (at "${token}").`);
	}
	if (!Array.isArray(current) && !isRecord(current)) throw new Error('the target is not an object or array.');
	return current;
}

function parsePointer(path: string): string[] {
	if (path === '') return [];
	if (!path.startsWith('/')) throw new JsonPatchError(`"${path}" is not a JSON Pointer: it must start with "/".`);
	return path
		.slice(1)
		.split('/')
		.map((token) => {
			if (/~[^01]|~$/.test(token)) throw new JsonPatchError(`"${path}" has an invalid ~ escape.`);
			return token.replace(/~1/g, '/').replace(/~0/g, '~');
		});
}

/** RFC 6901: digits without leading zeros; `limit` is exclusive. */
function arrayIndex(token: string, limit: number): number {
	if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`"${token}" is not an array index.`);
	const index = Number(token);
	if (index >= limit) throw new Error(`index ${index} is out of bounds.`);
	return index;
}

/** RFC 6902 §4.6 equality of JSON values: members in any order, array entries in order. */
function sameJson(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((entry, i) => sameJson(entry, b[i]));
	if (isRecord(a) && isRecord(b)) {
		const keys = Object.keys(a);
		return keys.length === Object.keys(b).length && keys.every((key) => hasOwn(b, key) && sameJson(a[key], b[key]));
	}
	return a === b;
}
