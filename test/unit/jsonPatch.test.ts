import { applyJsonPatch } from '../../sandbox/jsonPatch';
import { buildJsonPatch, diffToJsonPatch, isSameValue, parseJsonPatch, pointerTo, fieldOf } from '../../nodes/shared/jsonPatch';

describe('building a patch from set and cleared fields', () => {
	it('replaces fields known to exist, adds the others and removes cleared ones', () => {
		expect(buildJsonPatch<Record<string, unknown>>({ set: { name: 'N', description: 'D' }, cleared: ['message'] }, ['name'])).toEqual([
			{ op: 'replace', path: '/name', value: 'N' },
			{ op: 'add', path: '/description', value: 'D' },
			{ op: 'remove', path: '/message' },
		]);
	});
	it('escapes ~ and / in member names (RFC 6901)', () => {
		expect(pointerTo('a/b~c')).toBe('/a~1b~0c');
		expect(fieldOf(pointerTo('a/b~c~1'))).toBe('a/b~c~1');
	});
	it('keeps a falsy value to set: false and 0 are changes, not clears', () => {
		expect(buildJsonPatch({ set: { disabled: false, adminDevices: 0 }, cleared: [] }, ['disabled'])).toEqual([
			{ op: 'replace', path: '/disabled', value: false },
			{ op: 'add', path: '/adminDevices', value: 0 },
		]);
	});
});

describe('diffing two versions of a user', () => {
	const current = {
		id: 'usr-1',
		name: 'Ana',
		email: 'ana@example.com',
		description: 'ops',
		message: null,
		tags: { department: 'ops' },
		privileges: ['ViewDevices'],
		expires: '2030-01-01T00:00:00Z',
	};

	it('sends nothing when the named fields are equal', () => {
		expect(diffToJsonPatch(current, { name: 'Ana', tags: { department: 'ops' }, privileges: ['ViewDevices'] })).toEqual([]);
	});
	it('treats the same instant written with other precision as equal', () => {
		expect(diffToJsonPatch(current, { expires: '2030-01-01T00:00:00.000Z' })).toEqual([]);
		expect(isSameValue('2030-01-01T00:00:00Z', '2030-01-01T00:00:01Z')).toBe(false);
		// Without a zone, UTC: in New York 02:30 on this day does not exist and would read as 03:30.
		expect(isSameValue('2024-03-10T02:30:00', '2024-03-10T03:30:00')).toBe(false);
		expect(isSameValue('2024-03-10T02:30:00', '2024-03-10T02:30:00.000Z')).toBe(true);
	});
	it('treats null, empty text, [] and {} alike as unset', () => {
		expect(diffToJsonPatch(current, { message: '' })).toEqual([]);
		expect(diffToJsonPatch({ tags: {} }, { tags: null })).toEqual([]);
	});
	it('patches only the fields that differ, removing the ones cleared', () => {
		expect(
			diffToJsonPatch(current, {
				name: 'Ana',
				description: null,
				tags: { department: 'sales' },
				privileges: ['ViewDevices', 'SendCommands'],
				disabled: true,
			}),
		).toEqual([
			{ op: 'replace', path: '/tags', value: { department: 'sales' } },
			{ op: 'replace', path: '/privileges', value: ['ViewDevices', 'SendCommands'] },
			{ op: 'add', path: '/disabled', value: true },
			{ op: 'remove', path: '/description' },
		]);
	});
	it('produces a patch that turns the current version into the desired one', () => {
		const desired = { name: 'Ana B', description: null, tags: { a: '1' }, message: 'hi' };
		const patched = applyJsonPatch(current, diffToJsonPatch(current, desired));
		expect(patched).toMatchObject({ name: 'Ana B', tags: { a: '1' }, message: 'hi', email: 'ana@example.com' });
		expect(patched).not.toHaveProperty('description');
	});
});

describe('checking a patch written by hand', () => {
	it('accepts operations given as JSON text or as an array', () => {
		const patch = [
			{ op: 'replace', path: '/name', value: 'New' },
			{ op: 'add', path: '/tags/site', value: null },
			{ op: 'remove', path: '/description' },
		];
		expect(parseJsonPatch(JSON.stringify(patch))).toEqual({ ok: true, value: patch });
		expect(parseJsonPatch(patch)).toEqual({ ok: true, value: patch });
	});
	it('accepts move, copy and test, which the vendor\'s user PATCH page lists', () => {
		const patch = [
			{ op: 'test', path: '/name', value: 'Old' },
			{ op: 'move', from: '/description', path: '/message' },
			{ op: 'copy', from: '/tags/site', path: '/tags/home' },
			{ op: 'test', path: '/disabled', value: null },
			{ op: 'move', from: '/tags', path: '/tags' },
		];
		expect(parseJsonPatch(JSON.stringify(patch))).toEqual({ ok: true, value: patch });
		expect(parseJsonPatch([{ op: 'copy', from: '/a', path: '/b', value: 1 }])).toEqual({ ok: true, value: [{ op: 'copy', from: '/a', path: '/b' }] });
	});
	it('drops members an operation does not use', () => {
		expect(parseJsonPatch([{ op: 'remove', path: '/a', value: 1, note: 'x' }])).toEqual({ ok: true, value: [{ op: 'remove', path: '/a' }] });
	});
	it.each([
		['not JSON', '[{op:', 'is not valid JSON'],
		['an object', { op: 'add' }, 'must be an array of operations'],
		['an empty array', [], 'has no operations'],
		['an entry that is not an object', [1], 'operation 0 must be an object'],
		['an op RFC 6902 does not have', [{ op: 'merge', path: '/a', value: 1 }], 'operation 0: op must be one of add, remove, replace, move, copy, test'],
		['move without from', [{ op: 'move', path: '/a' }], 'operation 0: from is required for "move"'],
		['copy with a from that is not a JSON Pointer', [{ op: 'copy', from: 'name', path: '/a' }], 'operation 0: from must be a JSON Pointer starting with "/"'],
		['copy with a bad ~ escape in from', [{ op: 'copy', from: '/a~', path: '/b' }], 'operation 0: from has a "~" that is not "~0" or "~1"'],
		['a move into its own child', [{ op: 'move', from: '/tags', path: '/tags/site' }], 'operation 0: path cannot lie inside from ("/tags")'],
		['test without a value', [{ op: 'test', path: '/name' }], 'operation 0: value is required for "test"'],
		['a path that is not a JSON Pointer', [{ op: 'remove', path: 'name' }], 'operation 0: path must be a JSON Pointer starting with "/"'],
		['a missing path', [{ op: 'remove' }], 'operation 0: path is missing'],
		['a bad ~ escape', [{ op: 'remove', path: '/a~2' }], 'operation 0: path has a "~" that is not "~0" or "~1"'],
		['add without a value', [{ op: 'replace', path: '/a', value: 1 }, { op: 'add', path: '/b' }], 'operation 1: value is required for "add"'],
	])('refuses %s', (_, input, problem) => {
		const result = parseJsonPatch(input);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.problem).toContain(problem);
	});
});
