/**
 * RFC 6902 JSON Patch, limited to the operations the API accepts (add, remove, replace), over
 * RFC 6901 JSON Pointers. A patch applies to a copy and all-or-nothing: a failing operation leaves
 * the stored resource as it was.
 */
import { JSON_PATCH_OPS, type JsonPatchOperation } from '../nodes/shared/wire';

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
	if (!Object.prototype.hasOwnProperty.call(operation, 'value')) {
		throw new JsonPatchError(`${where}: ${op} needs a value.`);
	}
	return { op: op as 'add' | 'replace', path, value: operation.value };
}

function applyOperation(document: unknown, operation: JsonPatchOperation): unknown {
	const tokens = parsePointer(operation.path);
	if (tokens.length === 0) {
		if (operation.op === 'remove') throw new Error('the whole document cannot be removed.');
		return structuredClone(operation.value);
	}
	const parent = resolve(document, tokens.slice(0, -1));
	const last = tokens[tokens.length - 1];
	if (Array.isArray(parent)) applyToArray(parent, last, operation);
	else applyToObject(parent, last, operation);
	return document;
}

function applyToArray(array: unknown[], token: string, operation: JsonPatchOperation): void {
	if (operation.op === 'add') {
		const index = token === '-' ? array.length : arrayIndex(token, array.length + 1);
		array.splice(index, 0, structuredClone(operation.value));
	} else if (operation.op === 'remove') {
		array.splice(arrayIndex(token, array.length), 1);
	} else {
		array[arrayIndex(token, array.length)] = structuredClone(operation.value);
	}
}

function applyToObject(object: Record<string, unknown>, key: string, operation: JsonPatchOperation): void {
	if (operation.op !== 'add' && !hasOwn(object, key)) throw new Error(`no member "${key}".`);
	if (operation.op === 'remove') {
		delete object[key];
		return;
	}
	// defineProperty, not assignment: a key like "__proto__" must become data, not a prototype.
	Object.defineProperty(object, key, {
		value: structuredClone(operation.value),
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

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(object: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(object, key);
}
