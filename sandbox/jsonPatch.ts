/**
 * RFC 6902 JSON Patch — add, remove, replace, move, copy and test, as the user PATCH page lists
 * them — over RFC 6901 JSON Pointers. A patch applies to a copy and all-or-nothing: a failing
 * operation (a failed `test` included) leaves the stored resource as it was.
 *
 * What one patch may cost is bounded: 40 self-`copy` operations in a 2 kB body double the document
 * 40 times, which ran `npm run sandbox` out of memory (issue 24).
 */
import { JSON_PATCH_OPS, type JsonPatchOperation } from './vendorApi';
import { hasOwn, isRecord } from './validation';

export class JsonPatchError extends Error {}

export const MAX_PATCH_OPERATIONS = 1000;
/**
 * What add, replace and copy may put into the document over a whole patch, counted as JSON text.
 * Counting what is added, not the document, keeps the check's own cost bounded by this budget.
 */
export const MAX_PATCH_ADDED_BYTES = 1024 * 1024;

type Container = Record<string, unknown> | unknown[];

export function applyJsonPatch<T>(document: T, patch: unknown): T {
	const operations = parsePatch(patch);
	let result: unknown = structuredClone(document);
	const budget = { bytesLeft: MAX_PATCH_ADDED_BYTES };
	operations.forEach((operation, index) => {
		try {
			result = applyOperation(result, operation, budget);
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
	if (patch.length > MAX_PATCH_OPERATIONS) {
		throw new JsonPatchError(`A patch may have at most ${MAX_PATCH_OPERATIONS} operations; this one has ${patch.length}.`);
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

interface Budget {
	bytesLeft: number;
}

function applyOperation(document: unknown, operation: JsonPatchOperation, budget: Budget): unknown {
	switch (operation.op) {
		case 'add':
		case 'replace':
			return edit(document, operation.path, { kind: operation.op, value: added(operation.value, budget) });
		case 'remove':
			return edit(document, operation.path, { kind: 'remove' });
		case 'test':
			if (!sameJson(valueAt(document, operation.path), operation.value)) throw new Error('the test failed: the value differs.');
			return document;
		case 'copy':
			return edit(document, operation.path, { kind: 'add', value: added(valueAt(document, operation.from), budget) });
		case 'move': {
			if (operation.path.startsWith(`${operation.from}/`)) throw new Error('a value cannot be moved into itself.');
			const value = valueAt(document, operation.from);
			return edit(edit(document, operation.from, { kind: 'remove' }), operation.path, { kind: 'add', value });
		}
	}
}

/** A copy of a value the patch puts into the document, charged to the patch's budget before it is made. */
function added(value: unknown, budget: Budget): unknown {
	budget.bytesLeft -= jsonSizeUpTo(value, budget.bytesLeft + 1);
	if (budget.bytesLeft < 0) {
		throw new JsonPatchError(`a patch may add at most ${MAX_PATCH_ADDED_BYTES} bytes of JSON (1 MiB) to the resource, and this one adds more.`);
	}
	return structuredClone(value);
}

/** The length of the value as JSON text, about; counting stops once it reaches `limit`. */
function jsonSizeUpTo(value: unknown, limit: number): number {
	let size = 0;
	const pending: unknown[] = [value];
	while (pending.length > 0 && size < limit) {
		const next = pending.pop();
		if (Array.isArray(next)) {
			size += 2 + next.length;
			for (const entry of next) pending.push(entry);
		} else if (isRecord(next)) {
			for (const [key, member] of Object.entries(next)) {
				size += key.length + 4;
				pending.push(member);
			}
			size += 2;
		} else {
			size += typeof next === 'string' ? next.length + 2 : String(next).length;
		}
	}
	return size;
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
