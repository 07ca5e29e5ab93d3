/** Group lists and device membership. Pure. */
import { preview, toResourceId, toTextList, type Check } from './validation';
import type { Group } from './wire';

export function filterGroups(groups: Group[], filters: { nameContains?: string }): Group[] {
	const name = filters.nameContains?.trim().toLowerCase() ?? '';
	return groups.filter((group) => name === '' || (group.name ?? '').toLowerCase().includes(name));
}

/** The group's devices followed by the new ones; an id already there is not added twice. */
export function devicesWith(current: readonly string[], added: readonly string[]): string[] {
	return [...new Set([...current, ...added])];
}

export function devicesWithout(current: readonly string[], removed: readonly string[]): string[] {
	return current.filter((id) => !removed.includes(id));
}

export function sameDevices(a: readonly string[], b: readonly string[]): boolean {
	return a.length === b.length && a.every((id, index) => id === b[index]);
}

/** Device ids as a comma-separated list or an array; each must be able to travel in a path. */
export function toDeviceIds(value: unknown): Check<string[]> {
	const list = toTextList(value);
	if (!list.ok) return list;
	const bad = list.value.find((id) => !toResourceId(id).ok);
	return bad === undefined ? list : { ok: false, problem: `holds an invalid device id ${preview(bad)}` };
}
